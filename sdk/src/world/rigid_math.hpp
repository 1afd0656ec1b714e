// SPDX-License-Identifier: MIT
// Small rigid-body math the reference physics needs beyond shoal/math.hpp.
#pragma once

#include "shoal/math.hpp"

namespace shoal::world {

/// A 3x3 matrix by rows; here only for world-space inverse inertia tensors.
struct Mat3 {
  Vec3 row0, row1, row2;

  constexpr Vec3 operator*(Vec3 v) const { return {dot(row0, v), dot(row1, v), dot(row2, v)}; }
};

/// A body's position and its local x, y, z axes in world space (the rotation's columns).
struct Pose {
  Vec3 position;
  Vec3 axes[3];

  constexpr Vec3 to_world(Vec3 local) const {
    return position + axes[0] * local.x + axes[1] * local.y + axes[2] * local.z;
  }
  constexpr Vec3 to_local_direction(Vec3 d) const {
    return {dot(axes[0], d), dot(axes[1], d), dot(axes[2], d)};
  }
};

inline Pose make_pose(Vec3 position, Quat orientation) {
  return {position,
          {rotate(orientation, {1, 0, 0}), rotate(orientation, {0, 1, 0}),
           rotate(orientation, {0, 0, 1})}};
}

/// R * diag(inverse_local) * R^T for the rotation whose columns are pose.axes.
constexpr Mat3 world_inverse_inertia(const Pose& pose, Vec3 inverse_local) {
  const float inv[3] = {inverse_local.x, inverse_local.y, inverse_local.z};
  float m[3][3] = {};
  for (int k = 0; k < 3; ++k) {
    const Vec3 c = pose.axes[k];
    const float col[3] = {c.x, c.y, c.z};
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j) m[i][j] += inv[k] * col[i] * col[j];
    }
  }
  return {{m[0][0], m[0][1], m[0][2]}, {m[1][0], m[1][1], m[1][2]}, {m[2][0], m[2][1], m[2][2]}};
}

constexpr float component(Vec3 v, int axis) { return axis == 0 ? v.x : axis == 1 ? v.y : v.z; }

}  // namespace shoal::world
