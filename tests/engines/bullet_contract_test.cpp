// SPDX-License-Identifier: MIT
// shoal::BulletSimulation keeps Simulation's contract: reads give back writes, unlisted bodies
// do not change, restores replay, frozen bodies stand still as obstacles; bad input is refused
// with a message that says what was expected.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>

#include "bullet_scene.hpp"
#include "engine_contract.hpp"

using namespace shoal;
using namespace shoal::test;

TEST_CASE("bullet: a written state reads back bit for bit") {
  BulletScene scene;
  check_write_read_round_trip(scene.simulation);
}

TEST_CASE("bullet: two worlds fed the same pushes agree, one rewriting its bodies and rolling back as it goes") {
  CHECK(frames_two_scenes_differ<BulletScene>(1500) == 0);
}

TEST_CASE("bullet: bodies changed_bodies() leaves out read back as before the step") {
  const auto [unlisted_changed, listed] = unlisted_changes<BulletScene>(1500);
  CHECK(unlisted_changed == 0);
  CHECK(listed > 1500);  // something moved, most frames
  CHECK(listed < 1500L * 15);  // and the sleeping bodies were left out
}

TEST_CASE("bullet: a frozen body keeps its state and stops the ball, and moves on once thawed") {
  BulletScene scene;
  BulletSimulation& s = scene.simulation;
  constexpr BodyIndex kBall = 0, kBox = 1;  // the bottom box of the first stack, at x = 0
  for (Frame f = 1; f <= 60; ++f) step_ball(s, f);
  ObjectState moving = s.read(kBox);
  moving.linear_velocity = {0, 0, 1.5f};
  moving.at_rest = false;
  s.write(kBox, moving);
  s.set_frozen(kBox, true);
  CHECK(s.is_frozen(kBox));
  const btVector3 engine_position = s.body(kBox).getWorldTransform().getOrigin();
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
  CHECK(s.body(kBox).getWorldTransform().getOrigin() == engine_position);
  CHECK(through == 0);  // box half 0.4 + ball radius 0.5, a little give
  s.set_frozen(kBox, false);
  s.step(461, {});
  CHECK(s.read(kBox).position.z > moving.position.z);  // on its way at its 1.5 m/s
}

TEST_CASE("bullet: bad bodies, states and settings are refused with what was expected") {
  BulletScene scene;
  BulletSimulation& s = scene.simulation;
  btSphereShape shape(0.5f);
  btRigidBody outside(btRigidBody::btRigidBodyConstructionInfo(1, nullptr, &shape, btVector3(0.1f, 0.1f, 0.1f)));
  CHECK_THROWS_WITH_AS(s.add_body(900, outside), doctest::Contains("not in the BulletWorld"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(s.add_body(901, s.body(0)), doctest::Contains("registered already"), std::invalid_argument);
  ObjectState bad;
  bad.position.x = std::numeric_limits<float>::quiet_NaN();
  CHECK_THROWS_WITH_AS(s.write(0, bad), doctest::Contains("non-finite state"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(s.write(99, {}), doctest::Contains("out of range"), std::invalid_argument);
  BulletSimulationConfig config;
  config.dt = 0;
  CHECK_THROWS_WITH_AS(BulletSimulation(scene.world, config), doctest::Contains("dt is 0.000000, expected a step in (0, 1]"),
                       std::invalid_argument);
  // A dynamic body nobody registered could never be rewound: stepping refuses.
  scene.world.dynamics().addRigidBody(&outside);
  CHECK_THROWS_WITH_AS(s.step(1, {}), doctest::Contains("never registered"), std::logic_error);
  scene.world.dynamics().removeRigidBody(&outside);
}

TEST_CASE("bullet: body types and user bytes are kept per body, and the step leaves the bytes alone") {
  BulletScene scene;
  BulletSimulation& s = scene.simulation;
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

TEST_CASE("bullet: an empty spawn slot is inert, a filled one is its type and moves, emptied it is inert again") {
  check_slot_life<BulletSpawnScene>();
}

TEST_CASE("bullet: spawns and removals replay bit for bit across rollbacks, and the shots hit the stacks") {
  int hit = 0;
  CHECK(spawn_frames_differ<BulletSpawnScene>(400, hit) == 0);
  CHECK(hit > 0);
}

TEST_CASE("bullet: spawn types and slots are refused out of order, with what was expected") {
  BulletSpawnScene scene;
  BulletSimulation& s = scene.simulation;
  CHECK_THROWS_WITH_AS(s.add_spawn_slots(2), doctest::Contains("added already"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(s.set_spawn_type(5, [&](BulletWorld&) -> btRigidBody& { return s.body(0); }),
                       doctest::Contains("after add_spawn_slots"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(s.add_body(950, s.body(0)), doctest::Contains("after the spawn slots"), std::invalid_argument);
  BulletScene plain;
  CHECK_THROWS_WITH_AS(plain.simulation.add_spawn_slots(2), doctest::Contains("set_spawn_type() first"),
                       std::invalid_argument);
  plain.simulation.set_spawn_type(5, [&](BulletWorld&) -> btRigidBody& { return plain.simulation.body(0); });
  CHECK_THROWS_WITH_AS(plain.simulation.add_spawn_slots(1), doctest::Contains("registered already"),
                       std::invalid_argument);
}
