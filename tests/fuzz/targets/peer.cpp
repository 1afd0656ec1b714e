// SPDX-License-Identifier: MIT
// One shoal::Peer fed a script (peer_script.hpp) of what a fake remote sends it: connections
// opening and closing, datagrams on every channel, handshake included, and its updates in
// between. It hosts or joins as the script says, in the fuzz world (fuzz_world.hpp). Whatever
// arrives, the peer must neither crash nor trip a sanitizer, and every state it holds must stay
// finite with a unit orientation: bad input is dropped and counted, never simulated.
#include <cstdio>
#include <cstdlib>
#include <memory>

#include "fuzz_target.hpp"
#include "fuzz_world.hpp"
#include "peer_script.hpp"
#include "wire/state_checks.hpp"

using namespace shoal;
using namespace shoal::fuzz;

namespace {

// Bounds one execution whatever the input: updates, and simulated time per update.
constexpr int kMaxUpdates = 2000;

ConnectionId connection_of(std::uint8_t number) { return number; }

}  // namespace

SHOAL_FUZZ_TARGET(peer) {
  InputCursor input(data, size);
  const std::uint8_t setup = input.u8();
  const test::ArenaSpec arena = fuzz_arena();
  const std::unique_ptr<ReferencePhysics> world = make_fuzz_world();
  auto owned_transport = std::make_unique<ScriptTransport>();
  ScriptTransport& transport = *owned_transport;
  Peer peer(fuzz_peer_config(), *world, std::move(owned_transport));
  peer.set_controlled(test::kFirstBall + static_cast<ObjectId>(((setup >> 1) & 3) % arena.balls));
  if ((setup & 1) != 0) {
    peer.join({"10.0.0.2", 40000});
  } else {
    peer.host();
  }
  std::int64_t now_us = 1'000'000;
  for (int updates = 0; !input.empty() && updates < kMaxUpdates;) {
    const auto op = static_cast<ScriptOp>(input.u8() % kScriptOps);
    if (op == ScriptOp::update) {
      now_us += std::int64_t{input.u8()} * 1000;
      peer.update_at(now_us);
      for (Event ignored; peer.poll_event(ignored);) {}
      ++updates;
      continue;
    }
    TransportEvent event;
    event.connection = connection_of(input.u8());
    switch (op) {
      case ScriptOp::connected: event.kind = TransportEventKind::connected; break;
      case ScriptOp::disconnected: event.kind = TransportEventKind::disconnected; break;
      case ScriptOp::timed_out: event.kind = TransportEventKind::timed_out; break;
      default:
        event.kind = TransportEventKind::message;
        event.channel = static_cast<Channel>(input.u8() % kChannelCount);
        event.payload = input.chunk();  // a view into the input, alive for the whole run
        break;
    }
    transport.queue(event);
  }
  peer.update_at(now_us + 17'000);  // whatever was queued last arrives too
  if (std::getenv("SHOAL_FUZZ_SAY") != nullptr) {  // how far a script got: for whoever records seeds
    std::fprintf(stderr, "peer: in_match=%d peers=%zu frame=%d time_ms=%d\n", peer.in_match() ? 1 : 0,
                 peer.peers().size(), static_cast<int>(peer.frame()), static_cast<int>(now_us / 1000));
  }
  for (BodyIndex b = 0; b < world->body_count(); ++b) {
    FUZZ_CHECK(wire::is_plausible(peer.state(world->body_id(b))), "every state the peer holds is usable");
  }
  return 0;
}
