// SPDX-License-Identifier: MIT
#include <doctest/doctest.h>

#include <stdexcept>
#include <vector>

#include "present/frame_interpolator.hpp"

using shoal::Frame;
using shoal::FrameData;
using shoal::ObjectState;
using shoal::Vec3;
using shoal::present::FrameInterpolator;
using shoal::present::InterpolatorConfig;

namespace {

constexpr float kTick = 1.0f / 60.0f;
const Vec3 kStart{1, 2, 3};
const Vec3 kVelocity{6, -3, 1.5f};
const Vec3 kSpin{0, 0.6f, 0.8f};  // rad/s about a fixed axis
const Vec3 kGravity{0, -9.81f, 0};

/// Exact state at `frame` of a body with constant velocity and spin, plus `acceleration`.
ObjectState motion_at(Frame frame, Vec3 acceleration = {}) {
  const float t = static_cast<float>(frame) * kTick;
  ObjectState s;
  s.position = kStart + kVelocity * t + acceleration * (0.5f * t * t);
  s.linear_velocity = kVelocity + acceleration * t;
  s.angular_velocity = kSpin;
  s.orientation = shoal::axis_angle(kSpin, shoal::length(kSpin) * t);
  return s;
}

void check_close(const ObjectState& got, const ObjectState& want) {
  CHECK(shoal::distance(got.position, want.position) < 1e-4f);
  CHECK(shoal::distance(got.linear_velocity, want.linear_velocity) < 1e-4f);
  CHECK(shoal::angle_between(got.orientation, want.orientation) < 1e-3f);
}

}  // namespace

TEST_CASE("received frames 1, 3, 5 of a linear motion: frames 2 and 4 are filled exactly") {
  const FrameInterpolator interpolator;
  const std::vector<FrameData> received{{1, motion_at(1)}, {3, motion_at(3)}, {5, motion_at(5)}};
  for (Frame f : {2, 4}) {
    CAPTURE(f);
    const auto filled = interpolator.sample(received, f);
    REQUIRE(filled.has_value());
    check_close(*filled, motion_at(f));
  }
  CHECK(interpolator.sample(received, 3)->position == motion_at(3).position);  // received as is
  CHECK_FALSE(interpolator.sample(received, 0).has_value());                 // before the oldest
  CHECK_FALSE(interpolator.sample({}, 2).has_value());
}

TEST_CASE("Hermite interpolation follows a ballistic arc that a straight line would cut") {
  const FrameInterpolator interpolator;
  const FrameData a{0, motion_at(0, kGravity)};
  const FrameData b{20, motion_at(20, kGravity)};
  const ObjectState mid = interpolator.interpolate(a, b, 10);
  const ObjectState truth = motion_at(10, kGravity);
  CHECK(shoal::distance(mid.position, truth.position) < 1e-3f);
  const Vec3 straight = shoal::lerp(a.state.position, b.state.position, 0.5f);
  CHECK(shoal::distance(straight, truth.position) > 0.1f);  // the chord misses by 0.136 m
  CHECK_THROWS_AS(interpolator.interpolate(b, a, 10), std::invalid_argument);
  CHECK_THROWS_AS(interpolator.interpolate(a, b, 21), std::invalid_argument);
}

TEST_CASE("extrapolation past the newest frame follows velocity and spin, up to a bound") {
  InterpolatorConfig config;
  config.max_extrapolation_seconds = 0.25f;
  const FrameInterpolator interpolator(config);
  const std::vector<FrameData> received{{0, motion_at(0)}, {5, motion_at(5)}};
  check_close(*interpolator.sample(received, 11), motion_at(11));  // 0.1 s ahead: exact
  // 1 s ahead is past the bound: it stops where 0.25 s (15 frames) would be.
  check_close(*interpolator.sample(received, 65), motion_at(20));

  ObjectState resting = motion_at(5);
  resting.at_rest = true;
  CHECK(interpolator.extrapolate(resting, 0.2f) == resting);

  InterpolatorConfig bad;
  bad.tick_seconds = 0;
  CHECK_THROWS_WITH_AS(FrameInterpolator{bad}, doctest::Contains("tick_seconds"), std::invalid_argument);
}
