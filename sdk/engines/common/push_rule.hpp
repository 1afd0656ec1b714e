// SPDX-License-Identifier: MIT
// The adapters' built-in input rule, the reference physics' push: Input.axis along the two
// ground axes (x and z in 3D, x and y on a plane), its length clamped to 1, speeds a body up by
// `acceleration` up to `max_speed` along the ground, never past it and never slowing it down.
#pragma once

#include <cmath>
#include <optional>

namespace shoal::engines {

/// A velocity or direction along the two ground axes.
struct GroundVector {
  float u = 0, v = 0;
};

struct PushRule {
  float acceleration = 20;  ///< m/s^2 of a full push
  float max_speed = 6;      ///< m/s
};

/// The push direction an axis asks for: its length clamped to 1; a non-finite axis is none.
inline GroundVector push_direction(GroundVector axis) {
  if (!std::isfinite(axis.u) || !std::isfinite(axis.v)) return {};
  const float length_squared = axis.u * axis.u + axis.v * axis.v;
  if (length_squared <= 1) return axis;
  const float length = std::sqrt(length_squared);
  return {axis.u / length, axis.v / length};
}

/// The ground velocity after one step of pushing `velocity` along `direction` (from
/// push_direction) for `dt` seconds.
inline GroundVector pushed_velocity(GroundVector velocity, GroundVector direction, const PushRule& rule, float dt) {
  const GroundVector after{velocity.u + direction.u * rule.acceleration * dt,
                           velocity.v + direction.v * rule.acceleration * dt};
  const float before_speed = std::sqrt(velocity.u * velocity.u + velocity.v * velocity.v);
  const float limit = std::fmax(before_speed, rule.max_speed);
  const float speed = std::sqrt(after.u * after.u + after.v * after.v);
  if (speed <= limit) return after;
  return {after.u * (limit / speed), after.v * (limit / speed)};
}

/// One step of the push for `axis` on a body moving at `velocity` along the ground: its ground
/// velocity after the step, or nullopt when the axis asks for no push (leave the body alone).
inline std::optional<GroundVector> push_step(GroundVector axis, GroundVector velocity, const PushRule& rule, float dt) {
  const GroundVector direction = push_direction(axis);
  if (direction.u == 0 && direction.v == 0) return std::nullopt;
  return pushed_velocity(velocity, direction, rule, dt);
}

}  // namespace shoal::engines
