// SPDX-License-Identifier: MIT
// A peer simulates only its simulated region: bodies outside it that it neither owns nor sees
// controlled are frozen. Catch-ups must freeze exactly what the straight run froze, frame by
// frame; frozen bodies must not move here while their owner moves them far away; and once the
// world rests, the owners' resting states bring every peer to the same world.
#include <doctest/doctest.h>

#include <functional>
#include <vector>

#include "match_harness.hpp"
#include "shoal/forwarding_transport.hpp"
#include "sync/resimulator.hpp"
#include "sync/state_compare.hpp"

using namespace shoal;
using namespace shoal::test;

namespace {

// Objects in a long strip along x, from -half to +half, with a ball at each end: far more
// world than one simulated region (20 m beyond the core) holds.
constexpr float kStripHalf = 36;

ReferencePhysicsConfig strip_physics() {
  ReferencePhysicsConfig c;
  c.arena_half_x = kStripHalf + 4;
  c.arena_half_z = 6;
  c.linear_damping = 0.6f;
  c.angular_damping = 0.6f;
  return c;
}

// Balls: one in the middle; or peer 0's at the left end, peer 1's at the right end, and a
// third (if any) 4 m from peer 0's.
float ball_x(int ball, int balls) {
  const float left = -kStripHalf * 0.9f;
  if (balls == 1) return 0.0f;
  if (ball == 2) return left + 4;
  return ball == 0 ? left : -left;
}

void build_strip(ReferencePhysics& physics, int balls, int objects) {
  for (int p = 0; p < balls; ++p) {
    const float x = ball_x(p, balls);
    ObjectState s;
    s.position = {x, 0.5f, 2.0f};
    physics.add_sphere(kFirstBall + static_cast<ObjectId>(p), 0.5f, 2.0f, s);
  }
  for (int i = 0; i < objects; ++i) {
    ObjectState s;
    s.position = {-kStripHalf + 2 * kStripHalf * static_cast<float>(i) / static_cast<float>(objects - 1), 0.4f,
                  i % 2 == 0 ? -1.0f : 0.5f};
    s.at_rest = true;
    physics.add_box(kFirstObject + static_cast<ObjectId>(i), {0.4f, 0.4f, 0.4f}, 1.0f, s);
  }
}

// Loses every snapshot it is asked to send while closed (the reliable channel still works).
class StateGate final : public ForwardingTransport {
 public:
  using ForwardingTransport::ForwardingTransport;
  bool send(ConnectionId c, Channel channel, std::span<const std::uint8_t> bytes) override {
    if (closed && channel == Channel::state) return true;  // sent, and lost on the way
    return inner().send(c, channel, bytes);
  }
  bool closed = false;
};

std::vector<ObjectId> strip_ids(int balls, int objects) {
  std::vector<ObjectId> ids;
  for (int p = 0; p < balls; ++p) ids.push_back(kFirstBall + static_cast<ObjectId>(p));
  for (int i = 0; i < objects; ++i) ids.push_back(kFirstObject + static_cast<ObjectId>(i));
  return ids;
}

}  // namespace

TEST_CASE("a catch-up freezes, frame by frame, what the straight run froze") {
  const ArenaSpec spec{3, 40, 10};
  auto make = [&](ReferencePhysics& physics) {
    build_arena(physics, spec);
    return physics.body_count();
  };
  ReferencePhysics physics(arena_physics(spec)), unfrozen(arena_physics(spec));
  const std::size_t bodies = make(physics);
  make(unfrozen);
  constexpr int kDepth = 32;
  world::FrameHistory history(bodies, kDepth), plain_history(bodies, kDepth);
  sync::OwnerFrames owner_frames(bodies, kDepth + kDepth / 4 + 1);
  sync::InputLog inputs(kDepth);
  sync::Resimulator resimulator(physics, history, owner_frames, inputs);
  sync::Resimulator plain(unfrozen, plain_history, owner_frames, inputs);
  for (BodyIndex ball = 0; ball < 3; ++ball) inputs.track(ball);
  resimulator.start(0);
  plain.start(0);

  // The balls are pushed toward the middle all along; each is frozen for 10 frames in 30, in
  // turn, so every catch-up window crosses changes of the frozen set.
  std::vector<std::uint8_t> frozen(bodies, 0);
  std::vector<std::vector<ObjectState>> straight(kDepth);
  int catchups = 0, mismatches = 0;
  for (Frame frame = 1; frame <= 300; ++frame) {
    for (BodyIndex ball = 0; ball < 3; ++ball) {
      const Vec3 p = history.state(frame - 1, ball).position;
      Input in;
      in.axis = normalized(Vec3{-p.x, 0, -p.z});
      inputs.record(ball, frame, in);
      frozen[ball] = static_cast<std::uint8_t>((frame / 10 + ball) % 3 == 0);
    }
    resimulator.step_forward({}, frozen);
    plain.step_forward({});
    straight[static_cast<std::size_t>(frame % kDepth)].assign(history.newest_states().begin(), history.newest_states().end());
    CHECK(std::ranges::equal(history.frozen_flags(frame), frozen));
    if (frame % 7 != 0 || frame < 16) continue;
    const Frame from = frame - 12;
    resimulator.resimulate(from, {}, sync::Injection::none);
    ++catchups;
    for (Frame f = from; f <= frame; ++f) {
      const auto& was = straight[static_cast<std::size_t>(f % kDepth)];
      for (BodyIndex b = 0; b < bodies; ++b) mismatches += sync::bitwise_equal(history.state(f, b), was[b]) ? 0 : 1;
    }
  }
  CHECK(catchups > 30);
  CHECK(mismatches == 0);
  // Freezing mattered: the run without it went elsewhere.
  int differ = 0;
  for (BodyIndex ball = 0; ball < 3; ++ball) {
    differ += sync::bitwise_equal(history.state(300, ball), plain_history.state(300, ball)) ? 0 : 1;
  }
  CHECK(differ == 3);
}

TEST_CASE("owner frames of a body frozen since the mismatch are written in without re-simulating") {
  const ArenaSpec spec{1, 4, 10};
  ReferencePhysics physics(arena_physics(spec));
  build_arena(physics, spec);
  const std::size_t bodies = physics.body_count();
  world::FrameHistory history(bodies, 32);
  sync::OwnerFrames owner_frames(bodies, 41);
  sync::InputLog inputs(32);
  sync::Resimulator resimulator(physics, history, owner_frames, inputs);
  inputs.track(0);
  resimulator.start(0);
  constexpr BodyIndex kFrozen = 2;
  std::vector<std::uint8_t> frozen(bodies, 0);
  frozen[kFrozen] = 1;
  Input push;
  push.axis = {1, 0, 0};
  for (Frame f = 1; f <= 10; ++f) {
    inputs.record(0, f, push);
    resimulator.step_forward({}, f >= 3 ? std::span<const std::uint8_t>(frozen) : std::span<const std::uint8_t>{});
  }
  auto lifted = [&](Frame f, float dy) {
    ObjectState s = history.state(f, kFrozen);
    s.position.y += dy;
    return s;
  };
  const ObjectState at_5 = lifted(5, 0.25f), at_8 = lifted(8, 0.5f);
  owner_frames.store(5, kFrozen, at_5, {});
  owner_frames.store(8, kFrozen, at_8, {});
  const ObjectState own_4 = history.state(4, kFrozen);
  std::vector<ObjectState> ball_before;
  for (Frame f = 4; f <= 10; ++f) ball_before.push_back(history.state(f, 0));

  // Body 0 was simulated all along: that needs a catch-up, and nothing is changed here.
  const BodyIndex simulated[] = {0, kFrozen};
  CHECK_FALSE(resimulator.correct_frozen(4, simulated));
  CHECK(sync::bitwise_equal(history.state(5, kFrozen), own_4));
  // Frozen from frame 3 on: frozen through every step after frame 2, not after frame 1.
  const BodyIndex only_frozen[] = {kFrozen};
  CHECK_FALSE(resimulator.correct_frozen(1, only_frozen));
  REQUIRE(resimulator.correct_frozen(4, only_frozen));
  CHECK(sync::bitwise_equal(history.state(4, kFrozen), own_4));
  for (Frame f = 5; f <= 7; ++f) CHECK(sync::bitwise_equal(history.state(f, kFrozen), at_5));
  for (Frame f = 8; f <= 10; ++f) CHECK(sync::bitwise_equal(history.state(f, kFrozen), at_8));
  CHECK(history.confirmed(5, kFrozen));
  CHECK(history.confirmed(8, kFrozen));
  CHECK_FALSE(history.confirmed(6, kFrozen));
  CHECK(sync::bitwise_equal(physics.read(kFrozen), at_8));
  for (Frame f = 4; f <= 10; ++f) CHECK(sync::bitwise_equal(history.state(f, 0), ball_before[static_cast<std::size_t>(f - 4)]));
}

TEST_CASE("sync-test mode passes while the player crosses a world larger than its simulated region") {
  constexpr int kObjects = 48;
  ReferencePhysics physics(strip_physics());
  build_strip(physics, 1, kObjects);
  PeerConfig config;
  config.sync_test_frames = 8;
  MemoryNetwork net(5);
  Peer peer(config, physics, net.create_endpoint());
  peer.set_controlled(kFirstBall);
  peer.host();
  std::int64_t now = 1'000'000;
  // Back and forth along the strip: the frozen set changes as the region travels with it.
  std::size_t fewest = kObjects, most = 0;
  for (int i = 0; i < 3000 && peer.frame() < 2400; ++i) {
    now += 16'667;
    net.set_time_us(now);
    Input in;
    in.axis = {(peer.frame() / 600) % 2 == 0 ? 1.0f : -1.0f, 0, 0};
    if (peer.in_match()) peer.set_input(in);
    peer.update_at(now);
    if (peer.frame() > 60) {
      fewest = std::min(fewest, peer.stats().frozen_objects);
      most = std::max(most, peer.stats().frozen_objects);
    }
  }
  CHECK(peer.frame() >= 2400);
  CHECK(most > fewest + 10);  // the region really moved over the strip
  CHECK(fewest > 0);
  CHECK(peer.stats().desyncs == 0);
}

TEST_CASE("far apart, each peer freezes the other's surroundings, and the rested world is the same on both") {
  constexpr int kObjects = 40;
  const std::vector<ObjectId> ids = strip_ids(2, kObjects);
  for (const bool freeze : {true, false}) {
    CAPTURE(freeze);
    PeerConfig config;
    config.freeze_outside_simulated_region = freeze;
    MemoryNetwork net(77);
    net.set_conditions(link(30, 0.05f, 5));
    std::vector<std::unique_ptr<ReferencePhysics>> physics;
    std::vector<std::unique_ptr<Peer>> peers;
    for (int p = 0; p < 2; ++p) {
      physics.push_back(std::make_unique<ReferencePhysics>(strip_physics()));
      build_strip(*physics.back(), 2, kObjects);
      peers.push_back(std::make_unique<Peer>(config, *physics.back(),
                                             net.create_endpoint(static_cast<std::uint16_t>(p + 1), 2000)));
      peers.back()->set_controlled(kFirstBall + static_cast<ObjectId>(p));
    }
    peers[0]->host();
    peers[1]->join(peers[0]->address());
    std::int64_t now = 1'000'000;
    auto run = [&](double seconds, Input push, const std::function<void()>& on_frame = {}) {
      for (int i = 0; i < static_cast<int>(seconds * 60); ++i) {
        now += 16'667;
        net.set_time_us(now);
        for (int p = 0; p < 2; ++p) {
          if (peers[static_cast<std::size_t>(p)]->in_match()) peers[static_cast<std::size_t>(p)]->set_input(p == 1 ? push : Input{});
          peers[static_cast<std::size_t>(p)]->update_at(now);
        }
        if (on_frame) on_frame();
      }
    };
    run(2, {});
    REQUIRE(peers[1]->in_match());
    REQUIRE(peers[0]->peers().size() == 2);
    // Peer 1 drives its ball along the strip's far end, knocking boxes about. The last box
    // lies there, far outside peer 0's simulated region.
    const ObjectId far_box = kFirstObject + kObjects - 1;
    const BodyIndex far_index = 2 + kObjects - 1;
    const ObjectState far_before = peers[0]->state(far_box);
    Input push;
    push.axis = {1, 0, -0.3f};
    // Where the box is frozen it never moves: it only takes the owner's state once it rests.
    bool moved_on_1 = false, moved_on_0 = false;
    const PeerStats stats_0 = peers[0]->stats();
    run(3, push, [&] {
      moved_on_1 = moved_on_1 || !peers[1]->state(far_box).at_rest;
      moved_on_0 = moved_on_0 || !peers[0]->state(far_box).at_rest;
    });
    CHECK(moved_on_1);
    CHECK(distance(peers[1]->state(far_box).position, far_before.position) > 0.3f);  // it was hit
    const ObjectId ball_1 = kFirstBall + 1;
    if (freeze) {
      CHECK(peers[0]->stats().frozen_objects > 5);
      CHECK(peers[1]->stats().frozen_objects > 5);
      CHECK(physics[0]->is_frozen(far_index));
      CHECK_FALSE(moved_on_0);  // not simulated there
      // Peer 1's ball is frozen there too, and follows its owner's frames: each is written in
      // without re-simulating anything.
      CHECK(physics[0]->is_frozen(1));
      CHECK(peers[0]->stats().overrides > stats_0.overrides + 60);
      CHECK(peers[0]->stats().catchup_frames == stats_0.catchup_frames);
      CHECK(distance(peers[0]->state(ball_1).position, peers[1]->state(ball_1).position) < 0.5f);
    } else {
      CHECK(peers[0]->stats().frozen_objects == 0);
      CHECK_FALSE(physics[0]->is_frozen(far_index));
      CHECK(moved_on_0);  // simulated there too, pushed by peer 1's predicted ball
    }
    // Everything comes to rest, and the owners' resting states reach the other peer.
    bool rested = false;
    for (int i = 0; i < 20 * 60 && !rested; ++i) {
      run(1.0 / 60, {});
      rested = true;
      for (const auto& peer : peers) {
        for (ObjectId id : ids) rested = rested && peer->state(id).at_rest;
      }
    }
    CHECK(rested);
    run(3, {});
    const Frame common = std::min(peers[0]->frame(), peers[1]->frame());
    int differing = 0;
    for (ObjectId id : ids) {
      const auto a = peers[0]->state_at(id, common), b = peers[1]->state_at(id, common);
      REQUIRE(a);
      REQUIRE(b);
      differing += sync::bitwise_equal(*a, *b) ? 0 : 1;
    }
    CHECK(differing == 0);
    // ...and that world is the one the box's owner simulated, not peer 0's stale copy (the
    // default owner inherits the resting box only once it holds its resting state).
    CHECK(distance(peers[0]->state(far_box).position, far_before.position) > 0.3f);
    CHECK(peers[0]->stats().desyncs + peers[1]->stats().desyncs == 0);
  }
}

// Another player's ball far away is frozen here; its owner's frames, late over a slow link,
// are written in without re-simulating. They must not drag the catch-up of a nearby player's
// ball back to their own (older) frames: that catch-up starts at its own mismatch.
TEST_CASE("a far player's frozen ball does not deepen the catch-ups of what this peer simulates") {
  constexpr int kObjects = 40;
  MemoryNetwork net(91);
  net.set_conditions(link(10, 0));
  std::vector<std::unique_ptr<ReferencePhysics>> physics;
  std::vector<std::unique_ptr<Peer>> peers;
  for (int p = 0; p < 3; ++p) {
    physics.push_back(std::make_unique<ReferencePhysics>(strip_physics()));
    build_strip(*physics.back(), 3, kObjects);
    peers.push_back(std::make_unique<Peer>(PeerConfig{}, *physics.back(),
                                           net.create_endpoint(static_cast<std::uint16_t>(p + 1), 2000)));
    peers.back()->set_controlled(kFirstBall + static_cast<ObjectId>(p));
  }
  net.set_conditions(2, 1, link(100, 0));  // between peer 1 (far) and peer 0: 6 frames
  net.set_conditions(1, 2, link(100, 0));
  peers[0]->host();
  std::int64_t now = 1'000'000;
  auto run = [&](int frames, const std::function<void(int)>& on_frame) {
    for (int i = 0; i < frames; ++i) {
      now += 16'667;
      net.set_time_us(now);
      for (auto& peer : peers) peer->update_at(now);
      on_frame(i);
    }
  };
  for (int p = 1; p < 3; ++p) {
    peers[static_cast<std::size_t>(p)]->join(peers[0]->address());
    run(60, [](int) {});
  }
  REQUIRE(peers[0]->peers().size() == 3);
  REQUIRE(peers[1]->in_match());
  REQUIRE(peers[2]->in_match());
  for (Event e; peers[0]->poll_event(e);) {}

  // The far ball rolls along its end; the near one turns every 10 frames, so peer 0's
  // repeat-last prediction of it keeps failing.
  const ObjectId far_ball = kFirstBall + 1, near_ball = kFirstBall + 2;
  std::vector<int> far_depths, near_depths;
  run(240, [&](int i) {
    Input far, near;
    far.axis = {i % 120 < 60 ? 1.0f : -1.0f, 0, 0};
    near.axis = {(i / 10) % 2 == 0 ? 1.0f : -1.0f, 0, (i / 10) % 3 == 0 ? 1.0f : -0.5f};
    peers[1]->set_input(far);
    peers[2]->set_input(near);
    for (Event e; peers[0]->poll_event(e);) {
      if (e.kind != EventKind::override_applied) continue;
      if (e.object == far_ball) far_depths.push_back(e.depth);
      if (e.object == near_ball) near_depths.push_back(e.depth);
    }
  });
  CHECK(physics[0]->is_frozen(1));
  CHECK_FALSE(physics[0]->is_frozen(2));
  REQUIRE(far_depths.size() > 60);
  REQUIRE(near_depths.size() > 5);
  auto median = [](std::vector<int> v) {
    std::ranges::nth_element(v, v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2));
    return v[v.size() / 2];
  };
  MESSAGE("override depths, median: far frozen ball " << median(far_depths) << ", near ball " << median(near_depths));
  CHECK(median(far_depths) >= 4);
  CHECK(median(near_depths) <= 2);
}

TEST_CASE("a resting object passes to the default owner only once that peer holds its resting state") {
  // Peer 1 knocks a box about far from peer 0, which freezes it there; none of peer 1's
  // snapshots get through meanwhile. When the box rests outside peer 1's core it would pass to
  // the default owner, peer 0, whose copy never moved: its frames would put the box back where
  // it started on every peer. The hand-over waits until peer 0 acknowledged the resting state.
  constexpr int kObjects = 40;
  const ObjectId far_box = kFirstObject + kObjects - 1;
  MemoryNetwork net(78);
  net.set_conditions(link(30, 0.0f, 5));
  std::vector<std::unique_ptr<ReferencePhysics>> physics;
  std::vector<std::unique_ptr<Peer>> peers;
  StateGate* gate = nullptr;
  for (int p = 0; p < 2; ++p) {
    physics.push_back(std::make_unique<ReferencePhysics>(strip_physics()));
    build_strip(*physics.back(), 2, kObjects);
    std::unique_ptr<Transport> transport = net.create_endpoint(static_cast<std::uint16_t>(p + 1), 2000);
    if (p == 1) {
      auto gated = std::make_unique<StateGate>(std::move(transport));
      gate = gated.get();
      transport = std::move(gated);
    }
    peers.push_back(std::make_unique<Peer>(PeerConfig{}, *physics.back(), std::move(transport)));
    peers.back()->set_controlled(kFirstBall + static_cast<ObjectId>(p));
  }
  peers[0]->host();
  peers[1]->join(peers[0]->address());
  std::int64_t now = 1'000'000;
  auto run = [&](double seconds, Vec3 axis) {
    for (int i = 0; i < static_cast<int>(seconds * 60); ++i) {
      now += 16'667;
      net.set_time_us(now);
      for (std::size_t p = 0; p < 2; ++p) {
        Input in;
        if (p == 1) in.axis = axis;
        if (peers[p]->in_match()) peers[p]->set_input(in);
        peers[p]->update_at(now);
      }
    }
  };
  run(2, {});
  REQUIRE(peers[0]->peers().size() == 2);
  const Vec3 start = peers[0]->state(far_box).position;
  gate->closed = true;
  run(3, {1, 0, -0.3f});  // into the boxes at the far end
  run(2, {-1, 0, 0});     // and away, out of reach of the box
  run(3, {});
  CHECK(peers[1]->state(far_box).at_rest);
  CHECK(distance(peers[1]->state(far_box).position, start) > 0.3f);
  CHECK(peers[1]->owner(far_box) == 1);  // held back: peer 0 acknowledged nothing
  CHECK(peers[0]->owner(far_box) == 1);
  gate->closed = false;
  bool handed_over = false;
  for (int i = 0; i < 10 * 60 && !handed_over; ++i) {
    run(1.0 / 60, {});
    handed_over = peers[0]->owner(far_box) == 0 && peers[1]->owner(far_box) == 0;
  }
  CHECK(handed_over);
  run(3, {});
  const Frame common = std::min(peers[0]->frame(), peers[1]->frame());
  const auto on_0 = peers[0]->state_at(far_box, common), on_1 = peers[1]->state_at(far_box, common);
  REQUIRE(on_0);
  REQUIRE(on_1);
  CHECK(sync::bitwise_equal(*on_0, *on_1));
  CHECK(distance(on_0->position, start) > 0.3f);  // where peer 1 left it
}
