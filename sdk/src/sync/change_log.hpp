// Which bodies each held frame may have changed from the frame before: stepped by the engine,
// injected from an owner, replayed or written over. After a catch-up, the union over the
// re-simulated frames, before and after, names every body whose newest frames may differ, so
// the passes that follow (smoothing, regions) visit only those.
#pragma once

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

/// A ring over the history's frames (same depth): per frame, its list of changed bodies, or
/// "unknown" when the engine could not say (then every body may have changed).
class ChangeLog {
 public:
  ChangeLog(std::size_t bodies, int depth)
      : lists_(static_cast<std::size_t>(depth)), known_(static_cast<std::size_t>(depth), 0) {
    for (auto& list : lists_) list.reserve(bodies / 8 + 1);
  }

  /// Starts frame f's list empty and known.
  void begin(Frame f) {
    lists_[slot(f)].clear();
    known_[slot(f)] = 1;
  }
  void mark_unknown(Frame f) { known_[slot(f)] = 0; }
  void add(Frame f, BodyIndex body) { lists_[slot(f)].push_back(body); }
  void add(Frame f, std::span<const BodyIndex> bodies) {
    std::vector<BodyIndex>& list = lists_[slot(f)];
    list.insert(list.end(), bodies.begin(), bodies.end());
  }
  bool known(Frame f) const { return known_[slot(f)] != 0; }
  std::span<const BodyIndex> at(Frame f) const { return lists_[slot(f)]; }

 private:
  std::size_t slot(Frame f) const { return static_cast<std::size_t>(f % static_cast<Frame>(lists_.size())); }

  std::vector<std::vector<BodyIndex>> lists_;
  std::vector<std::uint8_t> known_;
};

}  // namespace shoal::sync
