// SPDX-License-Identifier: MIT
// Whether two object states hold the same bits: what "equal" means for states that every peer
// must reproduce exactly.
#pragma once

#include <bit>
#include <cstdint>

#include "shoal/state.hpp"

namespace shoal::core {

inline bool bitwise_equal(const ObjectState& a, const ObjectState& b) {
  // Each float's bits (so -0 differs from 0 and a NaN equals itself), then at_rest: the struct
  // has padding after it. No branch or call: this runs for most bodies of every frame.
  const float fa[13] = {a.position.x, a.position.y, a.position.z, a.orientation.w, a.orientation.x,
                        a.orientation.y, a.orientation.z, a.linear_velocity.x, a.linear_velocity.y,
                        a.linear_velocity.z, a.angular_velocity.x, a.angular_velocity.y, a.angular_velocity.z};
  const float fb[13] = {b.position.x, b.position.y, b.position.z, b.orientation.w, b.orientation.x,
                        b.orientation.y, b.orientation.z, b.linear_velocity.x, b.linear_velocity.y,
                        b.linear_velocity.z, b.angular_velocity.x, b.angular_velocity.y, b.angular_velocity.z};
  std::uint32_t diff = static_cast<std::uint32_t>(a.at_rest != b.at_rest);
  for (int i = 0; i < 13; ++i) diff |= std::bit_cast<std::uint32_t>(fa[i]) ^ std::bit_cast<std::uint32_t>(fb[i]);
  return diff == 0;
}

}  // namespace shoal::core
