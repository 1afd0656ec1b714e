// Whether an owner's frame and the peer's own frame agree.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <span>

#include "shoal/peer.hpp"

namespace shoal::sync {

inline bool bitwise_equal(const ObjectState& a, const ObjectState& b) {
  // Field by field: the struct has padding after at_rest.
  auto same = [](const auto& x, const auto& y) { return std::memcmp(&x, &y, sizeof x) == 0; };
  return same(a.position, b.position) && same(a.orientation, b.orientation) &&
         same(a.linear_velocity, b.linear_velocity) &&
         same(a.angular_velocity, b.angular_velocity) && a.at_rest == b.at_rest;
}

/// An owner's user bytes against the peer's own: `own` may be a longer row (a history or ring
/// stride); its first owner.size() bytes count.
inline bool user_bytes_equal(std::span<const std::uint8_t> own, std::span<const std::uint8_t> owner) {
  return own.size() >= owner.size() && std::equal(owner.begin(), owner.end(), own.begin());
}

inline bool states_agree(const ObjectState& owner, const ObjectState& own,
                         const CompareTolerance& tolerance) {
  if (tolerance.exact) return bitwise_equal(owner, own);
  return owner.at_rest == own.at_rest &&
         distance(owner.position, own.position) <= tolerance.position_m &&
         angle_between(owner.orientation, own.orientation) <= tolerance.rotation_rad &&
         distance(owner.linear_velocity, own.linear_velocity) <= tolerance.linear_velocity_mps &&
         distance(owner.angular_velocity, own.angular_velocity) <= tolerance.angular_velocity_radps;
}

}  // namespace shoal::sync
