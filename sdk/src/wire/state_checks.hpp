// SPDX-License-Identifier: MIT
// What a decoded object state must satisfy before any layer may use it.
#pragma once

#include <cmath>

#include "shoal/state.hpp"

namespace shoal::wire {

/// How far |q|^2 of a received orientation may be from 1 before it is rejected as malformed.
inline constexpr float kUnitQuaternionTolerance = 1e-3f;

inline bool is_finite(Vec3 v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

/// Finite everywhere, with a unit orientation: anything else could poison a simulation.
inline bool is_plausible(const ObjectState& s) {
  const Quat q = s.orientation;
  return is_finite(s.position) && is_finite(s.linear_velocity) && is_finite(s.angular_velocity) &&
         std::isfinite(q.w) && std::isfinite(q.x) && std::isfinite(q.y) && std::isfinite(q.z) &&
         std::fabs(dot(q, q) - 1.0f) <= kUnitQuaternionTolerance;
}

}  // namespace shoal::wire
