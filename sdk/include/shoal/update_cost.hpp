// SPDX-License-Identifier: MIT
// Where a peer's update() spends its time, phase by phase (PeerStats::cost).
#pragma once

#include <cstdint>

namespace shoal {

/// Where update() spent its time, summed since the peer was created (nanoseconds of the steady
/// clock; all zero unless PeerConfig::measure_update_cost). The fields partition update():
/// they add up to total_ns exactly. Physics, straight and re-simulated, is the Simulation's
/// step() and is taken out of the phase it ran in; every other field is Shoal's own work.
struct UpdateCost {
  std::uint64_t updates = 0;     ///< update() calls measured
  std::int64_t receive_ns = 0;   ///< draining the transport: decoding, comparing owner frames
  std::int64_t correct_ns = 0;   ///< applying overrides: catch-up bookkeeping, snaps
  std::int64_t step_ns = 0;      ///< recording stepped frames, quantising them, sync-test mode
  std::int64_t authority_ns = 0; ///< regions and ownership
  std::int64_t send_ns = 0;      ///< snapshots, acks and checksums
  std::int64_t present_ns = 0;   ///< smoothing and render interpolation
  std::int64_t session_ns = 0;   ///< membership, time sync and the rest
  std::int64_t physics_ns = 0;   ///< Simulation::step() of frames stepped for the first time
  std::int64_t resimulated_physics_ns = 0;  ///< Simulation::step() re-run by catch-up
  std::int64_t total_ns = 0;     ///< update() as a whole

  /// Shoal's own work: everything but the physics.
  std::int64_t sdk_ns() const {
    return receive_ns + correct_ns + step_ns + authority_ns + send_ns + present_ns + session_ns;
  }
};

}  // namespace shoal
