// SPDX-License-Identifier: MIT
// Whether an owner's frame and the peer's own frame agree.
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <span>

#include "core/bitwise_equal.hpp"
#include "shoal/peer_config.hpp"

namespace shoal::sync {

using core::bitwise_equal;

/// An owner's user bytes against the peer's own: `own` may be a longer row (a history or ring
/// stride); its first owner.size() bytes count.
inline bool user_bytes_equal(std::span<const std::uint8_t> own, std::span<const std::uint8_t> owner) {
  return own.size() >= owner.size() && std::equal(owner.begin(), owner.end(), own.begin());
}

inline bool states_agree(const ObjectState& owner, const ObjectState& own,
                         const CompareTolerance& tolerance) {
  // At rest on either side: bitwise, so that a settled world ends with the same bits everywhere.
  if (tolerance.exact || owner.at_rest || own.at_rest) return bitwise_equal(owner, own);
  return distance(owner.position, own.position) <= tolerance.position_m &&
         angle_between(owner.orientation, own.orientation) <= tolerance.rotation_rad &&
         distance(owner.linear_velocity, own.linear_velocity) <= tolerance.linear_velocity_mps &&
         distance(owner.angular_velocity, own.angular_velocity) <= tolerance.angular_velocity_radps;
}

}  // namespace shoal::sync
