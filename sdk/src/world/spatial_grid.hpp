// SPDX-License-Identifier: MIT
// Broad phase: a uniform grid hashed into a flat bucket array, rebuilt from bounding spheres.
// Used by the reference physics for contact pairs and by the authority layer for region
// queries. A grid suits Shoal's scenes (many similar-sized bodies spread over a plane) and is
// cheap to rebuild every step; its results come in an order that depends only on the input,
// never on what was built before, which keeps the physics deterministic after restore.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "shoal/math.hpp"
#include "shoal/simulation.hpp"

namespace shoal::world {

class SpatialGrid {
 public:
  /// Throws std::invalid_argument unless cell_size is finite and > 0.
  explicit SpatialGrid(float cell_size);

  /// Rebuilds from bounding spheres; body index = position in the spans. No allocation once
  /// warm. Throws std::invalid_argument when the spans differ in length.
  void rebuild(std::span<const Vec3> centers, std::span<const float> radii);

  /// Calls fn(BodyIndex) once for every body whose bounding sphere overlaps the query sphere.
  template <class Fn>
  void query_sphere(Vec3 center, float radius, Fn&& fn) const;

  /// Calls fn(BodyIndex a, BodyIndex b), a < b, once per pair of overlapping bounding spheres.
  template <class Fn>
  void for_each_pair(Fn&& fn) const;

  std::size_t body_count() const { return centers_.size(); }
  float cell_size() const { return cell_size_; }

 private:
  struct Cell {
    std::int32_t x = 0, y = 0, z = 0;
    bool operator==(const Cell&) const = default;
  };
  struct Entry {
    Cell cell;
    BodyIndex body = 0;
  };

  // A body covering more cells than this is kept out of the grid and tested against everything:
  // one huge body must not cost thousands of cell entries.
  static constexpr std::int64_t kMaxCellsPerBody = 64;

  Cell cell_of(Vec3 p) const;
  std::uint32_t bucket_of(Cell c) const;
  static std::int64_t cell_count(Cell lo, Cell hi);
  static Cell max_corner(Cell a, Cell b);
  bool overlaps(BodyIndex a, BodyIndex b) const;
  static bool spheres_overlap(Vec3 ca, float ra, Vec3 cb, float rb);

  float cell_size_;
  float inv_cell_size_;
  std::vector<Vec3> centers_;
  std::vector<float> radii_;
  std::vector<Cell> lo_;  // per body: first and last cell its bounding box covers
  std::vector<Cell> hi_;
  std::vector<std::uint8_t> oversized_;      // per body: 1 when kept out of the grid
  std::vector<BodyIndex> oversized_bodies_;  // ascending
  std::vector<std::uint32_t> bucket_start_;  // bucket_count + 1 offsets into entries_
  std::vector<Entry> entries_;
  std::uint32_t bucket_mask_ = 0;
};

template <class Fn>
void SpatialGrid::query_sphere(Vec3 center, float radius, Fn&& fn) const {
  const Vec3 extent{radius, radius, radius};
  const Cell qlo = cell_of(center - extent);
  const Cell qhi = cell_of(center + extent);
  if (cell_count(qlo, qhi) > kMaxCellsPerBody * 8) {
    // A query wider than the grid's use: walking every body is cheaper than every cell.
    for (BodyIndex b = 0; b < centers_.size(); ++b) {
      if (spheres_overlap(center, radius, centers_[b], radii_[b])) fn(b);
    }
    return;
  }
  for (std::int32_t z = qlo.z; z <= qhi.z; ++z) {
    for (std::int32_t y = qlo.y; y <= qhi.y; ++y) {
      for (std::int32_t x = qlo.x; x <= qhi.x; ++x) {
        const Cell c{x, y, z};
        const std::uint32_t bucket = bucket_of(c);
        for (std::uint32_t i = bucket_start_[bucket]; i < bucket_start_[bucket + 1]; ++i) {
          const Entry& e = entries_[i];
          // A body shares several cells with the query; only the first shared one reports it.
          if (!(e.cell == c) || !(max_corner(qlo, lo_[e.body]) == c)) continue;
          if (spheres_overlap(center, radius, centers_[e.body], radii_[e.body])) fn(e.body);
        }
      }
    }
  }
  for (const BodyIndex b : oversized_bodies_) {
    if (spheres_overlap(center, radius, centers_[b], radii_[b])) fn(b);
  }
}

template <class Fn>
void SpatialGrid::for_each_pair(Fn&& fn) const {
  const std::uint32_t bucket_count = bucket_mask_ + 1;
  for (std::uint32_t bucket = 0; bucket < bucket_count; ++bucket) {
    const std::uint32_t end = bucket_start_[bucket + 1];
    for (std::uint32_t i = bucket_start_[bucket]; i < end; ++i) {
      const Entry& first = entries_[i];
      for (std::uint32_t j = i + 1; j < end; ++j) {
        const Entry& second = entries_[j];
        if (!(first.cell == second.cell)) continue;  // another cell hashed to this bucket
        // Two bodies may share many cells; the pair belongs to the first one they share.
        if (!(max_corner(lo_[first.body], lo_[second.body]) == first.cell)) continue;
        if (!overlaps(first.body, second.body)) continue;
        if (first.body < second.body) {
          fn(first.body, second.body);
        } else {
          fn(second.body, first.body);
        }
      }
    }
  }
  for (const BodyIndex big : oversized_bodies_) {
    for (BodyIndex other = 0; other < centers_.size(); ++other) {
      // A pair of two oversized bodies is reported once, from the lower index.
      if (other == big || (oversized_[other] != 0 && other < big)) continue;
      if (!overlaps(big, other)) continue;
      if (big < other) {
        fn(big, other);
      } else {
        fn(other, big);
      }
    }
  }
}

}  // namespace shoal::world
