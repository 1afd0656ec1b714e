// SPDX-License-Identifier: MIT
// Two peers over ENet on loopback that cannot play together refuse each other with a message
// naming both wire versions, or the snapshot-encoding setting that differs and both values.
// Another wire version is played by a transport that rewrites the version byte of everything
// its peer sends: on the wire, that peer is a build of that version.
#include <doctest/doctest.h>

#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include "shoal/forwarding_transport.hpp"
#include "shoal/peer.hpp"
#include "shoal/reference_physics.hpp"
#include "test_credentials.hpp"
#include "wire/packet_header.hpp"

using namespace shoal;

namespace {

class VersionRewriter : public ForwardingTransport {
 public:
  VersionRewriter(std::unique_ptr<Transport> inner, std::uint8_t version)
      : ForwardingTransport(std::move(inner)), version_(version) {}
  bool send(ConnectionId connection, Channel channel, std::span<const std::uint8_t> bytes) override {
    std::vector<std::uint8_t> copy(bytes.begin(), bytes.end());
    if (copy.size() >= wire::kHeaderSize && copy[0] == 'S' && copy[1] == 'H') copy[2] = version_;
    return inner().send(connection, channel, copy);
  }

 private:
  std::uint8_t version_;
};

struct Side {
  std::unique_ptr<ReferencePhysics> physics;
  std::unique_ptr<Peer> peer;
  std::optional<Event> failed;        // join_failed
  std::optional<Event> incompatible;  // incompatible_peer

  void poll() {
    for (Event e; peer->poll_event(e);) {
      if (e.kind == EventKind::join_failed && !failed) failed = e;
      if (e.kind == EventKind::incompatible_peer && !incompatible) incompatible = e;
    }
  }
};

Side make_side(const PeerConfig& config, int wire_version) {
  Side side;
  side.physics = std::make_unique<ReferencePhysics>(ReferencePhysicsConfig{});
  ObjectState ball;
  ball.position = {0, 0.5f, 0};
  side.physics->add_sphere(1, 0.5f, 1.0f, ball);
  std::unique_ptr<Transport> transport = make_enet_transport(test::secured());
  if (wire_version != wire::kProtocolVersion) {
    transport = std::make_unique<VersionRewriter>(std::move(transport), static_cast<std::uint8_t>(wire_version));
  }
  side.peer = std::make_unique<Peer>(config, *side.physics, std::move(transport));
  return side;
}

// Hosts on `host`, joins with `joiner`, and updates both until `done` (or 10 s pass; the loop
// is bounded in iterations too).
template <class Done>
void host_and_join(Side& host, Side& joiner, Done&& done) {
  host.peer->host();
  Address address = host.peer->address();
  address.host = "127.0.0.1";
  joiner.peer->join(address);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  for (int i = 0; i < 20'000 && std::chrono::steady_clock::now() < deadline; ++i) {
    host.peer->update();
    joiner.peer->update();
    host.poll();
    joiner.poll();
    if (done()) return;
    host.peer->wait(1);
  }
}

// Until the joiner's join fails and the host has said whom it refused.
void refuse(Side& host, Side& joiner) {
  host_and_join(host, joiner, [&] { return joiner.failed && host.incompatible; });
}

const std::string kThisVersion = std::to_string(wire::kProtocolVersion);
const std::string kOtherVersion = std::to_string(wire::kProtocolVersion + 1);

}  // namespace

TEST_CASE("compatibility over ENet: a joiner of another wire version is refused, both versions named") {
  Side host = make_side({}, wire::kProtocolVersion);
  Side joiner = make_side({}, wire::kProtocolVersion + 1);
  refuse(host, joiner);
  const std::string expected =
      "wire versions differ: the host speaks wire version " + kThisVersion + ", the joiner " + kOtherVersion;
  REQUIRE(joiner.failed);
  CHECK(joiner.failed->failure == JoinFailure::incompatible);
  CHECK(joiner.failed->step == JoinStep::connecting);
  CHECK(joiner.failed->reason == expected);
  REQUIRE(host.incompatible);
  CHECK(host.incompatible->reason == expected);
  CHECK(host.peer->stats().dropped[DropReason::unsupported_version] >= 1);
  CHECK(host.peer->peers().size() == 1);  // itself alone: nobody was admitted
}

TEST_CASE("compatibility over ENet: a host of another wire version is refused by the joiner, both versions named") {
  Side host = make_side({}, wire::kProtocolVersion + 1);
  Side joiner = make_side({}, wire::kProtocolVersion);
  refuse(host, joiner);
  const std::string expected =
      "wire versions differ: the host speaks wire version " + kOtherVersion + ", this peer " + kThisVersion;
  REQUIRE(joiner.failed);
  CHECK(joiner.failed->failure == JoinFailure::incompatible);
  CHECK(joiner.failed->reason == expected);
  REQUIRE(host.incompatible);  // the joiner's refusal reached the host, whatever its version
  CHECK(host.incompatible->reason == expected);
}

TEST_CASE("compatibility over ENet: different snapshot encodings are refused, the setting and both values named") {
  PeerConfig coarse;
  coarse.snapshots.orientation_bits = 12;
  Side host = make_side({}, wire::kProtocolVersion);
  Side joiner = make_side(coarse, wire::kProtocolVersion);
  refuse(host, joiner);
  const std::string expected = "snapshot encoding differs: orientation_bits is 15 on the host, 12 on the joiner";
  REQUIRE(joiner.failed);
  CHECK(joiner.failed->failure == JoinFailure::incompatible);
  CHECK(joiner.failed->reason == expected);
  REQUIRE(host.incompatible);
  CHECK(host.incompatible->reason == expected);
  CHECK(host.peer->peers().size() == 1);  // itself alone: nobody was admitted
}

TEST_CASE("compatibility over ENet: the same settings join (the control for the refusals above)") {
  PeerConfig config;
  SUBCASE("the defaults") {}
  SUBCASE("the same settings, not the defaults") {  // the host's, not a default, are compared
    config.snapshots.orientation_bits = 12;
    config.snapshots.world_max.x = 600;
  }
  Side host = make_side(config, wire::kProtocolVersion);
  Side joiner = make_side(config, wire::kProtocolVersion);
  host_and_join(host, joiner, [&] { return joiner.peer->join_progress().step == JoinStep::joined; });
  CHECK(joiner.peer->join_progress().step == JoinStep::joined);
  CHECK_FALSE(joiner.failed);
}
