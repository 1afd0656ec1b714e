// SPDX-License-Identifier: MIT
// Part 3 of shoal-bench-sync: what settling a step's moving states costs (the quantiser's part
// of every step, straight or re-simulated), one at a time and four at a time side by side.
#pragma once

namespace shoal::bench {

struct SettleCost {
  int states = 0, reps = 0;
  double one_at_a_time_ns = 0;   ///< median per state, Quantizer::settle_state in a loop
  double together_ns = 0;        ///< median per state, Quantizer::settle_states
  double ratio = 0;              ///< median of together / one at a time, rep by rep
};

/// Settles `states` moving states `reps` times each way, alternating. Throws
/// std::runtime_error if the two ways give different results (they must agree bit for bit).
SettleCost measure_settle_cost(int states, int reps);

}  // namespace shoal::bench
