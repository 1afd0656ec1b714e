// SPDX-License-Identifier: MIT
#include "world/spatial_grid.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace shoal::world {
namespace {

// Cell coordinates are clamped so that far-away or non-finite positions cannot overflow; such
// bodies merely share an edge cell.
constexpr float kCellLimit = 1 << 20;

std::int32_t to_cell(float scaled) {
  if (!(scaled > -kCellLimit)) return static_cast<std::int32_t>(-kCellLimit);  // also NaN
  if (scaled > kCellLimit) return static_cast<std::int32_t>(kCellLimit);
  return static_cast<std::int32_t>(std::floor(scaled));
}

}  // namespace

SpatialGrid::SpatialGrid(float cell_size) : cell_size_(cell_size), inv_cell_size_(0) {
  if (!(cell_size > 0) || !std::isfinite(cell_size)) {
    throw std::invalid_argument("SpatialGrid: cell_size must be a finite number > 0, got " +
                                std::to_string(cell_size));
  }
  inv_cell_size_ = 1.0f / cell_size;
  bucket_start_.assign(2, 0);  // an empty grid answers queries without special cases
}

SpatialGrid::Cell SpatialGrid::cell_of(Vec3 p) const {
  return {to_cell(p.x * inv_cell_size_), to_cell(p.y * inv_cell_size_),
          to_cell(p.z * inv_cell_size_)};
}

std::uint32_t SpatialGrid::bucket_of(Cell c) const {
  const auto h = static_cast<std::uint32_t>(c.x) * 73856093u ^
                 static_cast<std::uint32_t>(c.y) * 19349663u ^
                 static_cast<std::uint32_t>(c.z) * 83492791u;
  return (h ^ (h >> 16)) & bucket_mask_;
}

std::int64_t SpatialGrid::cell_count(Cell lo, Cell hi) {
  return (std::int64_t{hi.x} - lo.x + 1) * (std::int64_t{hi.y} - lo.y + 1) *
         (std::int64_t{hi.z} - lo.z + 1);
}

SpatialGrid::Cell SpatialGrid::max_corner(Cell a, Cell b) {
  return {std::max(a.x, b.x), std::max(a.y, b.y), std::max(a.z, b.z)};
}

bool SpatialGrid::spheres_overlap(Vec3 ca, float ra, Vec3 cb, float rb) {
  const float reach = ra + rb;
  return length_squared(ca - cb) <= reach * reach;
}

bool SpatialGrid::overlaps(BodyIndex a, BodyIndex b) const {
  return spheres_overlap(centers_[a], radii_[a], centers_[b], radii_[b]);
}

void SpatialGrid::rebuild(std::span<const Vec3> centers, std::span<const float> radii) {
  if (centers.size() != radii.size()) {
    throw std::invalid_argument("SpatialGrid::rebuild: " + std::to_string(centers.size()) +
                                " centers but " + std::to_string(radii.size()) +
                                " radii; expected one radius per center");
  }
  const std::size_t n = centers.size();
  centers_.assign(centers.begin(), centers.end());
  radii_.assign(radii.begin(), radii.end());
  lo_.resize(n);
  hi_.resize(n);
  oversized_.assign(n, 0);
  oversized_bodies_.clear();

  std::size_t total_entries = 0;
  for (BodyIndex b = 0; b < n; ++b) {
    const float r = std::max(radii_[b], 0.0f);
    const Vec3 extent{r, r, r};
    lo_[b] = cell_of(centers_[b] - extent);
    hi_[b] = cell_of(centers_[b] + extent);
    const std::int64_t cells = cell_count(lo_[b], hi_[b]);
    if (cells > kMaxCellsPerBody) {
      oversized_[b] = 1;
      oversized_bodies_.push_back(b);
    } else {
      total_entries += static_cast<std::size_t>(cells);
    }
  }

  // The bucket count depends only on this input, so the iteration order does too.
  std::uint32_t bucket_count = 16;
  while (bucket_count < 2 * total_entries) bucket_count *= 2;
  bucket_mask_ = bucket_count - 1;
  bucket_start_.assign(bucket_count + 1, 0);
  entries_.resize(total_entries);

  auto for_each_cell = [this](BodyIndex b, auto&& visit) {
    for (std::int32_t z = lo_[b].z; z <= hi_[b].z; ++z) {
      for (std::int32_t y = lo_[b].y; y <= hi_[b].y; ++y) {
        for (std::int32_t x = lo_[b].x; x <= hi_[b].x; ++x) visit(Cell{x, y, z});
      }
    }
  };
  for (BodyIndex b = 0; b < n; ++b) {
    if (oversized_[b] == 0) for_each_cell(b, [&](Cell c) { ++bucket_start_[bucket_of(c)]; });
  }
  // Prefix sums give each bucket's end; filling bodies in reverse order while counting down
  // leaves every bucket's entries in ascending body order and bucket_start_ at each begin.
  for (std::uint32_t i = 1; i <= bucket_count; ++i) bucket_start_[i] += bucket_start_[i - 1];
  bucket_start_[bucket_count] = static_cast<std::uint32_t>(total_entries);
  for (BodyIndex b = static_cast<BodyIndex>(n); b-- > 0;) {
    if (oversized_[b] != 0) continue;
    for_each_cell(b, [&](Cell c) { entries_[--bucket_start_[bucket_of(c)]] = Entry{c, b}; });
  }
}

}  // namespace shoal::world
