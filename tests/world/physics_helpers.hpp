// SPDX-License-Identifier: MIT
// Shared scene helpers for the reference physics tests.
#pragma once

#include <cstring>

#include "shoal/reference_physics.hpp"

namespace shoal::test {

inline ObjectState at(Vec3 position, Vec3 velocity = {}) {
  ObjectState s;
  s.position = position;
  s.linear_velocity = velocity;
  return s;
}

template <class T>
bool same_bits(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

/// Field by field, so that struct padding never decides the answer.
inline bool bitwise_equal(const ObjectState& a, const ObjectState& b) {
  return same_bits(a.position, b.position) && same_bits(a.orientation, b.orientation) &&
         same_bits(a.linear_velocity, b.linear_velocity) &&
         same_bits(a.angular_velocity, b.angular_velocity) && a.at_rest == b.at_rest;
}

}  // namespace shoal::test
