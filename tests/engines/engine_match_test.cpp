// SPDX-License-Identifier: MIT
// Three peers on each engine adapter play a bot match on the in-process network (latency,
// jitter, 10% loss), then the world settles: every peer must end with the same bits for every
// body, after overrides and catch-ups really happened. Deterministic: seeded network, seeded
// bots, simulated time.
#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <vector>

#include "core/bitwise_equal.hpp"
#include "core/random.hpp"
#include "engine_world.hpp"
#include "shoal/memory_network.hpp"
#include "shoal/peer.hpp"

using namespace shoal;
using samples::BodySpec;
using samples::EngineWorld;
using samples::Physics;

namespace {

constexpr int kPeers = 3;
constexpr int kObjects = 24;
constexpr ObjectId kFirstBall = 1, kFirstObject = 100;
constexpr std::int64_t kRenderUs = 16'667;

samples::WorldSpec arena() {
  samples::WorldSpec spec;
  spec.half_x = spec.half_z = 9;
  spec.linear_damping = spec.angular_damping = 0.6f;
  for (int p = 0; p < kPeers; ++p) {
    BodySpec ball{kFirstBall + static_cast<ObjectId>(p), BodySpec::Shape::sphere, {0.5f, 0, 0}, 2, {}};
    ball.state.position = {-6.0f + 6.0f * static_cast<float>(p), 0.5f, -6};
    spec.bodies.push_back(ball);
  }
  for (int i = 0; i < kObjects; ++i) {
    BodySpec object{kFirstObject + static_cast<ObjectId>(i), i % 2 == 0 ? BodySpec::Shape::sphere : BodySpec::Shape::box,
                    {0.4f, 0.4f, 0.4f}, 1, {}};
    object.state.position = {static_cast<float>(i % 6) * 1.5f - 3.75f, 0.4f, static_cast<float>(i / 6) * 1.5f - 2};
    object.state.at_rest = true;
    spec.bodies.push_back(object);
  }
  return spec;
}

struct Player {
  std::unique_ptr<EngineWorld> world;
  std::unique_ptr<Peer> peer;
  ObjectId ball = 0;
  core::Random random{0};
  ObjectId target = kFirstObject;
  Frame next_pick = 0;

  // Steers the ball at a random object, another every two to four seconds.
  Input bot_input() {
    if (peer->frame() >= next_pick) {
      target = kFirstObject + static_cast<ObjectId>(random.next_u64() % kObjects);
      next_pick = peer->frame() + 120 + static_cast<Frame>(random.next_u64() % 120);
    }
    return Input{normalized(world->along_ground(peer->state(target).position - peer->state(ball).position)), 0};
  }
};

struct Outcome {
  bool connected = false, settled = false;
  int bodies_compared = 0, bodies_different = 0;
  std::uint64_t overrides = 0, catchup_frames = 0, desyncs = 0;
};

Outcome play(Physics physics, std::uint64_t seed) {
  MemoryNetwork net(seed);
  LinkConditions link;
  link.latency_ms = 30;
  link.jitter_ms = 10;
  link.loss = 0.1f;
  net.set_conditions(link);
  std::vector<Player> players(kPeers);
  for (int p = 0; p < kPeers; ++p) {
    Player& player = players[static_cast<std::size_t>(p)];
    player.world = samples::make_engine_world(physics, arena());
    player.peer = std::make_unique<Peer>(PeerConfig{}, player.world->simulation(),
                                         net.create_endpoint(static_cast<std::uint16_t>(p + 1), 2000));
    player.ball = kFirstBall + static_cast<ObjectId>(p);
    player.peer->set_controlled(player.ball);
    player.random = core::Random(seed * 10 + static_cast<std::uint64_t>(p));
  }
  players[0].peer->host();
  for (int p = 1; p < kPeers; ++p) players[static_cast<std::size_t>(p)].peer->join(players[0].peer->address());

  std::int64_t now = 1'000'000;
  auto frame = [&](bool bots) {
    now += kRenderUs;
    net.set_time_us(now);
    for (Player& p : players) {
      if (p.peer->in_match()) p.peer->set_input(bots ? p.bot_input() : Input{});
      p.peer->update_at(now);
    }
  };
  auto everyone_here = [&] {
    for (const Player& p : players) {
      if (!p.peer->in_match() || p.peer->peers().size() != kPeers) return false;
    }
    return true;
  };
  auto all_at_rest = [&] {
    for (const Player& p : players) {
      for (const BodySpec& body : arena().bodies) {
        if (!p.peer->state(body.id).at_rest) return false;
      }
    }
    return true;
  };
  Outcome out;
  for (int i = 0; i < 600 && !everyone_here(); ++i) frame(false);
  out.connected = everyone_here();
  if (!out.connected) return out;
  for (int i = 0; i < 6 * 60; ++i) frame(true);           // bots play 6 s
  for (int i = 0; i < 15 * 60 && !all_at_rest(); ++i) frame(false);  // settle, 15 s at most
  out.settled = all_at_rest();
  for (int i = 0; i < 3 * 60; ++i) frame(false);  // owners refresh resting objects everywhere

  Frame common = players[0].peer->frame();
  for (const Player& p : players) common = std::min(common, p.peer->frame());
  for (const BodySpec& body : arena().bodies) {
    const std::optional<ObjectState> first = players[0].peer->state_at(body.id, common);
    for (const Player& p : players) {
      const std::optional<ObjectState> other = p.peer->state_at(body.id, common);
      ++out.bodies_compared;
      if (!first || !other || !core::bitwise_equal(*first, *other)) ++out.bodies_different;
    }
  }
  for (const Player& p : players) {
    const PeerStats stats = p.peer->stats();
    out.overrides += stats.overrides;
    out.catchup_frames += stats.catchup_frames;
    out.desyncs += stats.desyncs;
  }
  return out;
}

}  // namespace

TEST_CASE("engine matches: three peers at 10% loss end with the same bits on every engine adapter") {
  for (Physics physics : samples::built_engines()) {
    if (physics == Physics::reference) continue;  // tests/peer covers it
    const std::string engine = samples::name(physics);
    CAPTURE(engine);
    const Outcome out = play(physics, 41);
    REQUIRE(out.connected);
    CHECK(out.settled);
    CHECK(out.bodies_compared == kPeers * (kPeers + kObjects));
    CHECK(out.bodies_different == 0);
    CHECK(out.overrides > 0);        // the peers really disagreed along the way
    CHECK(out.catchup_frames > 0);   // and caught up
    CHECK(out.desyncs == 0);
    MESSAGE(engine << ": " << out.overrides << " overrides, " << out.catchup_frames
                                   << " frames caught up");
  }
}
