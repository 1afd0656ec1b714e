// SPDX-License-Identifier: MIT
// Splits update()'s time into the phases of UpdateCost (PeerConfig::measure_update_cost).
//
// Laps: each lap() gives the time since the previous one to a phase, less the physics steps
// that ran within it, which the resimulator timed and which go to the physics fields. The laps
// follow one another from begin() to end(), so the phases add up to total_ns exactly.
#pragma once

#include <chrono>
#include <cstdint>

#include "shoal/peer.hpp"
#include "sync/resimulator.hpp"

namespace shoal {

class UpdateCostClock {
 public:
  using Phase = std::int64_t UpdateCost::*;

  UpdateCostClock(bool on, sync::Resimulator& resimulator) : on_(on), resimulator_(resimulator) {
    resimulator_.set_step_timing(on);
  }

  void begin() {
    if (!on_) return;
    update_start_ = lap_start_ = Clock::now();
  }
  void lap(Phase phase) {
    if (on_) lap_at(phase, Clock::now());
  }
  /// The rest of the update goes to session_ns.
  void end() {
    if (!on_) return;
    const Clock::time_point now = Clock::now();
    lap_at(&UpdateCost::session_ns, now);
    cost_.total_ns += nanoseconds(now - update_start_);
    ++cost_.updates;
  }

  const UpdateCost& cost() const { return cost_; }

 private:
  using Clock = std::chrono::steady_clock;
  static std::int64_t nanoseconds(Clock::duration d) {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(d).count();
  }

  void lap_at(Phase phase, Clock::time_point now) {
    const std::int64_t straight = resimulator_.straight_step_ns() - straight_seen_;
    const std::int64_t again = resimulator_.resimulated_step_ns() - resimulated_seen_;
    straight_seen_ += straight;
    resimulated_seen_ += again;
    cost_.physics_ns += straight;
    cost_.resimulated_physics_ns += again;
    cost_.*phase += nanoseconds(now - lap_start_) - straight - again;
    lap_start_ = now;
  }

  bool on_;
  sync::Resimulator& resimulator_;
  UpdateCost cost_;
  Clock::time_point update_start_, lap_start_;
  std::int64_t straight_seen_ = 0, resimulated_seen_ = 0;  // the resimulator's, at the last lap
};

}  // namespace shoal
