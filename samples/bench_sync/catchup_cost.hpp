// SPDX-License-Identifier: MIT
// Part 2 of shoal-bench-sync: an 8-frame catch-up against 8 straight frames, on one engine.
#pragma once

#include "physics_choice.hpp"

namespace shoal::bench {

inline constexpr int kCatchupDepth = 8;
inline constexpr int kCatchupPeers = 4;  // this peer owns a quarter of the bodies and replays them

struct CatchupResult {
  samples::Physics physics = samples::Physics::reference;
  int objects = 0, reps = 0;
  double straight_us = 0;     ///< median of 8 step_forward calls
  double catchup_us = 0;      ///< median of one resimulate() over those 8 frames
  double ratio = 0;           ///< median of catch-up / straight, rep by rep
  double ratio_low = 0, ratio_high = 0;
  double ratio_to_physics = 0;  ///< median of catch-up / the 8 bare physics steps
};

/// The arena of `objects` on `engine`, driven through the Resimulator directly: 8 step_forward
/// calls and a resimulate() over those 8 frames (with replayed owned bodies and injected owner
/// frames) alternate `reps` times. Throws std::logic_error if a catch-up steps another count.
CatchupResult measure_catchup(samples::Physics engine, int objects, int reps);

}  // namespace shoal::bench
