// SPDX-License-Identifier: MIT
// An attacker on the path between a relay client and the relay injects frames into the client's
// connection, as anyone who sees ENet's (unauthenticated) headers can: a close of a live route
// with its right tag, a replay of a sealed frame, a tampered one. The hop is sealed with keys
// from the join's key exchange, so each is dropped and counted and the route stays up. Client A
// shares its ENet transport with the test, which hands it the relay's events, and the forgeries.
#include <doctest/doctest.h>

#include <vector>

#include "../relay/relay_harness.hpp"
#include "core/steady_now.hpp"
#include "transport/enet_transport.hpp"

using namespace shoal;
using namespace shoal::test;

namespace {

struct Route {
  transport::RelayServer relay{transport::RelayServerConfig{}};
  transport::EnetTransport a_enet{TransportConfig{}};
  transport::RelayClient a{client_config(relay.address(), "forgery"), a_enet};
  Client b = make_client(client_config(relay.address(), "forgery"));
  std::vector<ConnectionId> a_connected, a_ended;
  std::vector<std::string> a_received;
  ConnectionId relay_connection = kNoConnection;
  std::vector<std::vector<std::uint8_t>> from_relay;  ///< what reached A from the relay on the control channel
  std::vector<TransportEvent> injected;
  std::vector<std::vector<std::uint8_t>> injected_bytes;

  void pump_a() {
    const std::int64_t now = core::steady_now_us();
    TransportEvent e;
    for (int i = 0; i < 10'000 && a_enet.poll(e); ++i) {
      if (!a.carries_event(e)) continue;
      relay_connection = e.connection;
      if (e.kind == TransportEventKind::message && e.channel == Channel::control) {
        from_relay.emplace_back(e.payload.begin(), e.payload.end());
      }
      a.on_shared_event(e, now);
    }
    for (std::size_t i = 0; i < injected.size(); ++i) {
      injected[i].payload = injected_bytes[i];
      a.on_shared_event(injected[i], now);
    }
    injected.clear();
    injected_bytes.clear();
    for (int i = 0; i < 10'000 && a.poll(e, now); ++i) {
      if (e.kind == TransportEventKind::connected) a_connected.push_back(e.connection);
      if (e.kind == TransportEventKind::disconnected || e.kind == TransportEventKind::timed_out) a_ended.push_back(e.connection);
      if (e.kind == TransportEventKind::message) a_received.emplace_back(e.payload.begin(), e.payload.end());
    }
  }
  template <class Done>
  bool run(double seconds, Done&& done) {
    return pump(&relay, {&b}, seconds, [&] {
      pump_a();
      return done();
    });
  }
  void inject(std::vector<std::uint8_t> bytes) {
    TransportEvent e;
    e.kind = TransportEventKind::message;
    e.connection = relay_connection;
    e.channel = Channel::control;
    injected.push_back(e);
    injected_bytes.push_back(std::move(bytes));
  }
};

}  // namespace

TEST_CASE("a forged relay close from the path is dropped and the route stays up") {
  Route r;
  REQUIRE(r.run(10, [&] { return r.a.status().joined && r.b.transport->status().joined; }));
  const ConnectionId b_link = r.b.transport->connect(relay_peer_address(r.a.status().slot));
  REQUIRE(r.run(10, [&] { return !r.a_connected.empty() && !r.b.connected.empty(); }));
  const ConnectionId a_link = r.a_connected.front();
  REQUIRE(r.b.transport->send(b_link, Channel::control, bytes_of("before")));
  REQUIRE(r.run(10, [&] { return r.a_received.size() == 1; }));
  REQUIRE_FALSE(r.from_relay.empty());

  // The close an on-path attacker would send: the route's own tag, from B's slot, in the clear.
  std::vector<std::uint8_t> close, forged;
  transport::encode_link(transport::LinkType::close, r.a.link_tag(a_link), close);
  transport::encode_deliver(r.b.transport->status().slot, close, forged);
  r.inject(forged);
  // And a sealed frame the relay really sent, once again, and once with one bit of its sequence
  // number flipped (a sequence not seen yet: the seal, not the replay window, refuses it).
  const std::vector<std::uint8_t> captured = r.from_relay.back();
  REQUIRE(captured.size() > 7);
  r.inject(captured);
  std::vector<std::uint8_t> tampered = captured;
  tampered[6] ^= 0x01;  // after the 3-byte header: the sequence's top byte
  r.inject(tampered);
  r.pump_a();

  CHECK(r.a_ended.empty());  // the route is still up...
  REQUIRE(r.b.transport->send(b_link, Channel::control, bytes_of("after")));
  REQUIRE(r.a.send(a_link, Channel::state, bytes_of("and back")));
  CHECK(r.run(10, [&] { return r.a_received.size() == 2 && !r.b.received.empty(); }));  // ...both ways
  CHECK(r.a_received.back() == "after");
  CHECK(r.a_ended.empty());
  CHECK(r.b.ended.empty());
  const DropCounters dropped = r.a.drops();
  CHECK(dropped[DropReason::forged] == 2);   // the clear close and the tampered frame
  CHECK(dropped[DropReason::replayed] == 1);
}
