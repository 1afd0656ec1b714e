// SPDX-License-Identifier: MIT
#include "sync/world_changes.hpp"

#include <algorithm>

namespace shoal::sync {

bool WorldChanges::add(const WorldChange& change) {
  if (change.frame < 0 || changes_.size() >= capacity_) return false;
  const auto at = std::lower_bound(changes_.begin(), changes_.end(), change, WorldChange::before);
  if (at != changes_.end() && !WorldChange::before(change, *at)) return false;  // same frame, kind, slot
  changes_.insert(at, change);
  return true;
}

std::span<const WorldChange> WorldChanges::at(Frame f) const {
  auto by_frame = [](const WorldChange& c, Frame frame) { return c.frame < frame; };
  const auto first = std::lower_bound(changes_.begin(), changes_.end(), f, by_frame);
  auto last = first;
  while (last != changes_.end() && last->frame == f) ++last;
  return {first, last};
}

void WorldChanges::forget_before(Frame f) {
  auto by_frame = [](const WorldChange& c, Frame frame) { return c.frame < frame; };
  changes_.erase(changes_.begin(), std::lower_bound(changes_.begin(), changes_.end(), f, by_frame));
}

}  // namespace shoal::sync
