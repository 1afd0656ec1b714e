// SPDX-License-Identifier: MIT
#include "bounding_tree.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <string>

namespace shoal::bench {
namespace {

constexpr float kInfinity = std::numeric_limits<float>::infinity();

}  // namespace

void BoundingTree::rebuild(std::span<const Vec3> centers, std::span<const float> radii) {
  if (centers.size() != radii.size()) {
    throw std::invalid_argument("BoundingTree::rebuild: " + std::to_string(centers.size()) +
                                " centers but " + std::to_string(radii.size()) +
                                " radii; expected one radius per center");
  }
  if (centers.size() != body_count_) reset_order(centers);
  if (body_count_ == 0) return;
  fill_leaves(centers, radii);
  for (int level = 0; level < height_; ++level) regroup_level(level);
  derive_leaf_order(centers, radii);
}

void BoundingTree::reset_order(std::span<const Vec3> centers) {
  const std::size_t bodies = centers.size();
  body_count_ = bodies;
  leaf_count_ = bodies == 0 ? 0 : std::bit_ceil(bodies);
  height_ = bodies == 0 ? 0 : std::countr_zero(leaf_count_);
  // Leaves + every level above them: 2 * leaf_count - 1 nodes; one spare keeps the offsets simple.
  boxes_.resize(2 * leaf_count_);
  pairing_.resize(2 * leaf_count_);
  leaf_bodies_.resize(leaf_count_);
  dfs_scratch_a_.resize(leaf_count_);
  dfs_scratch_b_.resize(leaf_count_);
  dfs_bodies_.resize(leaf_count_);
  dfs_spheres_.resize(leaf_count_);
  leaf_order_.resize(bodies);
  for (std::size_t i = 0; i < bodies; ++i) leaf_order_[i] = static_cast<BodyIndex>(i);
  // The first order is free (any order would do: the regrouping improves it). But regrouping
  // only ever exchanges the children of sibling nodes, and settles where no such exchange
  // helps: from body order over a 71 x 71 grid of rows (the bench's 5,000 objects), on a tree
  // 1.6 times the size of this one; from a shuffled 32 x 32 grid, at 3.6 times. So start from
  // halves split at the median, as a top-down build would.
  split_at_medians(centers, 0, bodies, leaf_count_);
}

// Orders leaf_order_[first, end) so that the subtree of `slots` leaf slots holding them (the
// padding last) has its halves on either side of the median along the bodies' widest axis,
// and so on down.
void BoundingTree::split_at_medians(std::span<const Vec3> centers, std::size_t first, std::size_t end,
                                    std::size_t slots) {
  if (end - first <= 1 || slots <= 1) return;
  Vec3 lo = centers[leaf_order_[first]], hi = lo;
  for (std::size_t i = first; i < end; ++i) {
    const Vec3 c = centers[leaf_order_[i]];
    lo = {std::min(lo.x, c.x), std::min(lo.y, c.y), std::min(lo.z, c.z)};
    hi = {std::max(hi.x, c.x), std::max(hi.y, c.y), std::max(hi.z, c.z)};
  }
  const Vec3 extent = hi - lo;
  const float Vec3::*axis = extent.x >= extent.y && extent.x >= extent.z ? &Vec3::x
                            : extent.y >= extent.z                       ? &Vec3::y
                                                                          : &Vec3::z;
  const std::size_t half = slots / 2;
  const std::size_t middle = first + std::min(half, end - first);
  auto* order = leaf_order_.data();
  std::nth_element(order + first, order + middle, order + end, [&](BodyIndex a, BodyIndex b) {
    return centers[a].*axis < centers[b].*axis;
  });
  split_at_medians(centers, first, middle, half);
  split_at_medians(centers, middle, end, half);
}

void BoundingTree::fill_leaves(std::span<const Vec3> centers, std::span<const float> radii) {
  // The padding goes last: the tree's right edge, which the regrouping then packs together.
  for (std::size_t slot = 0; slot < leaf_count_; ++slot) {
    if (slot >= body_count_) {
      leaf_bodies_[slot] = kNoBody;
      boxes_[slot] = {kInfinity, kInfinity, kInfinity, -kInfinity, -kInfinity, -kInfinity};
      continue;
    }
    const BodyIndex body = leaf_order_[slot];
    // Float by float: GCC 12 copies a whole Vec3 through the stack in pieces of other sizes
    // than it reads back, which stalls every iteration.
    const float x = centers[body].x, y = centers[body].y, z = centers[body].z, r = radii[body];
    leaf_bodies_[slot] = body;
    // Wider than the sphere by far more than the rounding of c +- r (see query_sphere).
    const float half = r + (r + std::abs(x) + std::abs(y) + std::abs(z)) * kSlack;
    boxes_[slot] = {x - half, y - half, z - half, x + half, y + half, z + half};
  }
}

BoundingTree::Box BoundingTree::united(const Box& a, const Box& b) {
  return {std::min(a.lo_x, b.lo_x), std::min(a.lo_y, b.lo_y), std::min(a.lo_z, b.lo_z),
          std::max(a.hi_x, b.hi_x), std::max(a.hi_y, b.hi_y), std::max(a.hi_z, b.hi_z)};
}

// Sum of the edge lengths rather than the volume: Shoal's bodies lie on a floor, where a box of
// far-apart bodies can be as flat as one of neighbours. (-infinity for a box of padding only,
// so two paddings pair up first.)
float BoundingTree::size(const Box& b) {
  return (b.hi_x - b.lo_x) + (b.hi_y - b.lo_y) + (b.hi_z - b.lo_z);
}

// Pairs the nodes of `child_level` into the nodes of the level above. Nodes 2j and 2j + 1
// above are siblings; of the three ways to split their four children into two pairs, the one
// whose two boxes have the smallest total size wins (ties keep the current pairs).
void BoundingTree::regroup_level(int child_level) {
  const std::size_t children = leaf_count_ >> child_level;
  const Box* below = &boxes_[box_start(child_level)];
  Box* above = &boxes_[box_start(child_level + 1)];
  std::uint32_t* pairs = &pairing_[pairing_start(child_level)];
  if (children == 2) {  // the root's children: nothing to regroup
    pairs[0] = 0;
    pairs[1] = 1;
    above[0] = united(below[0], below[1]);
    return;
  }
  for (std::size_t first = 0; first < children; first += 4) {
    const Box* four = below + first;
    // Sizes of the six possible pairs, straight from the boxes' floats (no Box temporaries:
    // GCC 12 spills and reloads those through the stack).
    auto pair_size = [four](int i, int j) {
      const Box& p = four[i];
      const Box& q = four[j];
      return (std::max(p.hi_x, q.hi_x) - std::min(p.lo_x, q.lo_x)) +
             (std::max(p.hi_y, q.hi_y) - std::min(p.lo_y, q.lo_y)) +
             (std::max(p.hi_z, q.hi_z) - std::min(p.lo_z, q.lo_z));
    };
    const float keep = pair_size(0, 1) + pair_size(2, 3);
    const float swap_bc = pair_size(0, 2) + pair_size(1, 3);
    const float swap_bd = pair_size(0, 3) + pair_size(1, 2);
    // a's partner; the other two pair up in order.
    const int partner = keep <= swap_bc && keep <= swap_bd ? 1 : swap_bc <= swap_bd ? 2 : 3;
    const int second = partner == 1 ? 2 : 1;
    const int fourth = partner == 3 ? 2 : 3;
    const auto id = static_cast<std::uint32_t>(first);
    std::uint32_t* out = pairs + first;
    out[0] = id;
    out[1] = id + static_cast<std::uint32_t>(partner);
    out[2] = id + static_cast<std::uint32_t>(second);
    out[3] = id + static_cast<std::uint32_t>(fourth);
    above[first / 2] = united(four[0], four[partner]);
    above[first / 2 + 1] = united(four[second], four[fourth]);
  }
}

// Walks the pairings down from the root, a level at a time: the ids of each level in
// depth-first order, ending with the leaf slots.
void BoundingTree::derive_leaf_order(std::span<const Vec3> centers, std::span<const float> radii) {
  std::vector<std::uint32_t>* above = &dfs_scratch_a_;
  std::vector<std::uint32_t>* below = &dfs_scratch_b_;
  (*above)[0] = 0;
  for (int level = height_; level > 0; --level) {
    const std::uint32_t* pairs = &pairing_[pairing_start(level - 1)];
    const std::size_t nodes = leaf_count_ >> level;
    for (std::size_t k = 0; k < nodes; ++k) {
      const std::uint32_t node = (*above)[k];
      (*below)[2 * k] = pairs[2 * std::size_t{node}];
      (*below)[2 * k + 1] = pairs[2 * std::size_t{node} + 1];
    }
    std::swap(above, below);
  }
  std::size_t bodies = 0;
  for (std::size_t k = 0; k < leaf_count_; ++k) {
    const BodyIndex body = leaf_bodies_[(*above)[k]];
    dfs_bodies_[k] = body;
    if (body == kNoBody) {
      dfs_spheres_[k] = {0, 0, 0, 0};
      continue;
    }
    dfs_spheres_[k] = {centers[body].x, centers[body].y, centers[body].z, radii[body]};
    leaf_order_[bodies++] = body;
  }
}

float BoundingTree::total_box_size() const {
  float total = 0;
  for (std::size_t i = box_start(1); i < box_start(height_ + 1); ++i) {
    if (boxes_[i].lo_x <= boxes_[i].hi_x) total += size(boxes_[i]);
  }
  return total;
}

}  // namespace shoal::bench
