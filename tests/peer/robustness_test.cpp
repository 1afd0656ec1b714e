// SPDX-License-Identifier: MIT
// Bad input and bad peers: garbage, forged snapshots, lying owners, long outages.
#include <doctest/doctest.h>

#include <cstring>

#include "shoal/forwarding_transport.hpp"
#include "core/random.hpp"
#include "hostile_peers.hpp"
#include "match_harness.hpp"
#include "wire/control_messages.hpp"
#include "wire/snapshot_codec.hpp"

using namespace shoal;
using namespace shoal::test;

namespace {

// A connection of its own that introduces itself to peer 0 as member `id` (a Hello).
Intruder introduced(FakeMatch& m, std::uint16_t port, PeerId id) {
  Intruder intruder{m.network().create_endpoint(port)};
  intruder.connection = intruder.transport->connect(m.players[0].peer->address());
  m.run(0.2);
  intruder.drain();
  intruder.send(Channel::control, encoded(wire::Hello{id, "shoal"}));
  m.run(0.2);
  intruder.drain();
  return intruder;
}

}  // namespace

TEST_CASE("garbage from a stranger is dropped and counted, the match goes on") {
  ArenaSpec spec{2, 4};
  FakeMatch m(2, spec, PeerConfig{}, 91);
  REQUIRE(m.connect(5));
  m.enable_bots(1);
  Intruder intruder{m.network().create_endpoint(77)};
  intruder.connection = intruder.transport->connect(m.players[0].peer->address());
  m.run(0.2);
  intruder.drain();
  core::Random random(5);
  std::vector<std::uint8_t> bytes;
  for (int i = 0; i < 3000; ++i) {
    bytes.resize(random.next_u64() % 1500);
    for (auto& b : bytes) b = static_cast<std::uint8_t>(random.next_u64());
    if (i % 3 == 0 && bytes.size() >= 4) {  // a valid header, so the body is what is wrong
      bytes[0] = 'S';
      bytes[1] = 'H';
      bytes[2] = wire::kProtocolVersion;
      bytes[3] = static_cast<std::uint8_t>(std::array{1, 2, 3, 5, 6, 16, 17, 32}[i % 8]);
    }
    intruder.send(static_cast<Channel>(i % 3), bytes);
    if (i % 100 == 0) {
      m.run(1.0 / 60);
      intruder.drain();
    }
  }
  m.run(1);
  const PeerStats s = m.players[0].peer->stats();
  CHECK(s.dropped.total() >= 2900);  // everything but a few ignored pings
  CHECK(s.dropped[DropReason::bad_magic] > 0);
  CHECK(s.dropped[DropReason::truncated] + s.dropped[DropReason::malformed] > 0);
  CHECK(m.players[0].peer->peers() == std::vector<PeerId>{0, 1});  // the stranger never joined
  m.disable_bots();
  m.run(6);
  CHECK(divergence(m.players, all_ids(spec)).bitwise);
}

TEST_CASE("a member cannot move objects it does not own") {
  ArenaSpec spec{2, 4};
  FakeMatch m(2, spec, PeerConfig{}, 92);
  REQUIRE(m.connect(5));
  Intruder liar = introduced(m, 78, 9);
  REQUIRE(m.players[0].peer->peers() == std::vector<PeerId>{0, 1, 9});
  const ObjectId target = kFirstObject;
  const ObjectState before = m.players[0].peer->state(target);
  BodyIndex target_body = 0;
  while (m.players[0].physics->body_id(target_body) != target) ++target_body;
  const auto not_owner_before = m.players[0].peer->stats().dropped[DropReason::not_owner];
  for (int i = 0; i < 60; ++i) {
    wire::Snapshot forged;
    forged.sender = 9;
    forged.frame = m.players[0].peer->frame() - 1;
    ObjectState moved = before;
    moved.position.x += 3;
    moved.at_rest = false;
    const wire::Quantizer quantizer{SnapshotConfig{}};
    forged.objects.push_back(wire::make_record(target_body, quantizer.quantize(moved), nullptr, 0));
    liar.send(Channel::state, encoded(forged));
    forged.sender = 1;  // and pretending to be someone else
    liar.send(Channel::state, encoded(forged));
    // A release in another peer's name is refused too.
    liar.send(Channel::control, encoded(wire::Ownership{{{target, 9, 50, 0, forged.frame}}, false}));
    m.run(1.0 / 60);
    liar.drain();
  }
  CHECK(m.players[0].peer->stats().dropped[DropReason::not_owner] - not_owner_before >= 120);
  CHECK(m.players[0].peer->owner(target) == 0);
  CHECK(distance(m.players[0].peer->state(target).position, before.position) < 0.01f);
}

// A record dropped because its sender does not own the object (yet, as this peer sees it) is
// acknowledged all the same with its packet, and its sender counts it delivered: a resting
// object would never be sent again. Once this peer learns that the sender owns the object,
// it takes the record after all.
TEST_CASE("a record dropped before its sender's claim was heard is taken once the claim is") {
  ArenaSpec spec{2, 4};
  FakeMatch m(2, spec, PeerConfig{}, 93);
  REQUIRE(m.connect(5));
  Peer& peer = *m.players[0].peer;
  Intruder newcomer = introduced(m, 79, 9);
  REQUIRE(peer.peers() == std::vector<PeerId>{0, 1, 9});
  const ObjectId target = kFirstObject;
  BodyIndex target_body = 0;
  while (m.players[0].physics->body_id(target_body) != target) ++target_body;
  const ObjectState before = peer.state(target);
  REQUIRE(before.at_rest);

  // The newcomer's record of the object, a metre aside, arrives before its claim: dropped.
  const Frame frame = peer.frame() - 1;
  ObjectState moved = before;
  moved.position.x += 1;
  wire::Snapshot record;
  record.sender = 9;
  record.frame = frame;
  record.objects.push_back(wire::make_record(target_body, wire::Quantizer(SnapshotConfig{}).quantize(moved), nullptr, 0));
  const auto not_owner_before = peer.stats().dropped[DropReason::not_owner];
  newcomer.send(Channel::state, encoded(record));
  m.run(0.1);
  newcomer.drain();
  REQUIRE(peer.stats().dropped[DropReason::not_owner] == not_owner_before + 1);
  REQUIRE(peer.owner(target) != 9);
  CHECK(distance(peer.state(target).position, before.position) < 0.01f);

  // Its claim, as of that frame, arrives: the held record counts now, and nothing else is sent.
  wire::Ownership claim{{{target, 9, 1000, 9, frame}}, true};
  newcomer.send(Channel::control, encoded(claim));
  m.run(0.1);
  newcomer.drain();
  REQUIRE(peer.owner(target) == 9);
  CHECK(distance(peer.state(target).position, moved.position) < 0.01f);
}

TEST_CASE("an owner whose snapshots disagree with its own frames raises a desync naming them") {
  ArenaSpec spec{2, 4};
  PeerConfig config;
  config.checksum_interval_frames = 30;
  FakeMatch m(2, spec, config, 93, -1, [](int p, std::unique_ptr<Transport> t) -> std::unique_ptr<Transport> {
    if (p == 0) return std::make_unique<LyingTransport>(std::move(t), 41);
    return t;
  });
  std::vector<Player>& players = m.players;
  Input push;
  push.axis = {-1, 0, 0.3f};
  players[0].peer->set_input(push);  // peer 0's ball moves: its frames are sent every frame
  const std::optional<Event> seen = m.run_until_event(1, EventKind::desync, 8);
  REQUIRE(seen);
  const Event& desync = *seen;
  CHECK(desync.peer == 0);
  CHECK(desync.frame != kNoFrame);
  CHECK(std::find(desync.objects.begin(), desync.objects.end(), players[0].ball) != desync.objects.end());
}

TEST_CASE("an honest match raises no desync, in both catch-up scopes and with exact compare") {
  for (int variant = 0; variant < 3; ++variant) {
    CAPTURE(variant);
    PeerConfig config;
    config.checksum_interval_frames = 30;
    if (variant == 1) config.catchup = CatchupScope::object;
    if (variant == 2) config.compare.exact = true;
    ArenaSpec spec{3, 8};
    FakeMatch m(3, spec, config, 94);
    m.network().set_conditions(link(40, 0.1f));
    REQUIRE(m.connect(5));
    CHECK(m.play_then_settle(11, 10, 15));
    CHECK(total(m.players, &PeerStats::desyncs) == 0);
    CHECK(total(m.players, &PeerStats::catchup_frames) > 0);
    const Divergence d = divergence(m.players, all_ids(spec));
    CHECK(d.objects_compared > 0);
    CHECK(d.bitwise);
  }
}

TEST_CASE("a peer cut off for longer than its history snaps back and ends consistent") {
  ArenaSpec spec{2, 6};
  PeerConfig config;
  FakeMatch m(2, spec, config, 95);
  m.network().set_conditions(link(20, 0));
  REQUIRE(m.connect(5));
  m.enable_bots(13);
  m.run(2);
  m.network().set_blocked(1, 2, true);  // 1.5 s: more than the 64-frame history, less than the timeout
  m.run(1.5);
  m.network().set_blocked(1, 2, false);
  m.run(3);
  CHECK(m.players[0].peer->stats().snaps + m.players[1].peer->stats().snaps > 0);
  m.disable_bots();
  m.run(6);
  CHECK(m.players[0].peer->peers().size() == 2);
  const Divergence d = divergence(m.players, all_ids(spec));
  CHECK(d.objects_compared > 0);
  CHECK(d.bitwise);
}

// A peer admitted just as another handed an object over hears neither the hand-off nor, from
// its maker, the record; its own later claim loses on every other peer and would win alone on
// it for good. The owner answers such a stale change with its record.
TEST_CASE("an owner answers a change that lost to its record with that record") {
  ArenaSpec spec{2, 4};
  FakeMatch m(2, spec, PeerConfig{}, 94);
  REQUIRE(m.connect(5));
  Peer& peer = *m.players[0].peer;
  Intruder newcomer = introduced(m, 80, 9);
  REQUIRE(peer.peers() == std::vector<PeerId>{0, 1, 9});
  const ObjectId target = kFirstObject;
  const Frame frame = peer.frame() - 1;
  // Peer 9 claims the object, then hands it to the default owner, peer 0: record (6, by 9).
  newcomer.send(Channel::control, encoded(wire::Ownership{{{target, 9, 5, 9, frame}}, false}));
  newcomer.send(Channel::control, encoded(wire::Ownership{{{target, 0, 6, 9, frame + 1}}, false}));
  m.run(0.1);
  newcomer.drain();
  REQUIRE(peer.owner(target) == 0);

  // A claim of an older sequence loses here; peer 0 says what it holds.
  newcomer.send(Channel::control, encoded(wire::Ownership{{{target, 9, 2, 9, frame + 2}}, false}));
  m.run(0.1);
  CHECK(peer.owner(target) == 0);
  bool told = false;
  TransportEvent e;
  for (int i = 0; i < 10'000 && newcomer.transport->poll(e); ++i) {
    wire::Ownership answer;
    if (e.kind != TransportEventKind::message || !wire::decode(e.payload, answer) || !answer.records) continue;
    for (const wire::OwnershipChange& c : answer.changes) {
      told = told || (c.object == target && c.new_owner == 0 && c.sequence == 6 && c.author == 9);
    }
  }
  CHECK(told);
}
