// SPDX-License-Identifier: MIT
// The benchmark's targets, engine by engine, and part 5: the engines side by side.
#pragma once

#include <vector>

#include "catchup_cost.hpp"
#include "overhead.hpp"

namespace shoal::bench {

/// Frames of input delay in the second sweep of part 1: more than the 30 +- 5 ms one way.
inline constexpr int kBenchInputDelayFrames = 3;

/// One engine's figures against the targets: SDK overhead <= 10% of that engine's step at
/// 1,000 objects, and an 8-frame catch-up <= 1.1x 8 straight frames at every size.
struct EngineVerdict {
  samples::Physics physics = samples::Physics::reference;
  bool at_1000 = false;  ///< part 1 measured a 1,000-object world
  double worst_shared = 0, worst_alone = 0, worst_alone_delayed = 0;  ///< sdk / step there
  double step_us = 0;        ///< the straight step at 1,000 objects (alone, the most peers)
  double sdk_us = 0;         ///< the SDK's time per frame in that row
  double worst_catchup = 0;  ///< the largest catch-up ratio over the sizes measured
  bool catchup_measured = false;

  bool shared_met() const { return at_1000 && worst_shared <= 0.10; }
  bool alone_met() const { return at_1000 && worst_alone <= 0.10; }
  bool alone_delayed_met() const { return at_1000 && worst_alone_delayed <= 0.10; }
  bool catchup_met() const { return catchup_measured && worst_catchup <= 1.10; }
};

std::vector<EngineVerdict> judge(const std::vector<samples::Physics>& engines,
                                 const std::vector<OverheadResult>& overhead,
                                 const std::vector<CatchupResult>& catchup);

/// Part 5 and the targets line of each engine.
void print_verdicts(const std::vector<EngineVerdict>& verdicts, bool freeze);

}  // namespace shoal::bench
