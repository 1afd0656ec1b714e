// SPDX-License-Identifier: MIT
// Acks and delta baselines: baselines advance only on acks, acks say what arrived, a delta
// against a missing baseline is rejected, counted and recovered from, and priorities and the
// budget decide what goes.
#include <doctest/doctest.h>

#include "shoal/forwarding_transport.hpp"
#include "match_harness.hpp"
#include "sync/priority.hpp"
#include "sync/snapshot_baselines.hpp"
#include "wire/allocation_counter.hpp"
#include "wire/snapshot_codec.hpp"

using namespace shoal;
using namespace shoal::test;

namespace {

wire::QuantizedState state_with(std::uint32_t x) {
  wire::QuantizedState q;
  q.position = {x, 100, 100};
  return q;
}

// Receiver-side transport that claims, in every ack it sends, to have received every packet
// of the last 33: the sender then takes baselines the receiver never got.
class OverclaimingTransport final : public ForwardingTransport {
 public:
  using ForwardingTransport::ForwardingTransport;
  bool send(ConnectionId c, Channel channel, std::span<const std::uint8_t> bytes) override {
    if (channel == Channel::state && wire::decode(bytes, quantizer_.limits(), snapshot_)) {
      if (snapshot_.has_ack) overclaim(snapshot_.ack);
      if (wire::encode(snapshot_, quantizer_.limits(), buffer_)) return inner().send(c, channel, buffer_);
    }
    if (channel == Channel::state && wire::decode(bytes, ack_)) {
      overclaim(ack_.ack);
      if (wire::encode(ack_, buffer_)) return inner().send(c, channel, buffer_);
    }
    return inner().send(c, channel, bytes);
  }

 private:
  // Also acks the packet after the newest: sent by now, and lost as often as the link loses.
  static void overclaim(wire::SnapshotAck& ack) {
    ack.newest = static_cast<std::uint16_t>(ack.newest + 1);
    ack.previous = 0xFFFFFFFF;
  }

  wire::Quantizer quantizer_{SnapshotConfig{}};
  wire::Snapshot snapshot_;
  wire::SnapshotAckMessage ack_;
  std::vector<std::uint8_t> buffer_;
};

}  // namespace

TEST_CASE("baselines advance only on acks, to the newest acked state of each object") {
  sync::SentSnapshots sent(4);
  std::uint32_t age = 0;
  const std::uint16_t first = sent.begin_packet(10);
  sent.add(1, state_with(10));
  const std::uint16_t second = sent.begin_packet(11);
  sent.add(1, state_with(11));
  sent.add(2, state_with(11));
  CHECK(sent.baseline(1, 12, 100, age) == nullptr);  // nothing acked yet

  sent.on_ack({second, 0, {}});  // the newest arrived, the first did not
  REQUIRE(sent.baseline(1, 12, 100, age) != nullptr);
  CHECK(*sent.baseline(1, 12, 100, age) == state_with(11));
  CHECK(age == 1);
  sent.on_ack({second, 1, {}});  // the first arrived late: older, so no step back
  CHECK(*sent.baseline(1, 12, 100, age) == state_with(11));
  CHECK(first + 1 == second);

  CHECK(sent.baseline(2, 200, 100, age) == nullptr);  // too old a baseline is not used
  sent.on_ack({second, 0, {2}});  // the receiver lacks object 2: forget it
  CHECK(sent.acknowledged(2) == nullptr);
  CHECK(sent.acknowledged(1) != nullptr);
  sent.on_ack({static_cast<std::uint16_t>(second + 500), 0xFFFFFFFF, {}});  // never sent: ignored
  CHECK(*sent.acknowledged(1) == state_with(11));
}

TEST_CASE("the log of sent packets allocates nothing once its packets' sizes have settled") {
  // Every slot of the log sees a packet only once per 256; packets of 1 to 12 objects, in an
  // order that gives a slot a different size each time round.
  sync::SentSnapshots sent(64);
  Frame frame = 0;
  auto send = [&](int n) {
    sent.begin_packet(frame++);
    for (int k = 0; k <= n % 12; ++k) sent.add(static_cast<BodyIndex>(k), state_with(static_cast<std::uint32_t>(n)));
  };
  int n = 0;
  for (; n < 2 * 256; ++n) send(n);  // every slot used twice
  start_counting_allocations();
  for (; n < 6 * 256; ++n) {
    send(n);
    wire::SnapshotAck ack;
    ack.newest = static_cast<std::uint16_t>(n);
    ack.previous = 0xFFFFFFFF;
    sent.on_ack(ack);
  }
  CHECK(counted_allocations().count == 0);
  std::uint32_t age = 0;
  CHECK(sent.baseline(3, frame, 64, age) != nullptr);  // the acks were taken
}

TEST_CASE("the receiver's acks name the newest sequence and the 32 before it, across wrap-around") {
  sync::ReceivedSnapshots received(2);
  CHECK_FALSE(received.has_received());
  for (const int s : {65534, 65535, 0, 2}) received.on_packet(static_cast<std::uint16_t>(s));  // 1 lost
  CHECK(received.ack_due());
  wire::SnapshotAck ack;
  received.take_ack(ack);
  CHECK_FALSE(received.ack_due());
  CHECK(ack.newest == 2);
  CHECK(ack.previous == 0b1110);  // 1 missing; 0, 65535, 65534 received
  received.on_packet(1);          // late
  received.take_ack(ack);
  CHECK(ack.previous == 0b1111);
  received.on_packet(40);         // a jump past the window forgets the old bits
  received.take_ack(ack);
  CHECK(ack.newest == 40);
  CHECK(ack.previous == 0);

  received.store(1, 100, state_with(5));
  CHECK(received.find(1, 100) != nullptr);
  CHECK(received.find(1, 99) == nullptr);
  received.request_reset(0);
  received.take_ack(ack);
  CHECK(ack.resets == std::vector<BodyIndex>{0});
  received.store(0, 101, state_with(6));  // a whole state arrived: no more resets
  received.take_ack(ack);
  CHECK(ack.resets.empty());
}

TEST_CASE("more reset requests than an ack holds: the acks take turns, and every baseline is reset") {
  // A burst of late packets (a receiver that stalled) can miss many baselines at once.
  constexpr BodyIndex kBodies = 40;
  sync::SentSnapshots sent(kBodies);
  sync::ReceivedSnapshots received(kBodies);
  for (BodyIndex b = 0; b < kBodies; ++b) {
    sent.begin_packet(100);
    sent.add(b, state_with(b));
    wire::SnapshotAck ack;
    ack.newest = static_cast<std::uint16_t>(b);
    sent.on_ack(ack);
    REQUIRE(sent.acknowledged(b) != nullptr);
  }
  for (BodyIndex b = 0; b < kBodies; ++b) received.request_reset(b);
  received.request_reset(3);  // asked twice, named once
  CHECK(received.pending_resets() == kBodies);
  received.store(7, 120, state_with(7));  // a whole state of 7 came: no longer asked for
  CHECK(received.pending_resets() == kBodies - 1);
  std::vector<int> named(kBodies, 0);
  wire::SnapshotAck ack;
  for (int i = 0; i < 3; ++i) {  // ceil(39 / 15) acks name every one
    received.on_packet(static_cast<std::uint16_t>(kBodies - 1));
    received.take_ack(ack);
    CHECK(ack.resets.size() <= wire::kMaxAckResets);
    for (BodyIndex b : ack.resets) ++named[b];
    sent.on_ack(ack);
  }
  for (BodyIndex b = 0; b < kBodies; ++b) {
    CAPTURE(b);
    CHECK((named[b] > 0) == (b != 7));
    CHECK((sent.acknowledged(b) == nullptr) == (b != 7));
  }
  received.forget_reset(0);  // its sender no longer owns it
  CHECK(received.pending_resets() == kBodies - 2);
}

TEST_CASE("priority: moving beats resting, the controlled object beats all, far objects fade") {
  const SnapshotConfig c;
  sync::PriorityFacts moving, resting, controlled, far, came_to_rest;
  resting.at_rest = true;
  controlled.controlled = true;
  far.distance_m = c.lod_far_m * 2;
  came_to_rest.at_rest = came_to_rest.came_to_rest = true;
  CHECK(sync::object_priority(c, moving) > sync::object_priority(c, resting));
  CHECK(sync::object_priority(c, controlled) > sync::object_priority(c, moving));
  CHECK(sync::object_priority(c, far) == doctest::Approx(c.lod_far_factor));
  CHECK(sync::object_priority(c, came_to_rest) > sync::object_priority(c, moving));

  sync::PriorityAccumulator acc(3);
  for (int frame = 0; frame < 10; ++frame) {
    acc.add(0, sync::object_priority(c, resting));
    acc.add(1, sync::object_priority(c, moving));
  }
  std::vector<BodyIndex> order{0, 1, 2};
  acc.order(order, 3);
  CHECK(order == std::vector<BodyIndex>{1, 0, 2});
  acc.order(order, 1);  // only the best one is placed
  CHECK(order.front() == 1);
  acc.sent(1);
  acc.order(order, 3);
  CHECK(order.front() == 0);  // a resting object's turn comes after enough frames
}

TEST_CASE("a delta against a baseline the receiver lacks is rejected, counted, and recovered from") {
  ArenaSpec spec{2, 6};
  PeerConfig config;
  FakeMatch m(2, spec, config, 97, -1, [](int p, std::unique_ptr<Transport> t) -> std::unique_ptr<Transport> {
    if (p == 1) return std::make_unique<OverclaimingTransport>(std::move(t));
    return t;
  });
  m.network().set_conditions(link(30, 0.3f));  // many packets the overclaiming acks pretend arrived
  REQUIRE(m.connect(5));
  std::vector<Player>& players = m.players;
  m.enable_bots(5);
  players[1].bot.reset();
  m.run(8);
  const PeerStats during = players[1].peer->stats();
  CHECK(during.baseline_misses > 0);
  CHECK(during.dropped[DropReason::stale] >= during.baseline_misses);
  // The receiver keeps overclaiming; its resets alone heal the baselines, so once the link is
  // clean and play is over the peers agree bit for bit.
  m.disable_bots();
  m.network().set_conditions(LinkConditions{});
  m.run(12);  // resting objects go rarely under the byte budget: give them time
  const Divergence d = divergence(players, all_ids(spec));
  CHECK(d.objects_compared == static_cast<int>(all_ids(spec).size()));
  CHECK(d.bitwise);
}

TEST_CASE("with quantisation every peer's own frames are on the quantised grid") {
  ArenaSpec spec{2, 6};
  FakeMatch m(2, spec, PeerConfig{}, 98);
  REQUIRE(m.connect(5));
  m.enable_bots(21);
  m.run(3);
  const wire::Quantizer q{SnapshotConfig{}};
  for (Player& p : m.players) {
    for (ObjectId id : all_ids(spec)) {
      const ObjectState s = p.peer->state(id);
      CHECK(q.round_trip(s).position == s.position);
    }
    CHECK(p.peer->stats().quantization_clamps == 0);
    CHECK(p.peer->stats().snapshot_bytes_sent > 0);
  }
}

TEST_CASE("the byte budget bounds what a peer sends") {
  for (const int budget : {10000, 20000}) {
    CAPTURE(budget);
    PeerConfig config;
    config.snapshots.bytes_per_second = budget;
    config.checksum_interval_frames = 0;
    ArenaSpec spec{2, 60, 15};
    FakeMatch m(2, spec, config, 99);
    REQUIRE(m.connect(5));
    m.enable_bots(4);
    const std::uint64_t before = m.players[0].peer->stats().snapshot_bytes_sent +
                                 m.players[0].peer->stats().snapshots_sent * sync::kPacketOverheadBytes;
    m.run(5);
    const std::uint64_t after = m.players[0].peer->stats().snapshot_bytes_sent +
                                m.players[0].peer->stats().snapshots_sent * sync::kPacketOverheadBytes;
    // One remote: the budget plus at most one packet of carry-over; acks sent alone are small.
    CHECK(static_cast<double>(after - before) <= budget * 5.0 + 1300);
    CHECK(static_cast<double>(after - before) >= budget * 5.0 * 0.5);  // and is used
  }
}

TEST_CASE("a world at rest that the receiver acknowledged is only refreshed, not resent whenever the budget allows") {
  // Both peers hold the same resting world from the start: after the first acknowledged
  // refresh, each record would tell the receiver nothing new.
  auto bytes_sent_at_rest = [](float settled_refresh_s) {
    PeerConfig config;
    config.snapshots.settled_refresh_s = settled_refresh_s;
    config.checksum_interval_frames = 0;
    ArenaSpec spec{2, 60, 15};
    FakeMatch m(2, spec, config, 98);
    REQUIRE(m.connect(5));
    m.run(3);
    const std::uint64_t before = m.players[0].peer->stats().snapshot_bytes_sent;
    m.run(4);
    const Divergence d = divergence(m.players, all_ids(spec));
    CHECK(d.bitwise);
    return m.players[0].peer->stats().snapshot_bytes_sent - before;
  };
  const std::uint64_t throttled = bytes_sent_at_rest(1.0f), eager = bytes_sent_at_rest(0.0f);
  CAPTURE(throttled);
  CAPTURE(eager);
  CHECK(throttled * 2 < eager);  // what is left is mostly the inputs every packet carries
  CHECK(throttled > 0);  // the refresh (and the inputs) still go
}

TEST_CASE("snapshot loss covers the last window of packets, however rarely it is read") {
  sync::ReceivedSnapshots received(1);
  std::uint16_t sequence = 0;
  // 25% loss for 600 packets sent: every fourth never arrives.
  for (int i = 0; i < 600; ++i, ++sequence) {
    if (i % 4 != 3) received.on_packet(sequence);
  }
  CHECK(received.loss() == doctest::Approx(0.25).epsilon(0.02));
  // Then 240 clean packets (two windows), read only at the end: the loss is now, not the mean
  // since the last read.
  for (int i = 0; i < 240; ++i, ++sequence) received.on_packet(sequence);
  CHECK(received.loss() == 0.0f);
  for (int i = 0; i < 122; ++i, ++sequence) {  // a window closes on a packet that arrives
    if (i % 2 == 0) received.on_packet(sequence);
  }
  CHECK(received.loss() == doctest::Approx(0.5).epsilon(0.02));
}

TEST_CASE("the receiver keeps an object's newest frames whatever order they arrive in") {
  sync::ReceivedSnapshots received(2);
  const std::size_t depth = sync::ReceivedSnapshots::kDepth;
  auto state = [](Frame f) {
    wire::QuantizedState q;
    q.position = {static_cast<std::uint32_t>(f), 1, 2};
    return q;
  };
  // Frames 100, 102, ... arrive in reverse order, then more recent ones in order.
  for (Frame f = 100 + 2 * static_cast<Frame>(depth - 1); f >= 100; f -= 2) received.store(0, f, state(f));
  for (Frame f = 200; f < 200 + 4; ++f) received.store(0, f, state(f));
  // The four newest took the four oldest slots: 100..106 are gone, 108 and later are held.
  for (Frame f = 100; f < 108; f += 2) CHECK(received.find(0, f) == nullptr);
  for (Frame f = 108; f < 100 + 2 * static_cast<Frame>(depth); f += 2) {
    CAPTURE(f);
    REQUIRE(received.find(0, f) != nullptr);
    CHECK(*received.find(0, f) == state(f));
  }
  // A late frame older than all held is not kept: it would push out frame 108.
  received.store(0, 101, state(101));
  CHECK(received.find(0, 101) == nullptr);
  CHECK(received.find(0, 108) != nullptr);
  // A duplicate overwrites its own slot; another object's slots are untouched.
  received.store(0, 203, state(1));
  CHECK(*received.find(0, 203) == state(1));
  CHECK(received.find(0, 202) != nullptr);
  CHECK(received.find(1, 203) == nullptr);
}
