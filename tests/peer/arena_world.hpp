// SPDX-License-Identifier: MIT
// The arena every in-process match of the tests plays in, built the same way on every peer:
// one ball per player on a circle, shared objects in a grid. Apart from the match harness so
// that the fuzz targets (tests/fuzz), which have no match, build the very same world.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>

#include "shoal/reference_physics.hpp"

namespace shoal::test {

inline constexpr ObjectId kFirstBall = 1;      // ball of peer p: kFirstBall + p
inline constexpr ObjectId kFirstObject = 100;  // shared objects: kFirstObject + i

struct ArenaSpec {
  int balls = 2;
  int objects = 6;
  float half_extent = 12;
  /// User bytes of every body (all of type kUserBytesType), 0 = none: the reference physics
  /// counts awake frames in the first 4, the rest stay as written.
  std::size_t user_bytes = 0;
};

inline constexpr std::uint16_t kUserBytesType = 7;

/// The same world on every peer: one ball per player on a circle, shared objects in a grid.
inline void build_arena(ReferencePhysics& physics, const ArenaSpec& spec) {
  for (int p = 0; p < spec.balls; ++p) {
    const float a = 6.2831853f * static_cast<float>(p) / static_cast<float>(spec.balls);
    ObjectState s;
    s.position = {std::cos(a) * spec.half_extent * 0.6f, 0.5f, std::sin(a) * spec.half_extent * 0.6f};
    physics.add_sphere(kFirstBall + static_cast<ObjectId>(p), 0.5f, 2.0f, s);
  }
  const int side = static_cast<int>(std::ceil(std::sqrt(static_cast<float>(spec.objects))));
  for (int i = 0; i < spec.objects; ++i) {
    ObjectState s;
    s.position = {(static_cast<float>(i % side) - static_cast<float>(side - 1) * 0.5f) * 1.5f, 0.4f,
                  (static_cast<float>(i / side) - static_cast<float>(side - 1) * 0.5f) * 1.5f};
    s.at_rest = true;
    if (i % 2 == 0) {
      physics.add_sphere(kFirstObject + static_cast<ObjectId>(i), 0.4f, 1.0f, s);
    } else {
      physics.add_box(kFirstObject + static_cast<ObjectId>(i), {0.4f, 0.4f, 0.4f}, 1.0f, s);
    }
  }
  if (spec.user_bytes > 0) {
    physics.set_user_bytes_size(kUserBytesType, spec.user_bytes);
    for (BodyIndex b = 0; b < physics.body_count(); ++b) physics.set_body_type(b, kUserBytesType);
  }
}

inline ReferencePhysicsConfig arena_physics(const ArenaSpec& spec) {
  ReferencePhysicsConfig c;
  // Enough damping that a match comes to rest within seconds once the bots stop.
  c.linear_damping = 0.6f;
  c.angular_damping = 0.6f;
  c.arena_half_x = spec.half_extent;
  c.arena_half_z = spec.half_extent;
  return c;
}

}  // namespace shoal::test
