// SPDX-License-Identifier: MIT
// Frozen bodies in the reference physics: what a peer leaves out of its step when a body lies
// outside its simulated region. Frozen means untouched by the step and immovable to others.
#include <doctest/doctest.h>

#include <algorithm>
#include <stdexcept>

#include "physics_helpers.hpp"

using namespace shoal;
using shoal::test::at;
using shoal::test::bitwise_equal;

namespace {

bool listed(const ReferencePhysics& physics, BodyIndex body) {
  const auto changed = physics.changed_bodies();
  return changed && std::ranges::find(*changed, body) != changed->end();
}

}  // namespace

TEST_CASE("a frozen body keeps its state, user bytes and sleep timer through steps") {
  ReferencePhysics physics(ReferencePhysicsConfig{});
  physics.set_user_bytes_size(0, 4);  // the step counts awake frames in them
  const BodyIndex flying = physics.add_sphere(1, 0.5f, 1, at({0, 3, 0}, {2, 1, 0}));
  const BodyIndex loose = physics.add_sphere(2, 0.5f, 1, at({5, 3, 0}, {2, 1, 0}));
  physics.set_frozen(flying, true);
  CHECK(physics.is_frozen(flying));
  CHECK_FALSE(physics.is_frozen(loose));
  const ObjectState before = physics.read(flying);
  std::uint8_t bytes_before[4], bytes_after[4];
  physics.read_user_bytes(flying, bytes_before);
  for (Frame f = 1; f <= 30; ++f) {
    physics.step(f, {});
    CHECK_FALSE(listed(physics, flying));
    CHECK(listed(physics, loose));
  }
  CHECK(bitwise_equal(physics.read(flying), before));
  physics.read_user_bytes(flying, bytes_after);
  CHECK(std::ranges::equal(bytes_before, bytes_after));
  CHECK(physics.read(loose).position.x > 5.5f);  // the other one flew on

  // Thawed, it carries on from where it was, under gravity.
  physics.set_frozen(flying, false);
  physics.step(31, {});
  CHECK(listed(physics, flying));
  CHECK(physics.read(flying).position.x > before.position.x);
  CHECK(physics.read(flying).linear_velocity.y < before.linear_velocity.y);
}

TEST_CASE("a frozen body is an immovable obstacle that is not woken") {
  ReferencePhysicsConfig config;
  config.linear_damping = 0;
  ReferencePhysics physics(config);
  ObjectState resting = at({0, 0.5f, 0});
  resting.at_rest = true;
  const BodyIndex wall = physics.add_box(1, {0.5f, 0.5f, 0.5f}, 1, resting);
  const BodyIndex ball = physics.add_sphere(2, 0.5f, 1, at({-3, 0.5f, 0}, {4, 0, 0}));
  physics.set_frozen(wall, true);
  bool hit = false;
  for (Frame f = 1; f <= 90; ++f) {
    physics.step(f, {});
    hit = hit || physics.read(ball).linear_velocity.x < 0;
  }
  CHECK(hit);  // it bounced off
  CHECK(physics.read(ball).position.x < -1.0f);
  CHECK(bitwise_equal(physics.read(wall), resting));  // neither pushed nor woken

  // Unfrozen, the same hit moves it.
  ReferencePhysics again(config);
  again.add_box(1, {0.5f, 0.5f, 0.5f}, 1, resting);
  again.add_sphere(2, 0.5f, 1, at({-3, 0.5f, 0}, {4, 0, 0}));
  for (Frame f = 1; f <= 90; ++f) again.step(f, {});
  CHECK(again.read(wall).position.x > 0.1f);
}

TEST_CASE("inputs for a frozen body are ignored, writes still set it") {
  ReferencePhysics physics(ReferencePhysicsConfig{});
  ObjectState resting = at({0, 0.5f, 0});
  resting.at_rest = true;
  const BodyIndex ball = physics.add_sphere(1, 0.5f, 2, resting);
  physics.set_frozen(ball, true);
  Input push;
  push.axis = {1, 0, 0};
  const BodyInput inputs[] = {{ball, push}};
  for (Frame f = 1; f <= 20; ++f) physics.step(f, inputs);
  CHECK(bitwise_equal(physics.read(ball), resting));

  const ObjectState moved = at({4, 0.5f, 1}, {1, 0, 0});
  physics.write(ball, moved);
  physics.step(21, {});
  CHECK(bitwise_equal(physics.read(ball), moved));
}

TEST_CASE("set_frozen rejects a body out of range") {
  ReferencePhysics physics(ReferencePhysicsConfig{});
  physics.add_sphere(1, 0.5f, 1, at({0, 1, 0}));
  CHECK_THROWS_AS(physics.set_frozen(1, true), std::invalid_argument);
  CHECK_THROWS_AS(physics.is_frozen(7), std::out_of_range);
}
