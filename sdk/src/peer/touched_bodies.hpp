// SPDX-License-Identifier: MIT
// Bodies whose newest frame may have changed since a per-frame pass last read them: all of
// them after a catch-up, at the start, or for an engine that gives no list. The smoothing and
// the region passes each keep one and read only those.
#pragma once

#include <span>
#include <vector>

#include "shoal/simulation.hpp"

namespace shoal {

struct TouchedBodies {
  std::vector<BodyIndex> bodies;
  bool all = true;

  void add(std::span<const BodyIndex> more) {
    if (!all) bodies.insert(bodies.end(), more.begin(), more.end());
  }
  void reset() {
    bodies.clear();
    all = false;
  }
};

}  // namespace shoal
