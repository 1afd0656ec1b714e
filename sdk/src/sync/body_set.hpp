// SPDX-License-Identifier: MIT
// A set of bodies for the per-frame passes: which a catch-up changed, which an owner's frame
// sets, which a step moved.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "shoal/simulation.hpp"

namespace shoal::sync {

/// A set of bodies kept as a list in insertion order; adding one already held does nothing.
/// Clearing is O(1) (a new stamp), so it can be reused every frame without a pass.
class BodySet {
 public:
  explicit BodySet(std::size_t bodies) : stamps_(bodies, 0) { list_.reserve(bodies); }
  void clear() {
    list_.clear();
    if (++stamp_ == 0) {  // wrapped: forget every old stamp once
      std::fill(stamps_.begin(), stamps_.end(), 0);
      stamp_ = 1;
    }
  }
  void add(BodyIndex body) {
    if (stamps_[body] == stamp_) return;
    stamps_[body] = stamp_;
    list_.push_back(body);
  }
  void add(std::span<const BodyIndex> bodies) {
    for (BodyIndex b : bodies) add(b);
  }
  bool contains(BodyIndex body) const { return stamps_[body] == stamp_; }
  std::span<const BodyIndex> bodies() const { return list_; }

 private:
  std::vector<std::uint32_t> stamps_;
  std::uint32_t stamp_ = 1;
  std::vector<BodyIndex> list_;
};

}  // namespace shoal::sync
