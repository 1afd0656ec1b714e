// SPDX-License-Identifier: MIT
// Narrow phase of the reference physics: contact points between spheres, boxes and planes.
#pragma once

#include <array>
#include <cstdint>

#include "world/rigid_math.hpp"

namespace shoal::world {

enum class ShapeKind : std::uint8_t { sphere, box };

struct Shape {
  ShapeKind kind = ShapeKind::sphere;
  float radius = 0;     // sphere
  Vec3 half_extents;    // box
};

struct ContactPoint {
  Vec3 point;        // world, midway between the two surfaces
  float separation;  // < 0 when the shapes overlap
};

/// The contact points of one pair, all sharing one normal that points from the first shape
/// to the second. At most 8 points (a box against a plane); a box pair keeps 4.
struct Manifold {
  Vec3 normal;
  int count = 0;
  std::array<ContactPoint, 8> points;

  void add(Vec3 point, float separation) {
    if (count < static_cast<int>(points.size())) points[static_cast<std::size_t>(count++)] = {point, separation};
  }
};

/// Fills `out` with the points where a and b are closer than `margin`; empty when they are not.
void collide(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb, float margin,
             Manifold& out);

/// The same against the half-space dot(inward_normal, x) >= offset (the arena's inside). The
/// manifold's normal points from the shape into the plane, i.e. -inward_normal.
void collide_plane(const Shape& shape, const Pose& pose, Vec3 inward_normal, float offset,
                   float margin, Manifold& out);

}  // namespace shoal::world
