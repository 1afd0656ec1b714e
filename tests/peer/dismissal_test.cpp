// SPDX-License-Identifier: MIT
// A joiner the host turns down learns why (a dismissal), and gives up at once with that reason
// instead of retrying until its deadline: asking for another session, asking a peer that does
// not host, coming back as a peer it cannot prove it was. In the clear, on the in-process
// network: what the host says is the peer's own, whatever the links.
#include <doctest/doctest.h>

#include <memory>
#include <optional>
#include <string>

#include "shoal/memory_network.hpp"
#include "shoal/peer.hpp"
#include "shoal/reference_physics.hpp"

using namespace shoal;

namespace {

struct Side {
  ReferencePhysics physics{ReferencePhysicsConfig{}};
  std::unique_ptr<Peer> peer;
  std::optional<Event> failed;

  Side(MemoryNetwork& net, std::uint16_t port, const std::string& session) {
    ObjectState ball;
    ball.position = {0, 0.5f, 0};
    physics.add_sphere(1, 0.5f, 1.0f, ball);
    PeerConfig config;
    config.session = session;
    peer = std::make_unique<Peer>(config, physics, net.create_endpoint(port, 2000));
  }
};

// `joiner` joins `host` (which hosts when `hosting`); both update until the join fails or is
// done, or 3 s of the network's time pass. Returns the joiner's join_failed, if any.
std::optional<Event> join(const std::string& host_session, bool hosting, const std::string& joiner_session,
                          std::int64_t* failed_after_ms = nullptr) {
  MemoryNetwork net(41);
  Side host(net, 1, host_session);
  Side joiner(net, 2, joiner_session);
  if (hosting) host.peer->host();
  joiner.peer->join(host.peer->address());
  std::int64_t now = 1'000'000;
  for (int i = 0; i < 180 && !joiner.failed && !joiner.peer->in_match(); ++i) {
    now += 16'667;
    net.set_time_us(now);
    host.peer->update_at(now);
    joiner.peer->update_at(now);
    for (Event e; joiner.peer->poll_event(e);) {
      if (e.kind == EventKind::join_failed) joiner.failed = e;
    }
  }
  if (failed_after_ms != nullptr) *failed_after_ms = (now - 1'000'000) / 1000;
  return joiner.failed;
}

}  // namespace

TEST_CASE("compatibility: a joiner asking for another session is turned down at once, both sessions named") {
  std::int64_t after_ms = 0;
  const std::optional<Event> failed = join("friday", true, "saturday", &after_ms);
  REQUIRE(failed);
  CHECK(failed->failure == JoinFailure::refused);
  CHECK(failed->step == JoinStep::connecting);
  CHECK(failed->reason == "the host plays session 'friday', the joiner asked for 'saturday'");
  CHECK(after_ms < 1000);  // not at its 10 s deadline: it was told
}

TEST_CASE("compatibility: a joiner asking a peer that does not host is turned down, and told so") {
  const std::optional<Event> failed = join("friday", false, "friday");
  REQUIRE(failed);
  CHECK(failed->failure == JoinFailure::refused);
  CHECK(failed->reason == "this peer is not in a match it hosts");
}

TEST_CASE("compatibility: the same session joins (the control for the dismissals above)") {
  CHECK_FALSE(join("friday", true, "friday"));
}
