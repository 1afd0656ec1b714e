// SPDX-License-Identifier: MIT
// Part 7 of shoal-bench-sync: what an object spawned during play costs the SDK, next to a fixed
// body. The part 1 match (shared run) on the same world with spawn slots, once with the slots
// left empty and once with every bot firing projectiles into them, in turn.
#pragma once

#include "overhead.hpp"

namespace shoal::bench {

inline constexpr int kBenchProjectilesPerSecond = 20;  // per bot; each lives 3 s

struct ProjectileCost {
  int objects = 0, peers = 0, rate = 0, frames = 0, runs = 0;
  double sdk_us_without = 0, sdk_us_with = 0;    ///< shared sdk_us per simulated frame, medians over runs
  double step_us_without = 0, step_us_with = 0;  ///< the straight physics step, medians
  double catchup_frames_per_s_without = 0, catchup_frames_per_s_with = 0;  ///< the timed peer's, medians
  double live = 0;          ///< spawned objects the timed peer held, mean over the timed frames
  double spawns_per_s = 0;  ///< spawns it applied, its own and the others'
  double ns_per_body = 0;     ///< sdk_us_without per fixed body (balls and objects)
  double ns_per_spawned = 0;  ///< (sdk_us_with - sdk_us_without) per live spawned object
};

/// Runs the two matches `runs` times each, alternately (the machine's noise falls on both).
ProjectileCost measure_projectile_cost(int objects, int peers, int frames, int runs);
void print_projectile_cost(const ProjectileCost& cost);

}  // namespace shoal::bench
