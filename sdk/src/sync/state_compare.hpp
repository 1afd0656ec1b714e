// Whether an owner's frame and the peer's own frame agree.
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <span>

#include "shoal/peer.hpp"

namespace shoal::sync {

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
