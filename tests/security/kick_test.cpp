// SPDX-License-Identifier: MIT
// Kick and ban: the session's authority revokes a member's invitation. Every member closes its
// links to it, its objects pass to the default owner, it is told why, and its invitation admits
// it nowhere again, through the host or through any other member. Single-use invitations admit
// one peer. The matches run secured on the in-process network, each peer with credentials of its
// own from one authority (the test's).
#include <doctest/doctest.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "peer/match_harness.hpp"
#include "secure_pair.hpp"
#include "wire/dismissal.hpp"

using namespace shoal;
using namespace shoal::test;

namespace {

// A secured FakeMatch: player p has invitations[p].
struct SecuredMatch {
  SessionAuthority authority{"kick-tests"};
  std::vector<Credentials> invitations;
  FakeMatch match;

  SecuredMatch(int peers, InvitationUse use, PeerConfig config = {})
      : invitations(make_invitations(authority, peers, use)),
        match(peers, ArenaSpec{peers, 4}, config, 52, -1, [this](int p, std::unique_ptr<Transport> t) {
          SecurityConfig security;
          security.credentials = invitations[static_cast<std::size_t>(p)];
          return make_secure_transport(std::move(t), security);
        }) {}

  static std::vector<Credentials> make_invitations(const SessionAuthority& authority, int peers, InvitationUse use) {
    std::vector<Credentials> all;
    for (int p = 0; p < peers; ++p) all.push_back(authority.invite(std::chrono::hours(1), use));
    return all;
  }
  Peer& peer(int p) { return *match.players[static_cast<std::size_t>(p)].peer; }
};

// A peer of its own on the match's network with `credentials`, joining `host`: what a kicked
// player's game does when it comes back. Runs the match until it is in or has failed.
struct Newcomer {
  ReferencePhysics physics{arena_physics(ArenaSpec{3, 4})};
  std::unique_ptr<Peer> peer;
  std::optional<Event> failed;
  bool in_match = false;

  Newcomer(SecuredMatch& m, const Credentials& credentials, std::uint16_t port, const Address& host) {
    build_arena(physics, ArenaSpec{3, 4});
    SecurityConfig security;
    security.credentials = credentials;
    peer = std::make_unique<Peer>(PeerConfig{}, physics, make_secure_transport(m.match.network().create_endpoint(port, 2000), security));
    peer->join(host);
    for (int i = 0; i < 6 * 60 && !failed && !in_match; ++i) {
      m.match.run(1.0 / 60, [&] { peer->update_at(m.match.now_us()); });
      for (Event e; peer->poll_event(e);) {
        if (e.kind == EventKind::join_failed) failed = e;
      }
      in_match = peer->in_match();
    }
  }
};

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// Whether `peer` admitted anyone (a peer_joined event) since the last call.
bool admitted_anyone(Peer& peer) {
  bool admitted = false;
  for (Event e; peer.poll_event(e);) admitted = admitted || e.kind == EventKind::peer_joined;
  return admitted;
}

}  // namespace

TEST_CASE("a kicked peer is told why, its objects pass on, and it cannot rejoin with its old invitation") {
  SecuredMatch m(3, InvitationUse::reusable);
  REQUIRE(m.match.connect(5));
  m.match.enable_bots(3);
  m.match.run(1.0);
  const ObjectId ball = m.match.players[2].ball;
  REQUIRE(m.peer(0).owner(ball) == 2);

  m.peer(0).kick(2, m.authority, "voted out for cheating");
  const std::optional<Event> kicked = m.match.run_until_event(2, EventKind::kicked, 1.0);
  REQUIRE(kicked);
  CHECK(kicked->reason == "voted out for cheating");
  CHECK_FALSE(m.peer(2).in_match());
  m.match.players[2].alive = false;
  // Within a second of the kick every remaining member has handed its objects on.
  m.match.run(1.0);
  for (int p : {0, 1}) {
    CHECK(m.peer(p).peers() == std::vector<PeerId>{0, 1});
    CHECK(m.peer(p).owner(ball) != 2);
    CHECK(m.peer(p).owner(ball) == m.peer(0).owner(ball));
  }

  // It comes back with the same invitation: the host turns it down at the handshake, saying
  // why; its peer never hears of it.
  admitted_anyone(m.peer(0));
  admitted_anyone(m.peer(1));
  Newcomer back(m, m.invitations[2], 40, m.peer(0).address());
  CHECK_FALSE(admitted_anyone(m.peer(0)));
  REQUIRE(back.failed);
  CHECK_FALSE(back.in_match);
  CHECK(back.failed->failure == JoinFailure::refused);
  CHECK(contains(back.failed->reason, "revoked"));
  CHECK(contains(back.failed->reason, "voted out for cheating"));
  CHECK(m.peer(0).stats().dropped[DropReason::revoked] >= 1);
  // So does member 1, which never saw the kick itself but was handed the revocation: any
  // member that admits joiners refuses it.
  Newcomer through_member(m, m.invitations[2], 41, m.peer(1).address());
  CHECK_FALSE(through_member.in_match);
  CHECK_FALSE(admitted_anyone(m.peer(1)));
  REQUIRE(through_member.failed);
  CHECK(contains(through_member.failed->reason, "revoked"));
  CHECK(m.peer(1).stats().dropped[DropReason::revoked] >= 1);

  // The control: an invitation never revoked still joins the same way.
  Newcomer fresh(m, m.authority.invite(), 42, m.peer(0).address());
  CHECK(fresh.in_match);
  CHECK(admitted_anyone(m.peer(0)));
}

TEST_CASE("a hello naming a revoked invitation is refused at the handshake, with the reason sealed to it") {
  MemoryNetwork net(21);
  const Credentials banned = test_credentials();
  End host = make_end(net, 1, test_credentials());
  End joiner = make_end(net, 2, banned);
  REQUIRE(host.transport->revoke(test_authority().revoke(banned.peer_key(), "griefing")));
  joiner.transport->connect(host.transport->local_address());
  REQUIRE(drive(net, host, joiner, [&] { return joiner.saw(TransportEventKind::disconnected); }));
  CHECK_FALSE(host.saw(TransportEventKind::connected));  // the layers above never heard of it
  CHECK_FALSE(joiner.saw(TransportEventKind::connected));
  CHECK(host.dropped(DropReason::revoked) == 1);
  REQUIRE(joiner.told.size() == 1);  // the dismissal from the refusal frame
  wire::Dismissal dismissal;
  REQUIRE(wire::decode(joiner.told.front(), dismissal));
  CHECK(dismissal.cause == wire::DismissalCause::revoked);
  CHECK(dismissal.reason == "the session's authority revoked this invitation: griefing");
  // Another authority's revocation changes nothing.
  const SessionAuthority stranger(test_authority().session());
  CHECK_FALSE(host.transport->revoke(stranger.revoke(test_credentials().peer_key(), "not yours")));
}

TEST_CASE("a kick needs the session's own authority and secured links") {
  SecuredMatch m(2, InvitationUse::reusable);
  REQUIRE(m.match.connect(5));
  const SessionAuthority other("kick-tests");  // the same session name, another key
  CHECK_THROWS_AS(m.peer(0).kick(1, other, "not yours to kick"), std::invalid_argument);
  CHECK_THROWS_AS(m.peer(0).kick(0, m.authority, "itself"), std::invalid_argument);
  m.match.run(0.5);
  CHECK(m.peer(0).peers() == std::vector<PeerId>{0, 1});  // nothing happened

  FakeMatch clear(2, ArenaSpec{2, 4}, {}, 53);
  REQUIRE(clear.connect(5));
  CHECK_THROWS_AS(clear.players[0].peer->kick(1, m.authority, "in the clear"), std::logic_error);
}

TEST_CASE("a single-use invitation admits one peer, never a second one") {
  SecuredMatch m(2, InvitationUse::single_use);
  REQUIRE(m.match.connect(5));
  CHECK(m.invitations[1].single_use());
  // Someone else with a copy of peer 1's invitation: refused, and told why.
  Newcomer copy(m, m.invitations[1], 40, m.peer(0).address());
  REQUIRE(copy.failed);
  CHECK(copy.failed->failure == JoinFailure::refused);
  CHECK(contains(copy.failed->reason, "already admitted peer 1"));
  CHECK(m.peer(0).stats().dropped[DropReason::invitation_used] >= 1);
  CHECK(m.peer(0).peers() == std::vector<PeerId>{0, 1});

  // A reusable invitation is not held to that: two peers join with copies of one.
  SecuredMatch reusable(2, InvitationUse::reusable);
  REQUIRE(reusable.match.connect(5));
  Newcomer second(reusable, reusable.invitations[1], 40, reusable.peer(0).address());
  CHECK(second.in_match);
}

TEST_CASE("a peer with a single-use invitation rejoins as itself after its links drop") {
  PeerConfig config;
  config.rejoin_grace_ms = 5000;
  SecuredMatch m(2, InvitationUse::single_use, config);
  REQUIRE(m.match.connect(5));
  // The link cut for long enough that both ends time out (ports 1 and 2: peers 0 and 1); then
  // the network heals.
  m.match.network().set_blocked(1, 2, true);
  const std::optional<Event> lost = m.match.run_until_event(0, EventKind::peer_lost, 6.0);
  REQUIRE(lost);
  m.match.network().set_blocked(1, 2, false);
  const std::optional<Event> back = m.match.run_until_event(0, EventKind::peer_rejoined, 6.0);
  REQUIRE(back);
  CHECK(back->peer == 1);
  CHECK(m.peer(0).stats().dropped[DropReason::invitation_used] == 0);
}
