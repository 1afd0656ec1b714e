// SPDX-License-Identifier: MIT
// User bytes per object type: restored and re-simulated in catch-up (sync-test mode checks it),
// overridden by the owner's, covered by desync checksums, carried in late-join baselines, and
// identical on every peer once a lossy match settles.
#include <doctest/doctest.h>

#include "hostile_peers.hpp"
#include "match_harness.hpp"
#include "shoal/forwarding_simulation.hpp"

using namespace shoal;
using namespace shoal::test;

namespace {

constexpr std::size_t kUserBytes = 6;  // a u32 awake-frame counter, then two game bytes

std::vector<std::uint8_t> user_bytes_of(const ReferencePhysics& physics, BodyIndex body) {
  std::vector<std::uint8_t> bytes(physics.user_bytes_size(physics.body_type(body)));
  physics.read_user_bytes(body, bytes);
  return bytes;
}

std::uint32_t awake_frames(const ReferencePhysics& physics, BodyIndex body) {
  const std::vector<std::uint8_t> b = user_bytes_of(physics, body);
  return b[0] | (b[1] << 8) | (b[2] << 16) | (std::uint32_t{b[3]} << 24);
}

// Restores everything but the user bytes: a catch-up then continues from the present bytes.
class BytesForgettingPhysics final : public ForwardingSimulation {
 public:
  using ForwardingSimulation::ForwardingSimulation;
  void write_user_bytes(BodyIndex, std::span<const std::uint8_t>) override {}
};


// An owner that lies about one game byte (byte 5) of every moving object it sends.
class ByteLyingTransport final : public ForwardingTransport {
 public:
  ByteLyingTransport(std::unique_ptr<Transport> inner, std::size_t bodies)
      : ForwardingTransport(std::move(inner)), sizes_(bodies, static_cast<std::uint8_t>(kUserBytes)) {}
  bool send(ConnectionId c, Channel channel, std::span<const std::uint8_t> bytes) override {
    if (channel == Channel::state && wire::decode(bytes, quantizer_.limits(), snapshot_, sizes_)) {
      for (wire::ObjectRecord& r : snapshot_.objects) {
        // Unchanged bytes are the baseline's, which the receiver already holds with the lie.
        if (!r.at_rest && !r.user_bytes_unchanged) r.user_bytes.data[5] = kLie;
      }
      if (wire::encode(snapshot_, quantizer_.limits(), buffer_)) return inner().send(c, channel, buffer_);
    }
    return inner().send(c, channel, bytes);
  }
  static constexpr std::uint8_t kLie = 0xAB;

 private:
  std::vector<std::uint8_t> sizes_;
  wire::Quantizer quantizer_{SnapshotConfig{}};
  wire::Snapshot snapshot_;
  std::vector<std::uint8_t> buffer_;
};

// Drops every snapshot a peer receives: what it knows of others' objects comes from baselines.
class NoSnapshotsIn final : public ForwardingTransport {
 public:
  using ForwardingTransport::ForwardingTransport;
  bool poll(TransportEvent& event) override {
    for (int i = 0; i < 100'000; ++i) {
      if (!inner().poll(event)) return false;
      if (event.kind != TransportEventKind::message || event.channel != Channel::state) return true;
    }
    return false;
  }
};

}  // namespace

TEST_CASE("user bytes: sync-test mode reproduces them for K = 1, 4 and 8, and catches an adapter that does not restore them") {
  ArenaSpec spec{1, 10, 6};
  spec.user_bytes = kUserBytes;
  for (int k : {1, 4, 8}) {
    CAPTURE(k);
    ReferencePhysics physics(arena_physics(spec));
    build_arena(physics, spec);
    CHECK(run_sync_test(physics, k, 1200, kFirstBall, spec.objects).desyncs == 0);
    CHECK(awake_frames(physics, 0) > 600);  // the bytes really changed every frame the ball moved
  }
  ReferencePhysics inner(arena_physics(spec));
  build_arena(inner, spec);
  BytesForgettingPhysics forgetful(inner);
  CHECK(run_sync_test(forgetful, 4, 300, kFirstBall, spec.objects).desyncs > 0);
}

TEST_CASE("user bytes: a larger size than kMaxUserBytes is refused when the peer is built") {
  ArenaSpec spec{1, 2};
  ReferencePhysics physics(arena_physics(spec));
  build_arena(physics, spec);
  CHECK_THROWS_AS(physics.set_user_bytes_size(1, kMaxUserBytes + 1), std::invalid_argument);
  class Greedy final : public ForwardingSimulation {
   public:
    using ForwardingSimulation::ForwardingSimulation;
    std::size_t user_bytes_size(std::uint16_t) const override { return kMaxUserBytes + 1; }
  } greedy(physics);
  MemoryNetwork net(1);
  CHECK_THROWS_WITH_AS(Peer(PeerConfig{}, greedy, net.create_endpoint()),
                       doctest::Contains("expected at most kMaxUserBytes"), std::invalid_argument);
}

TEST_CASE("user bytes: three peers at 10% loss end with the same bytes of every object") {
  ArenaSpec spec{3, 8};
  spec.user_bytes = kUserBytes;
  PeerConfig config;
  config.checksum_interval_frames = 30;
  FakeMatch m(3, spec, config, 121);
  m.network().set_conditions(link(40, 0.1f));
  REQUIRE(m.connect(5));
  CHECK(m.play_then_settle(31, 8, 15));
  CHECK(total(m.players, &PeerStats::desyncs) == 0);
  CHECK(total(m.players, &PeerStats::catchup_frames) > 0);
  CHECK(divergence(m.players, all_ids(spec)).bitwise);
  int changed = 0;
  for (BodyIndex b = 0; b < m.players[0].physics->body_count(); ++b) {
    CAPTURE(b);
    const std::vector<std::uint8_t> reference = user_bytes_of(*m.players[0].physics, b);
    changed += awake_frames(*m.players[0].physics, b) > 0 ? 1 : 0;
    for (const Player& p : m.players) CHECK(user_bytes_of(*p.physics, b) == reference);
  }
  CHECK(changed >= 3);  // at least every ball's bytes moved on
}

TEST_CASE("user bytes: an owner's differing bytes override the receiver's, and a lie raises a desync naming the object") {
  ArenaSpec spec{2, 4};
  spec.user_bytes = kUserBytes;
  PeerConfig config;
  config.checksum_interval_frames = 30;
  const std::size_t bodies = static_cast<std::size_t>(spec.balls + spec.objects);
  FakeMatch m(2, spec, config, 122, -1, [&](int p, std::unique_ptr<Transport> t) -> std::unique_ptr<Transport> {
    if (p == 0) return std::make_unique<ByteLyingTransport>(std::move(t), bodies);
    return t;
  });
  std::vector<Player>& players = m.players;
  REQUIRE(players[1].peer->stats().overrides + players[1].peer->stats().snaps == 0);
  REQUIRE(m.connect(5));
  Input push;
  push.axis = {-1, 0, 0.3f};
  players[0].peer->set_input(push);  // peer 0's ball moves: its frames are sent every frame
  const std::optional<Event> seen = m.run_until_event(1, EventKind::desync, 8);
  // Corrected by the owner's bytes: its baseline, taken as the joiner started (a snap to the
  // owner's frame before the start), or a snapshot (an override).
  CHECK(players[1].peer->stats().overrides + players[1].peer->stats().snaps > 0);
  // The receiver took the owner's (lying) byte, which the step never changes...
  CHECK(user_bytes_of(*players[1].physics, 0)[5] == ByteLyingTransport::kLie);
  CHECK(user_bytes_of(*players[0].physics, 0)[5] == 0);
  // ...while the state itself was honest: only the bytes can have caused the desync.
  REQUIRE(seen);
  const Event& desync = *seen;
  CHECK(desync.peer == 0);
  CHECK(std::find(desync.objects.begin(), desync.objects.end(), players[0].ball) != desync.objects.end());
}

TEST_CASE("user bytes: a late joiner gets them in its baseline") {
  ArenaSpec spec{3, 10, 10};
  spec.user_bytes = kUserBytes;
  FakeMatch m(3, spec, PeerConfig{}, 123, 2, [](int p, std::unique_ptr<Transport> t) -> std::unique_ptr<Transport> {
    if (p == 2) return std::make_unique<NoSnapshotsIn>(std::move(t));
    return t;
  });
  m.network().set_conditions(link(30, 0.05f, 5));
  m.enable_bots(21);
  m.players[2].bot.reset();
  m.run(6);  // two peers move things about; the third still has the initial world
  m.disable_bots();
  m.run(8);  // and everything settles before the third arrives
  REQUIRE(awake_frames(*m.players[0].physics, 0) > 0);
  REQUIRE(awake_frames(*m.players[2].physics, 0) == 0);
  m.join_late(2);
  REQUIRE(m.connect(5));
  m.run(3);
  int compared = 0;
  for (BodyIndex b = 0; b < m.players[0].physics->body_count(); ++b) {
    if (b == 2) continue;  // the joiner's own ball: it owns it, nobody sends it a baseline of it
    CAPTURE(b);
    CHECK(user_bytes_of(*m.players[2].physics, b) == user_bytes_of(*m.players[0].physics, b));
    ++compared;
  }
  CHECK(compared == 12);
}
