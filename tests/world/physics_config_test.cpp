// SPDX-License-Identifier: MIT
// Bad settings and bodies are refused with a message naming what is wrong.
#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>

#include "physics_helpers.hpp"

using namespace shoal;

namespace {

void check_rejected(const std::function<void(ReferencePhysicsConfig&)>& spoil, const char* field) {
  ReferencePhysicsConfig config;
  spoil(config);
  CAPTURE(field);
  const std::string expected = std::string("ReferencePhysicsConfig: ") + field + " is";
  CHECK_THROWS_WITH_AS(ReferencePhysics{config}, doctest::Contains(expected.c_str()),
                       std::invalid_argument);
}

}  // namespace

TEST_CASE("bad physics config values are rejected by name") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  check_rejected([](auto& c) { c.dt = 0; }, "dt");
  check_rejected([&](auto& c) { c.dt = nan; }, "dt");
  check_rejected([&](auto& c) { c.gravity.y = nan; }, "gravity");
  check_rejected([](auto& c) { c.arena_half_x = -1; }, "arena_half_x");
  check_rejected([](auto& c) { c.arena_half_z = 0; }, "arena_half_z");
  check_rejected([](auto& c) { c.restitution = 1.5f; }, "restitution");
  check_rejected([](auto& c) { c.friction = -0.1f; }, "friction");
  check_rejected([](auto& c) { c.linear_damping = -1; }, "linear_damping");
  check_rejected([](auto& c) { c.angular_damping = -1; }, "angular_damping");
  check_rejected([](auto& c) { c.solver_iterations = 0; }, "solver_iterations");
  check_rejected([](auto& c) { c.sleep_linear_speed = -1; }, "sleep_linear_speed");
  check_rejected([](auto& c) { c.sleep_angular_speed = -1; }, "sleep_angular_speed");
  check_rejected([](auto& c) { c.sleep_frames = 0; }, "sleep_frames");
  check_rejected([](auto& c) { c.push_acceleration = -2; }, "push_acceleration");
  check_rejected([](auto& c) { c.max_push_speed = -2; }, "max_push_speed");
  check_rejected([](auto& c) { c.history_frames = 0; }, "history_frames");
  check_rejected([](auto& c) { c.grid_cell_size = 0; }, "grid_cell_size");
  CHECK_NOTHROW(ReferencePhysics{ReferencePhysicsConfig{}});
}

TEST_CASE("bad bodies, states and inputs are rejected with a clear message") {
  ReferencePhysics physics(ReferencePhysicsConfig{});
  const float nan = std::numeric_limits<float>::quiet_NaN();
  CHECK_THROWS_WITH_AS(physics.add_sphere(1, 0, 1, test::at({0, 1, 0})),
                       doctest::Contains("expected a finite radius > 0"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(physics.add_box(1, {1, -1, 1}, 1, test::at({0, 1, 0})),
                       doctest::Contains("expected finite values > 0"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(physics.add_sphere(1, 1, -3, test::at({0, 1, 0})),
                       doctest::Contains("expected a finite mass >= 0"), std::invalid_argument);
  CHECK_THROWS_AS(physics.add_sphere(1, 1, 1, test::at({nan, 1, 0})), std::invalid_argument);
  CHECK(physics.body_count() == 0);

  physics.add_sphere(1, 0.5f, 1, test::at({0, 1, 0}));
  CHECK_THROWS_WITH_AS(physics.write(0, test::at({0, nan, 0})), doctest::Contains("non-finite"),
                       std::invalid_argument);
  CHECK_THROWS_AS(physics.write(3, test::at({0, 1, 0})), std::invalid_argument);
  const BodyInput out_of_range[] = {{4, Input{}}};
  CHECK_THROWS_WITH_AS(physics.step(1, out_of_range), doctest::Contains("only 1 bodies"),
                       std::invalid_argument);

  // A non-finite push is no push: the world stays finite.
  const BodyInput hostile[] = {{0, Input{{nan, 0, std::numeric_limits<float>::infinity()}, 0}}};
  for (Frame f = 1; f <= 10; ++f) physics.step(f, hostile);
  const ObjectState s = physics.read(0);
  CHECK(s.position.x == 0);
  CHECK(std::isfinite(s.position.y));

  // write() then read() returns exactly what was written.
  ObjectState written = test::at({1, 2, 3}, {0.5f, 0, -0.25f});
  written.orientation = axis_angle({0, 1, 0}, 0.3f);
  physics.write(0, written);
  CHECK(test::bitwise_equal(physics.read(0), written));
}
