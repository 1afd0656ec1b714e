// SPDX-License-Identifier: MIT
// The game's own input bytes (Input::bytes, SnapshotConfig::input_bytes): they reach the other
// peers' simulations with the inputs, survive loss through the inputs' redundancy, are
// replayed in catch-ups and in sync-test mode, and bytes past the configured size are refused.
#include <doctest/doctest.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "match_harness.hpp"
#include "shoal/forwarding_simulation.hpp"

using namespace shoal;
using namespace shoal::test;

namespace {

// A game whose input is only bytes: byte 0 steers along x, byte 63 along z (128 = still).
// It counts, per body, the steps whose input steered it.
class ByteSteering final : public ForwardingSimulation {
 public:
  explicit ByteSteering(Simulation& inner) : ForwardingSimulation(inner), steered(inner.body_count(), 0) {}
  void step(Frame frame, std::span<const BodyInput> inputs) override {
    translated_.assign(inputs.begin(), inputs.end());
    for (BodyInput& in : translated_) {
      const std::uint8_t x = in.input.bytes[0], z = in.input.bytes[63];
      if (x == 0 && z == 0) continue;  // no input yet
      in.input.axis = {(static_cast<float>(x) - 128) / 127, 0, (static_cast<float>(z) - 128) / 127};
      if (x != 128 || z != 128) ++steered[in.body];
    }
    inner().step(frame, translated_);
  }
  std::vector<int> steered;

 private:
  std::vector<BodyInput> translated_;
};

Input steering(Frame frame, int player) {
  Input in;  // axis and buttons stay 0: everything is in the bytes
  const int phase = (frame / 40 + player) % 4;
  in.bytes[0] = phase == 0 ? 255 : phase == 2 ? 1 : 128;
  in.bytes[63] = phase == 1 ? 255 : phase == 3 ? 1 : 128;
  in.bytes[17] = static_cast<std::uint8_t>(frame);  // a byte in the middle that changes every frame
  return in;
}

PeerConfig bytes_config() {
  PeerConfig config;
  config.snapshots.input_bytes = 64;
  return config;
}

ByteSteering* steering_of(const Player& p) { return static_cast<ByteSteering*>(p.adapter.get()); }

}  // namespace

TEST_CASE("game input bytes reach the other peers' simulations at 10% loss and 80 ms, and the world settles identically") {
  const ArenaSpec spec{2, 4, 12};
  FakeMatch m(2, spec, bytes_config(), 71, -1, {},
              [](ReferencePhysics& physics) { return std::make_unique<ByteSteering>(physics); });
  m.network().set_conditions(link(80, 0.10f));
  REQUIRE(m.connect(10));
  auto steer = [&] {
    for (std::size_t p = 0; p < m.players.size(); ++p) {
      Peer& peer = *m.players[p].peer;
      if (peer.in_match()) peer.set_input(steering(peer.frame(), static_cast<int>(p)));
    }
  };
  m.run(8, steer);
  // Each peer's engine steered the other's ball by the bytes it received: nothing else moves
  // a ball here.
  for (std::size_t p = 0; p < 2; ++p) {
    const std::size_t other_ball = 1 - p;  // balls are the first bodies, in player order
    CHECK(steering_of(m.players[p])->steered[other_ball] > 100);
    CHECK(m.players[p].peer->state(kFirstBall + static_cast<ObjectId>(p)).position.x != 0);
  }
  for (Player& p : m.players) p.peer->set_input(Input{});
  REQUIRE(m.settle(20));
  const Divergence d = divergence(m.players, all_ids(spec));
  CHECK(d.bitwise);
  CHECK(d.objects_compared == static_cast<int>(all_ids(spec).size()));
}

TEST_CASE("sync-test mode with K = 8 replays the game's input bytes bit for bit") {
  const ArenaSpec spec{1, 6, 12};
  ReferencePhysics physics(arena_physics(spec));
  build_arena(physics, spec);
  ByteSteering game(physics);
  PeerConfig config = bytes_config();
  config.sync_test_frames = 8;
  MemoryNetwork net(9);
  Peer peer(config, game, net.create_endpoint());
  peer.set_controlled(kFirstBall);
  peer.host();
  const Vec3 start = physics.read(0).position;
  std::int64_t now = 1'000'000;
  for (int i = 0; i < 1200 && peer.frame() < 500; ++i) {
    now += 16'667;
    net.set_time_us(now);
    if (peer.in_match()) peer.set_input(steering(peer.frame(), 0));
    peer.update_at(now);
  }
  REQUIRE(peer.frame() >= 500);
  CHECK(peer.stats().desyncs == 0);
  CHECK(game.steered[0] > 300);
  CHECK(distance(physics.read(0).position, start) > 1);  // the bytes did steer
}

TEST_CASE("input bytes past SnapshotConfig::input_bytes are refused") {
  const ArenaSpec spec{1, 1, 12};
  ReferencePhysics physics(arena_physics(spec));
  build_arena(physics, spec);
  PeerConfig config;
  config.snapshots.input_bytes = 8;
  MemoryNetwork net(3);
  Peer peer(config, physics, net.create_endpoint());
  Input in;
  in.bytes[7] = 1;
  CHECK_NOTHROW(peer.set_input(in));
  in.bytes[8] = 1;
  CHECK_THROWS_AS(peer.set_input(in), std::invalid_argument);
  in.bytes[8] = 0;
  in.bytes[63] = 5;  // the last byte: longer than the game's 8 by far
  try {
    peer.set_input(in);
    FAIL("set_input took bytes past SnapshotConfig::input_bytes");
  } catch (const std::invalid_argument& e) {
    CHECK(std::string(e.what()).find("Input::bytes[63] is 5") != std::string::npos);
    CHECK(std::string(e.what()).find("first 8 bytes") != std::string::npos);
  }
  config.snapshots.input_bytes = 65;
  CHECK_THROWS_AS(Peer(config, physics, net.create_endpoint()), std::invalid_argument);
}
