// SPDX-License-Identifier: MIT
// shoal::Box2dSimulation keeps Simulation's contract: reads give back writes, unlisted bodies
// do not change, restores replay, frozen bodies stand still as obstacles; bad input is refused
// with a message that says what was expected.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>

#include "box2d_scene.hpp"
#include "engine_contract.hpp"

using namespace shoal;
using namespace shoal::test;

TEST_CASE("box2d: a written state reads back bit for bit") {
  Box2dScene scene;
  check_write_read_round_trip(scene.simulation);
}

TEST_CASE("box2d: two worlds fed the same pushes agree, one rewriting its bodies and rolling back as it goes") {
  CHECK(frames_two_scenes_differ<Box2dScene>(1500) == 0);
}

TEST_CASE("box2d: bodies changed_bodies() leaves out read back as before the step") {
  const auto [unlisted_changed, listed] = unlisted_changes<Box2dScene>(1500);
  CHECK(unlisted_changed == 0);
  CHECK(listed > 1500);  // something moved, most frames
  CHECK(listed < 1500L * 15);  // and the sleeping bodies were left out
}

TEST_CASE("box2d: a frozen body keeps its state and stops the ball, and moves on once thawed") {
  Box2dScene scene;
  Box2dSimulation& s = scene.simulation;
  constexpr BodyIndex kBall = 0, kBox = 1;  // the bottom box of the first stack, at x = 0
  for (Frame f = 1; f <= 60; ++f) step_ball(s, f);
  ObjectState moving = s.read(kBox);
  moving.linear_velocity = {0, 1.5f, 0};
  moving.at_rest = false;
  s.write(kBox, moving);
  s.set_frozen(kBox, true);
  CHECK(s.is_frozen(kBox));
  const b2Vec2 engine_position = s.body(kBox).GetPosition();
  // The ball, pushed at the box along x, never passes through it (it may go round).
  int through = 0;
  for (Frame f = 61; f <= 400; ++f) {
    const BodyInput push[] = {{kBall, {{1, 0, 0}, 0}}};
    s.step(f, push);
    const Vec3 ball = s.read(kBall).position;
    through += std::fabs(ball.z - moving.position.z) < 0.3f && ball.x > moving.position.x - 0.85f ? 1 : 0;
  }
  for (Frame f = 401; f <= 460; ++f) s.step(f, {});  // the ball rolls on, away or to rest
  CHECK(core::bitwise_equal(s.read(kBox), moving));
  CHECK(s.body(kBox).GetPosition() == engine_position);
  CHECK(through == 0);  // box half 0.4 + ball radius 0.5, a little give
  s.set_frozen(kBox, false);
  s.step(461, {});
  CHECK(s.read(kBox).position.y > moving.position.y);  // on its way up at its 1.5 m/s
}

TEST_CASE("box2d: bad bodies, states and settings are refused with what was expected") {
  Box2dScene scene;
  Box2dSimulation& s = scene.simulation;
  b2World elsewhere(b2Vec2(0, 0));
  b2BodyDef dynamic;
  dynamic.type = b2_dynamicBody;
  CHECK_THROWS_WITH_AS(s.add_body(900, *elsewhere.CreateBody(&dynamic)), doctest::Contains("another b2World"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(s.add_body(901, s.body(0)), doctest::Contains("registered already"), std::invalid_argument);
  b2BodyDef fixed;
  CHECK_THROWS_WITH_AS(s.add_body(902, *scene.world.CreateBody(&fixed)), doctest::Contains("static or kinematic"),
                       std::invalid_argument);
  ObjectState bad;
  bad.position.x = std::numeric_limits<float>::quiet_NaN();
  CHECK_THROWS_WITH_AS(s.write(0, bad), doctest::Contains("non-finite state"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(s.write(99, {}), doctest::Contains("out of range"), std::invalid_argument);
  Box2dSimulationConfig config;
  config.velocity_iterations = 0;
  CHECK_THROWS_WITH_AS(Box2dSimulation(scene.world, config), doctest::Contains("velocity_iterations is 0.000000, expected 1..256"),
                       std::invalid_argument);
  scene.world.SetSubStepping(true);
  CHECK_THROWS_WITH_AS(Box2dSimulation(scene.world, {}), doctest::Contains("sub-stepping"), std::invalid_argument);
  scene.world.SetSubStepping(false);
  // A dynamic body nobody registered could never be rewound: stepping refuses.
  scene.world.CreateBody(&dynamic);
  CHECK_THROWS_WITH_AS(s.step(1, {}), doctest::Contains("never registered"), std::logic_error);
}

TEST_CASE("box2d: body types and user bytes are kept per body, and the step leaves the bytes alone") {
  Box2dScene scene;
  Box2dSimulation& s = scene.simulation;
  s.set_user_bytes_size(3, 5);
  s.set_body_type(2, 3);
  CHECK(s.body_type(2) == 3);
  CHECK(s.user_bytes_size(3) == 5);
  const std::uint8_t bytes[5] = {1, 2, 3, 4, 5};
  s.write_user_bytes(2, bytes);
  for (Frame f = 1; f <= 30; ++f) step_ball(s, f);
  std::uint8_t out[5] = {};
  s.read_user_bytes(2, out);
  CHECK(std::memcmp(out, bytes, 5) == 0);
  CHECK_THROWS_AS(s.set_user_bytes_size(3, kMaxUserBytes + 1), std::invalid_argument);
}

TEST_CASE("box2d: an empty spawn slot is inert, a filled one is its type and moves, emptied it is inert again") {
  check_slot_life<Box2dSpawnScene>();
}

TEST_CASE("box2d: spawns and removals replay bit for bit across rollbacks, and the shots hit the stacks") {
  int hit = 0;
  CHECK(spawn_frames_differ<Box2dSpawnScene>(400, hit) == 0);
  CHECK(hit > 0);
}

TEST_CASE("box2d: spawn types and slots are refused out of order, with what was expected") {
  Box2dSpawnScene scene;
  Box2dSimulation& s = scene.simulation;
  b2BodyDef dynamic;
  dynamic.type = b2_dynamicBody;
  CHECK_THROWS_WITH_AS(s.add_body(950, *scene.world.CreateBody(&dynamic)), doctest::Contains("after the spawn slots"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(s.add_spawn_slots(2), doctest::Contains("added already"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(s.set_spawn_type(5, [](b2World& w) -> b2Body& { return *w.CreateBody(nullptr); }),
                       doctest::Contains("after add_spawn_slots"), std::invalid_argument);
  Box2dScene plain;
  CHECK_THROWS_WITH_AS(plain.simulation.add_spawn_slots(2), doctest::Contains("set_spawn_type() first"),
                       std::invalid_argument);
  CHECK(plain.simulation.spawn_slot_count() == 0);
}
