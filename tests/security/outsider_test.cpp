// SPDX-License-Identifier: MIT
// An outsider without the session's key tries a well-formed snapshot and an ownership claim on
// a secured match, once through a connection of its own and once injected into a member's link
// (as an attacker on the path). Both are dropped and counted and change nothing. The same
// attacks on a match in the clear succeed: that is what the security layer stops.
#include <doctest/doctest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "peer/hostile_peers.hpp"
#include "peer/match_harness.hpp"
#include "secure_pair.hpp"

using namespace shoal;
using namespace shoal::test;

namespace {

constexpr PeerId kOutsider = 9;

enum class Attack { own_connection, injected_into_link };

struct Outcome {
  bool outsider_is_member = false;
  PeerId owner = kNoPeer;  ///< of the target afterwards, as the host sees it
  float moved_m = 0;       ///< how far the target moved on the host
  DropCounters dropped;    ///< the host's
  std::vector<std::string> warnings;  ///< what the host's log hook said at warn
};

// What the attacker sends: a claim of the host's object in `as`'s name, and a snapshot in the
// same name that moves it 3 m.
struct Forgeries {
  std::vector<std::uint8_t> claim, snapshot;
};

Forgeries forge(FakeMatch& m, PeerId as, ObjectId target) {
  Peer& host = *m.players[0].peer;
  BodyIndex body = 0;
  while (m.players[0].physics->body_id(body) != target) ++body;
  const Frame frame = host.frame() - 1;
  ObjectState moved = host.state(target);
  moved.position.x += 3;
  moved.at_rest = false;
  wire::Snapshot snapshot;
  snapshot.sender = as;
  snapshot.frame = frame;
  snapshot.objects.push_back(wire::make_record(body, wire::Quantizer(SnapshotConfig{}).quantize(moved), nullptr, 0));
  return {encoded(wire::Ownership{{{target, as, 1000, as, frame}}, false}), encoded(snapshot)};
}

Outcome attack(Attack kind, bool secure) {
  Tap* host_tap = nullptr;
  const TransportWrapper wrap = [&](int p, std::unique_ptr<Transport> t) -> std::unique_ptr<Transport> {
    if (p == 0) {
      auto tap = std::make_unique<Tap>(std::move(t));
      host_tap = tap.get();
      t = std::move(tap);
    }
    SecurityConfig security;
    security.enabled = secure;
    security.credentials = test_credentials();
    return make_secure_transport(std::move(t), security);
  };
  auto warnings = std::make_shared<std::vector<std::string>>();
  PeerConfig config;
  config.log.level = LogLevel::warn;
  config.log.callback = [warnings](LogLevel, std::string_view text) { warnings->emplace_back(text); };
  FakeMatch m(2, ArenaSpec{2, 4}, config, 94, -1, wrap);
  REQUIRE(m.connect(5));
  Peer& host = *m.players[0].peer;
  const ObjectId target = kFirstObject;
  REQUIRE(host.owner(target) == 0);
  const ObjectState before = host.state(target);

  if (kind == Attack::own_connection) {
    Intruder outsider{m.network().create_endpoint(78)};
    outsider.connection = outsider.transport->connect(host.address());
    m.run(0.2);
    outsider.drain();
    const Forgeries forged = forge(m, kOutsider, target);
    outsider.send(Channel::control, encoded(wire::Hello{kOutsider, "shoal"}));
    outsider.send(Channel::state, forged.snapshot);
    outsider.send(Channel::control, forged.claim);
    for (int i = 0; i < 30; ++i) {
      m.run(1.0 / 60);
      outsider.drain();
      const Forgeries again = forge(m, kOutsider, target);
      outsider.send(Channel::state, again.snapshot);
    }
  } else {
    // As member 1, on the host's link to member 1.
    REQUIRE(host_tap->first_connection != kNoConnection);
    const Forgeries forged = forge(m, 1, target);
    host_tap->injected.push_back({host_tap->first_connection, Channel::control, forged.claim});
    host_tap->injected.push_back({host_tap->first_connection, Channel::state, forged.snapshot});
    for (int i = 0; i < 30; ++i) {
      m.run(1.0 / 60);
      host_tap->injected.push_back({host_tap->first_connection, Channel::state, forge(m, 1, target).snapshot});
    }
  }
  m.run(0.1);
  Outcome outcome;
  const auto peers = host.peers();
  outcome.outsider_is_member = std::ranges::find(peers, kOutsider) != peers.end();
  outcome.owner = host.owner(target);
  outcome.moved_m = distance(host.state(target).position, before.position);
  outcome.dropped = host.stats().dropped;
  outcome.warnings = *warnings;
  return outcome;
}

}  // namespace

TEST_CASE("an outsider's snapshot and ownership claim on a connection of its own are dropped and counted, with no effect") {
  const Outcome in_clear = attack(Attack::own_connection, false);
  CHECK(in_clear.outsider_is_member);  // without security the stranger simply joins the mesh

  const Outcome sealed = attack(Attack::own_connection, true);
  CHECK_FALSE(sealed.outsider_is_member);
  CHECK(sealed.owner == 0);
  CHECK(sealed.moved_m < 0.01f);
  // Its first state message and its first control message (the hello) are counted; the
  // hello, not being a handshake, closes its connection, so nothing later reaches the host.
  CHECK(sealed.dropped[DropReason::no_token] >= 2);
  CHECK(sealed.dropped[DropReason::not_owner] == 0);  // none got as far as the peer's checks
}

TEST_CASE("an outsider's snapshot and ownership claim injected into a member's link are dropped and counted, with no effect") {
  const Outcome in_clear = attack(Attack::injected_into_link, false);
  CHECK(in_clear.owner == 1);  // without security the forged claim takes the object...
  CHECK(in_clear.dropped[DropReason::forged] == 0);

  const Outcome sealed = attack(Attack::injected_into_link, true);
  CHECK(sealed.owner == 0);
  CHECK(sealed.moved_m < 0.01f);
  // The claim and all 31 snapshots: none authenticates under the link's key.
  CHECK(sealed.dropped[DropReason::forged] + sealed.dropped[DropReason::truncated] == 32);
  // The log hook says why (security drops happen in the transport, below the peer's checks).
  const bool told = std::ranges::any_of(sealed.warnings, [](const std::string& line) {
    return line.find("the transport dropped") != std::string::npos && line.find("forged") != std::string::npos;
  });
  CHECK(told);
}
