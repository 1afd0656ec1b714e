// SPDX-License-Identifier: MIT
// Does the reference physics behave like physics? Each case drives a small scene and checks
// the outcome a player would notice.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "physics_helpers.hpp"

using namespace shoal;
using shoal::test::at;

namespace {

void run(ReferencePhysics& physics, int frames, std::span<const BodyInput> inputs = {}) {
  for (int f = 0; f < frames; ++f) physics.step(f + 1, inputs);
}

// Highest point reached after the first bounce of a sphere dropped from 3 m.
float bounce_height(float restitution) {
  ReferencePhysicsConfig config;
  config.restitution = restitution;
  config.linear_damping = 0;
  ReferencePhysics physics(config);
  physics.add_sphere(1, 0.5f, 1, at({0, 3.5f, 0}));
  bool bounced = false;
  float peak = 0;
  for (int f = 1; f <= 240; ++f) {
    const float vy_before = physics.read(0).linear_velocity.y;
    physics.step(f, {});
    const ObjectState s = physics.read(0);
    if (vy_before < 0 && s.linear_velocity.y > 0) bounced = true;
    if (bounced) peak = std::fmax(peak, s.position.y - 0.5f);
    if (bounced && s.linear_velocity.y < 0) break;  // past the top of the first bounce
  }
  return peak;
}

}  // namespace

TEST_CASE("a dropped sphere comes to rest on the ground") {
  ReferencePhysics physics(ReferencePhysicsConfig{});
  physics.add_sphere(1, 0.5f, 2, at({1, 4, -2}));
  run(physics, 600);
  const ObjectState s = physics.read(0);
  CHECK(s.position.y == doctest::Approx(0.5f).epsilon(0.02));
  CHECK(s.at_rest);
  CHECK(length(s.linear_velocity) == 0);
}

TEST_CASE("higher restitution bounces higher") {
  const float low = bounce_height(0.1f);
  const float mid = bounce_height(0.5f);
  const float high = bounce_height(0.9f);
  CHECK(low < mid);
  CHECK(mid < high);
  CHECK(high < 3.0f);  // no energy gained
  CHECK(high > 1.5f);  // ~0.81 of 3 m, less the damping of the step
}

TEST_CASE("friction stops a sliding box") {
  ReferencePhysicsConfig config;
  config.friction = 0.5f;
  config.linear_damping = 0;
  ReferencePhysics physics(config);
  physics.add_box(1, {0.5f, 0.5f, 0.5f}, 1, at({-10, 0.5f, 0}, {6, 0, 0}));
  run(physics, 300);
  const ObjectState s = physics.read(0);
  // v^2 / (2 mu g) = 36 / 9.81 = 3.7 m of sliding.
  CHECK(s.position.x - -10.0f == doctest::Approx(3.7f).epsilon(0.15));
  CHECK(std::fabs(s.linear_velocity.x) < 0.01f);
  CHECK(s.position.y == doctest::Approx(0.5f).epsilon(0.02));
}

TEST_CASE("walls keep fast bodies inside the arena") {
  ReferencePhysicsConfig config;
  config.arena_half_x = 5;
  config.arena_half_z = 4;
  config.restitution = 0.8f;
  ReferencePhysics physics(config);
  physics.add_sphere(1, 0.4f, 1, at({0, 0.4f, 0}, {25, 0, 18}));
  physics.add_box(2, {0.3f, 0.3f, 0.3f}, 1, at({1, 2, 1}, {-20, 3, -30}));
  for (int f = 1; f <= 600; ++f) {
    physics.step(f, {});
    for (BodyIndex b = 0; b < 2; ++b) {
      const ObjectState s = physics.read(b);
      REQUIRE(std::fabs(s.position.x) < 5.0f);
      REQUIRE(std::fabs(s.position.z) < 4.0f);
      REQUIRE(s.position.y > 0.0f);
    }
  }
}

TEST_CASE("a stack of three boxes stays stacked") {
  for (const bool sleeping : {true, false}) {
    CAPTURE(sleeping);
    ReferencePhysicsConfig config;
    config.allow_sleep = sleeping;
    ReferencePhysics physics(config);
    for (int i = 0; i < 3; ++i) {
      physics.add_box(static_cast<ObjectId>(i + 1), {0.5f, 0.5f, 0.5f}, 1,
                      at({2, 0.5f + static_cast<float>(i), 3}));
    }
    run(physics, 600);
    for (BodyIndex b = 0; b < 3; ++b) {
      const ObjectState s = physics.read(b);
      CAPTURE(b);
      CHECK(std::fabs(s.position.x - 2) < 0.003f);
      CHECK(std::fabs(s.position.z - 3) < 0.003f);
      CHECK(std::fabs(s.position.y - (0.5f + static_cast<float>(b))) < 0.02f);
      CHECK(angle_between(s.orientation, Quat{}) < 0.01f);
      if (sleeping) CHECK(s.at_rest);
    }
  }
}

TEST_CASE("bodies fall asleep and a hit wakes them") {
  ReferencePhysics physics(ReferencePhysicsConfig{});
  physics.add_box(1, {0.5f, 0.5f, 0.5f}, 1, at({0, 0.5f, 0}));
  physics.add_sphere(2, 0.5f, 1, at({0, 0.5f, 5}));
  run(physics, 120);
  REQUIRE(physics.read(0).at_rest);
  REQUIRE(physics.read(1).at_rest);
  const Vec3 box_before = physics.read(0).position;

  ObjectState ball = physics.read(1);
  ball.linear_velocity = {0, 0, -8};
  ball.at_rest = false;
  physics.write(1, ball);
  bool box_woke = false;
  for (int f = 0; f < 60 && !box_woke; ++f) {
    physics.step(200 + f, {});
    box_woke = !physics.read(0).at_rest;
  }
  CHECK(box_woke);
  run(physics, 30);
  CHECK(physics.read(0).position.z < box_before.z - 0.1f);  // the hit moved it
}

TEST_CASE("a pushed sphere accelerates up to the maximum push speed") {
  ReferencePhysicsConfig config;
  config.push_acceleration = 10;
  config.max_push_speed = 4;
  config.arena_half_x = 100;
  ReferencePhysics physics(config);
  physics.add_sphere(1, 0.5f, 1, at({-90, 0.5f, 0}));
  const BodyInput push[] = {{0, Input{{3, 0, 0}, 0}}};  // clamped to length 1
  physics.step(1, push);
  const float first_speed = physics.read(0).linear_velocity.x;
  CHECK(first_speed > 0);
  CHECK(first_speed <= 10 * config.dt + 1e-4f);
  float previous = first_speed;
  bool accelerated = true;
  for (int f = 2; f <= 30; ++f) {
    physics.step(f, push);
    const float v = physics.read(0).linear_velocity.x;
    accelerated = accelerated && v > previous;
    previous = v;
  }
  CHECK(accelerated);
  for (int f = 31; f <= 300; ++f) physics.step(f, push);
  const ObjectState s = physics.read(0);
  CHECK(length(Vec3{s.linear_velocity.x, 0, s.linear_velocity.z}) <= 4.0f + 1e-3f);
  CHECK(s.linear_velocity.x > 3.5f);  // friction and damping take only a little
  CHECK(!s.at_rest);
}

TEST_CASE("an empty world steps, then takes a body and simulates it") {
  // A game may build its world after the peer starts, or spawn everything it has.
  ReferencePhysics physics(ReferencePhysicsConfig{});
  run(physics, 3);
  const BodyIndex ball = physics.add_sphere(1, 0.5f, 2, at({0, 3, 0}));
  run(physics, 120);
  CHECK(physics.read(ball).position.y < 1.0f);
}
