// SPDX-License-Identifier: MIT
// Part 4 of shoal-bench-sync: what answering the region queries of every controlled body costs
// per frame with a linear scan (the authority layer's way), a hashed grid and a tree of
// bounding volumes, each rebuilding its index every frame, on the bench
// arena driven by its bots.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace shoal::bench {

/// One method's median per-frame cost (us); a phase it does not time apart is negative.
struct MethodCost {
  std::string method;
  double rebuild_us = 0, core_us = -1, simulated_us = -1, contact_us = -1, together_us = -1;
  double total_us = 0;
  double ratio = 0;  ///< median over frames of total / the fused scan's total
};

struct SpatialCost {
  int objects = 0, controlled = 0, frames = 0, rounds = 0;
  double moving = 0;  ///< bodies not at rest, mean per measured frame
  /// Mean bodies found per controlled body and frame by each query.
  double core_found = 0, simulated_found = 0, contact_found = 0;
  std::vector<MethodCost> methods;  ///< the fused scan first
};

/// Runs the arena with `controlled` bot-driven balls for a warm-up, then times `frames` frames,
/// each method `rounds` times per frame, alternating. Throws std::runtime_error when the scan,
/// the grid and the tree find different sets, or RegionBuilder's regions are not within them.
SpatialCost measure_spatial_cost(int objects, int controlled, int frames, int rounds);

/// Measures and prints part 4 for every world size and ball count given, as a table.
std::vector<SpatialCost> print_spatial_costs(const std::vector<int>& objects, const std::vector<int>& balls);
/// Writes the figures as the JSON array of key "spatial_index" (key included, comma after).
void write_spatial_json(std::ostream& out, const std::vector<SpatialCost>& results);

}  // namespace shoal::bench
