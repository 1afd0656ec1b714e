// SPDX-License-Identifier: MIT
// A peer of an older wire version meets a secured host: in the clear (a build before secured
// links) or secured (a build from before this wire version), it is told both versions rather
// than dropped as a stranger; so is a peer of this version whose links are in the clear. Another
// version is played by a transport that rewrites the version byte of everything its peer sends
// (version_rewriter.hpp).
#include <doctest/doctest.h>

#include <memory>
#include <optional>
#include <string>

#include "secure_pair.hpp"
#include "shoal/peer.hpp"
#include "shoal/reference_physics.hpp"
#include "version_rewriter.hpp"
#include "wire/packet_header.hpp"

using namespace shoal;
using namespace shoal::test;

namespace {

struct Side {
  ReferencePhysics physics{ReferencePhysicsConfig{}};
  std::unique_ptr<Peer> peer;
  std::optional<Event> failed;

  explicit Side(std::unique_ptr<Transport> transport) {
    ObjectState ball;
    ball.position = {0, 0.5f, 0};
    physics.add_sphere(1, 0.5f, 1.0f, ball);
    peer = std::make_unique<Peer>(PeerConfig{}, physics, std::move(transport));
  }
};

enum class Joiner { clear, secured };

// A secured host, and a joiner speaking wire version `version` with its links as `joiner`
// says; runs until the join fails or 5 s (the network's time) pass.
std::optional<Event> join(int version, Joiner joiner, DropCounters* host_drops = nullptr) {
  MemoryNetwork net(31);
  SecurityConfig on;
  on.credentials = test_credentials();
  Side host(make_secure_transport(net.create_endpoint(1, 2000), on));
  std::unique_ptr<Transport> transport = net.create_endpoint(2, 2000);
  const auto rewrite = [&](std::unique_ptr<Transport> t) -> std::unique_ptr<Transport> {
    if (version == wire::kProtocolVersion) return t;
    return std::make_unique<VersionRewriter>(std::move(t), static_cast<std::uint8_t>(version));
  };
  if (joiner == Joiner::clear) {
    transport = rewrite(std::move(transport));
  } else {  // the version is that of the messages inside the secured link
    SecurityConfig security;
    security.credentials = test_credentials();
    transport = rewrite(make_secure_transport(std::move(transport), security));
  }
  Side guest(std::move(transport));
  host.peer->host();
  guest.peer->join(host.peer->address());
  std::int64_t now = 1'000'000;
  for (int i = 0; i < 300 && !guest.failed; ++i) {
    now += 16'667;
    net.set_time_us(now);
    host.peer->update_at(now);
    guest.peer->update_at(now);
    for (Event e; guest.peer->poll_event(e);) {
      if (e.kind == EventKind::join_failed) guest.failed = e;
    }
  }
  if (host_drops != nullptr) *host_drops = host.peer->stats().dropped;
  return guest.failed;
}

const std::string kThis = std::to_string(wire::kProtocolVersion);

}  // namespace

TEST_CASE("a peer of an older wire version in the clear gets the version refusal from a secured host") {
  DropCounters drops;
  const std::optional<Event> failed = join(8, Joiner::clear, &drops);
  REQUIRE(failed);
  CHECK(failed->failure == JoinFailure::incompatible);
  CHECK(failed->step == JoinStep::connecting);
  CHECK(failed->reason == "wire versions differ: the host speaks wire version " + kThis + ", the joiner 8");
  CHECK(drops[DropReason::unsupported_version] >= 1);  // its join, and what it sent while the link closed
}

TEST_CASE("a secured peer of an older wire version gets the version refusal too") {
  const std::optional<Event> failed = join(wire::kProtocolVersion - 1, Joiner::secured);
  REQUIRE(failed);
  CHECK(failed->failure == JoinFailure::incompatible);
  CHECK(failed->reason == "wire versions differ: the host speaks wire version " + kThis + ", the joiner " +
                              std::to_string(wire::kProtocolVersion - 1));
}

TEST_CASE("a peer of this version in the clear is told that the links differ") {
  DropCounters drops;
  const std::optional<Event> failed = join(wire::kProtocolVersion, Joiner::clear, &drops);
  REQUIRE(failed);
  CHECK(failed->failure == JoinFailure::incompatible);
  CHECK(failed->reason.find("links differ") != std::string::npos);
  CHECK(drops[DropReason::no_token] >= 1);
}
