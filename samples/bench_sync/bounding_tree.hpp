// SPDX-License-Identifier: MIT
// A complete binary tree of bounding boxes over bodies' bounding spheres, rebuilt every frame:
// each rebuild starts from the leaf order the last one ended with, and
// on every level, bottom up, the four children of each pair of sibling nodes are regrouped
// into the two pairs with the smallest boxes. Bodies move little between frames, so the order
// stays good. (It refines a poor order only so far: see reset_order().)
//
// It lives with the benchmark that weighs it against the linear scans the authority layer
// uses (spatial_cost.cpp); it becomes SDK code only if it wins there.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "shoal/math.hpp"
#include "shoal/simulation.hpp"

namespace shoal::bench {

class BoundingTree {
 public:
  /// Rebuilds from bounding spheres (body index = position in the spans; finite centers,
  /// radii >= 0), starting from the leaf order of the last rebuild, or from a top-down split
  /// at medians when the body count changed. No allocation once warm. Throws
  /// std::invalid_argument when the spans differ in length.
  void rebuild(std::span<const Vec3> centers, std::span<const float> radii);

  /// Calls fn(BodyIndex) once for every body whose bounding sphere overlaps the query sphere
  /// (radius >= 0): |center - c|^2 <= (radius + r)^2, the test SpatialGrid makes.
  template <class Fn>
  void query_sphere(Vec3 center, float radius, Fn&& fn) const;

  std::size_t body_count() const { return body_count_; }
  /// Every body once, in the order the next rebuild starts from.
  std::span<const BodyIndex> leaf_order() const { return leaf_order_; }
  /// Sum of the edge lengths of every internal node's box: lower means a tighter tree.
  float total_box_size() const;

 private:
  struct Box {
    float lo_x, lo_y, lo_z, hi_x, hi_y, hi_z;
  };
  struct Sphere {
    float x, y, z, r;
  };
  // Where the tree's implicit numbering has no body: the padding that makes it complete.
  static constexpr BodyIndex kNoBody = std::numeric_limits<BodyIndex>::max();
  static constexpr int kMaxLevels = 33;  // 2^32 leaves
  static constexpr float kSlack = 0x1p-20f;  // relative: 8 float ulps
  // A node this low tests its leaves' spheres in a row (2^kLeafRun of them, side by side in
  // memory) rather than the boxes between: seven eighths of the nodes are on those levels.
  static constexpr int kLeafRun = 3;

  static Box united(const Box& a, const Box& b);
  static float size(const Box& b);
  // The box-against-sphere tests of a query.
  static bool touches(const Box& b, Vec3 c, float reach_squared);
  static bool inside(const Box& b, Vec3 c, float radius_squared);

  void reset_order(std::span<const Vec3> centers);
  void split_at_medians(std::span<const Vec3> centers, std::size_t first, std::size_t end, std::size_t slots);
  void fill_leaves(std::span<const Vec3> centers, std::span<const float> radii);
  void regroup_level(int child_level);
  void derive_leaf_order(std::span<const Vec3> centers, std::span<const float> radii);

  const Box& box(int level, std::uint32_t id) const { return boxes_[box_start(level) + id]; }
  std::size_t box_start(int level) const { return 2 * leaf_count_ - (2 * leaf_count_ >> level); }
  std::size_t pairing_start(int level) const { return box_start(level); }

  std::size_t body_count_ = 0;
  std::size_t leaf_count_ = 0;  // a power of two >= body_count_ (0 for no body)
  int height_ = 0;              // the root's level; leaves are level 0
  // Per leaf slot of this rebuild: its body (kNoBody for padding).
  std::vector<BodyIndex> leaf_bodies_;
  // Every level's boxes, leaves first; node ids are positions within a level.
  std::vector<Box> boxes_;
  // Per level below the root, its node ids in the order that pairs them: nodes
  // pairing[2j] and pairing[2j + 1] of level h are the children of node j of level h + 1.
  std::vector<std::uint32_t> pairing_;
  // Leaf slots in depth-first order of the rebuilt tree, then their bodies (kNoBody kept) and
  // spheres: a node's leaves are a contiguous run of these, so a node wholly inside a query
  // sphere reports its bodies without visiting its subtree, and the next rebuild starts here.
  std::vector<std::uint32_t> dfs_scratch_a_, dfs_scratch_b_;
  std::vector<BodyIndex> dfs_bodies_;
  std::vector<Sphere> dfs_spheres_;
  std::vector<BodyIndex> leaf_order_;  // dfs_bodies_ without padding
};

template <class Fn>
void BoundingTree::query_sphere(Vec3 center, float radius, Fn&& fn) const {
  if (body_count_ == 0) return;
  // Node tests reach a little farther than the radius, and leaf boxes are padded outwards
  // (fill_leaves), each by far more than rounding: a node test never drops a body that the
  // exact test, rounded differently, keeps at the very edge.
  const float reach_squared = radius * radius;
  const float prune = radius + (radius + std::abs(center.x) + std::abs(center.y) + std::abs(center.z)) * kSlack;
  const float prune_squared = prune * prune;
  struct Visit {
    std::uint32_t id, position;  // position: the node's rank on its level in depth-first order
    int level;
  };
  std::array<Visit, kMaxLevels + 1> pending;  // depth first: at most one waiting node per level
  std::size_t count = 0;
  pending[count++] = {0, 0, height_};
  while (count > 0) {
    const Visit v = pending[--count];
    const std::size_t first = std::size_t{v.position} << v.level;  // its leaves, depth first
    const std::size_t end = first + (std::size_t{1} << v.level);
    if (v.level > 0 && !touches(box(v.level, v.id), center, prune_squared)) continue;
    if (v.level <= kLeafRun) {
      for (std::size_t i = first; i < end; ++i) {
        const Sphere& s = dfs_spheres_[i];
        const float dx = center.x - s.x, dy = center.y - s.y, dz = center.z - s.z;
        const float reach = radius + s.r;
        if (dfs_bodies_[i] != kNoBody && dx * dx + dy * dy + dz * dz <= reach * reach) fn(dfs_bodies_[i]);
      }
      continue;
    }
    if (inside(box(v.level, v.id), center, reach_squared)) {
      // Every sphere in the box lies in the query sphere, which the exact test then also finds
      // (see inside()): report the node's leaves as they come.
      for (std::size_t i = first; i < end; ++i) {
        if (dfs_bodies_[i] != kNoBody) fn(dfs_bodies_[i]);
      }
      continue;
    }
    const std::uint32_t* children = &pairing_[pairing_start(v.level - 1) + 2 * std::size_t{v.id}];
    pending[count++] = {children[1], 2 * v.position + 1, v.level - 1};
    pending[count++] = {children[0], 2 * v.position, v.level - 1};
  }
}

inline bool BoundingTree::touches(const Box& b, Vec3 c, float reach_squared) {
  const float ex = std::max(std::max(b.lo_x - c.x, c.x - b.hi_x), 0.0f);
  const float ey = std::max(std::max(b.lo_y - c.y, c.y - b.hi_y), 0.0f);
  const float ez = std::max(std::max(b.lo_z - c.z, c.z - b.hi_z), 0.0f);
  return ex * ex + ey * ey + ez * ez <= reach_squared;
}

// The farthest corner within the radius. Each leaf box holds its sphere's center, so per axis
// the corner's offset is at least the center's, rounded the same way: the exact test's
// |center - c|^2 is then <= this sum <= radius^2 <= (radius + r)^2, in float too.
inline bool BoundingTree::inside(const Box& b, Vec3 c, float radius_squared) {
  const float fx = std::max(c.x - b.lo_x, b.hi_x - c.x);
  const float fy = std::max(c.y - b.lo_y, b.hi_y - c.y);
  const float fz = std::max(c.z - b.lo_z, b.hi_z - c.z);
  return fx * fx + fy * fy + fz * fz <= radius_squared;
}

}  // namespace shoal::bench
