// SPDX-License-Identifier: MIT
// Joining a match in progress, and coming back after a drop.
#include <doctest/doctest.h>

#include "hostile_peers.hpp"
#include "match_harness.hpp"

using namespace shoal;
using namespace shoal::test;

namespace {

// Once the bots stop, the world comes to rest and every live peer holds the same bits.
void settles_bitwise_equal(FakeMatch& m, const ArenaSpec& spec) {
  CHECK(m.settle(15));
  const Divergence d = divergence(m.players, all_ids(spec));
  CHECK(d.objects_compared > 0);
  CHECK(d.bitwise);
}

}  // namespace

TEST_CASE("a late joiner gets a baseline and reaches the same state as everyone") {
  ArenaSpec spec{3, 10, 10};
  FakeMatch m(3, spec, PeerConfig{}, 101, 2);
  m.network().set_conditions(link(30, 0.05f, 5));
  m.enable_bots(21);
  m.players[2].bot.reset();
  m.run(6);  // two peers move things about; the third still has the initial world
  const Vec3 moved = m.players[0].peer->state(kFirstObject + 3).position;
  REQUIRE(distance(moved, m.players[2].physics->read(3 + 3).position) > 0.0f);
  m.join_late(2);
  REQUIRE(m.connect(5));
  m.run(2);
  m.disable_bots();
  m.run(8);
  const Divergence d = divergence(m.players, all_ids(spec));
  CHECK(d.objects_compared == static_cast<int>(all_ids(spec).size()) * 2);
  CHECK(d.bitwise);
}

TEST_CASE("a peer that drops and comes back within the grace period keeps its id and objects") {
  ArenaSpec spec{3, 6};
  PeerConfig config;
  config.rejoin_grace_ms = 6000;
  FakeMatch m(3, spec, config, 102);
  m.network().set_conditions(link(20, 0.02f, 5));
  REQUIRE(m.connect(5));
  m.enable_bots(5);
  m.run(2);
  const ObjectId ball = m.players[2].ball;
  REQUIRE(m.players[0].peer->owner(ball) == 2);
  // Peer 2's network goes away for 3 s: longer than the 2 s timeout, shorter than the grace.
  m.network().set_blocked(3, 1, true);
  m.network().set_blocked(3, 2, true);
  int owner_changed = 0;
  m.run(3, [&] {
    if (m.players[0].peer->owner(ball) != 2 || m.players[1].peer->owner(ball) != 2) ++owner_changed;
  });
  m.network().set_blocked(3, 1, false);
  m.network().set_blocked(3, 2, false);
  bool rejoined_0 = false, rejoined_1 = false, lost_0 = false;
  m.run(6, [&] {
    for (Event e; m.players[0].peer->poll_event(e);) {
      lost_0 = lost_0 || (e.kind == EventKind::peer_lost && e.peer == 2);
      rejoined_0 = rejoined_0 || (e.kind == EventKind::peer_rejoined && e.peer == 2);
    }
    for (Event e; m.players[1].peer->poll_event(e);) {
      rejoined_1 = rejoined_1 || (e.kind == EventKind::peer_rejoined && e.peer == 2);
    }
  });
  CHECK(lost_0);
  CHECK(rejoined_0);
  CHECK(rejoined_1);
  CHECK(owner_changed == 0);
  CHECK(m.players[2].peer->id() == 2);
  for (Player& p : m.players) CHECK(p.peer->peers() == std::vector<PeerId>{0, 1, 2});
  settles_bitwise_equal(m, spec);
  CHECK(m.players[0].peer->owner(ball) == m.players[1].peer->owner(ball));
}

TEST_CASE("a stranger cannot take over a lost peer's identity") {
  ArenaSpec spec{3, 2};
  PeerConfig config;
  config.rejoin_grace_ms = 10000;
  FakeMatch m(3, spec, config, 103);
  REQUIRE(m.connect(5));
  m.run(1);
  REQUIRE(m.players[0].peer->owner(m.players[2].ball) == 2);
  m.network().crash(3);  // peer 2 is gone; its id and objects wait for it
  m.players[2].alive = false;
  m.run(3);
  REQUIRE(m.players[0].peer->peers() == std::vector<PeerId>{0, 1, 2});
  const auto dropped = m.players[0].peer->stats().dropped[DropReason::not_owner];
  for (const std::uint64_t guess : {0ull, 1ull, 0x123456789ull}) {
    Intruder impostor{m.network().create_endpoint(static_cast<std::uint16_t>(20 + guess % 7))};
    impostor.connection = impostor.transport->connect(m.players[0].peer->address());
    m.run(0.2);
    impostor.drain();
    impostor.send(Channel::control, encoded(wire::JoinRequest{"shoal", 9, 2, guess}));
    m.run(0.2);
    impostor.drain();
  }
  CHECK(m.players[0].peer->stats().dropped[DropReason::not_owner] == dropped + 3);
  CHECK(m.players[0].peer->peers() == std::vector<PeerId>{0, 1, 2});
  CHECK(m.players[0].peer->owner(m.players[2].ball) == 2);
}

TEST_CASE("with no grace period, a peer the membership authority lost leaves everyone's match") {
  // The host (the authority) loses peer 2 for good, while peer 1 still hears it. Peer 1 takes
  // the host's word: it drops peer 2 too and hands over the same objects, so the two agree.
  ArenaSpec spec{3, 8};
  PeerConfig config;
  config.rejoin_grace_ms = 0;
  FakeMatch m(3, spec, config, 105);
  m.network().set_conditions(link(20, 0.02f, 5));
  REQUIRE(m.connect(5));
  m.enable_bots(9);
  m.run(2);
  m.network().set_blocked(1, 3, true);
  const std::optional<Event> left = m.run_until_event(1, EventKind::peer_left, 5);
  REQUIRE(left.has_value());
  CHECK(left->peer == 2);
  m.players[2].alive = false;  // alone now: out of the comparison
  for (std::size_t p : {0u, 1u}) CHECK(m.players[p].peer->peers() == std::vector<PeerId>{0, 1});
  settles_bitwise_equal(m, spec);
  for (ObjectId id : all_ids(spec)) CHECK(m.players[0].peer->owner(id) == m.players[1].peer->owner(id));
}

TEST_CASE("one link that drops while both peers stay up is dialled again, and nobody splits off") {
  // Peers 1 and 2 lose each other (past the 2 s timeout) while both still reach the host.
  // With a grace period, each would hand the other's objects over when it ended; with none,
  // at once, unless only the host (the membership authority) may say a peer is lost. Either
  // way the two would play on in worlds of their own. The newer one dials the older again.
  for (const int grace_ms : {4000, 0}) {
    CAPTURE(grace_ms);
    ArenaSpec spec{3, 8};
    PeerConfig config;
    config.rejoin_grace_ms = grace_ms;
    FakeMatch m(3, spec, config, 103);
    m.network().set_conditions(link(20, 0.05f, 5));
    REQUIRE(m.connect(5));
    m.enable_bots(7);
    m.run(2);
    m.network().set_blocked(2, 3, true);
    const std::optional<Event> lost = m.run_until_event(1, EventKind::peer_lost, 4);
    REQUIRE(lost.has_value());  // the block outlasted the timeout
    CHECK(lost->peer == 2);
    m.network().set_blocked(2, 3, false);
    bool rejoined_1 = false, rejoined_2 = false, left = false;
    m.run(8, [&] {
      for (Event e; m.players[1].peer->poll_event(e);) {
        rejoined_1 = rejoined_1 || (e.kind == EventKind::peer_rejoined && e.peer == 2);
        left = left || e.kind == EventKind::peer_left;
      }
      for (Event e; m.players[2].peer->poll_event(e);) {
        rejoined_2 = rejoined_2 || (e.kind == EventKind::peer_rejoined && e.peer == 1);
        left = left || e.kind == EventKind::peer_left;
      }
    });
    CHECK(rejoined_1);
    CHECK(rejoined_2);
    CHECK_FALSE(left);
    for (Player& p : m.players) CHECK(p.peer->peers() == std::vector<PeerId>{0, 1, 2});
    settles_bitwise_equal(m, spec);
  }
}
