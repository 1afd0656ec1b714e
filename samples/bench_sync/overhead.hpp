// SPDX-License-Identifier: MIT
// Part 1 of shoal-bench-sync: the SDK's cost per simulated frame next to one physics step.
#pragma once

#include <cstddef>
#include <cstdint>

#include "bench_world.hpp"

namespace shoal::bench {

/// Render frames per timed block: each block gives one ratio, and the median is reported.
inline constexpr int kOverheadBlockFrames = 20;

/// One way of running the timed peer, measured in blocks of render frames.
struct OverheadFigures {
  int blocks = 0;
  double step_us = 0;  ///< median over blocks of the mean straight physics step
  double sdk_us = 0;   ///< median over blocks of the SDK's cost per simulated frame
  double ratio = 0;    ///< median over blocks of sdk / step
  double ratio_low = 0, ratio_high = 0;  ///< the blocks' quartiles
  double update_us = 0;  ///< median over blocks of update() per simulated frame, physics included
};

/// What Peer::record costs the timed peer, alone: update() per simulated frame with recording
/// off and on (medians of alternating runs), and the recording's size.
struct RecordingCost {
  bool measured = false;
  double update_us_off = 0, update_us_on = 0;
  double share = 0;        ///< (on - off) / off
  double bytes_per_s = 0;  ///< of match time
};

/// The alone run's update() by phase (PeerStats::cost), in microseconds per simulated frame:
/// where the SDK's time goes, and the physics steps for comparison.
struct PhaseCosts {
  double receive_us = 0, correct_us = 0, step_us = 0, authority_us = 0, send_us = 0,
         present_us = 0, session_us = 0;
  double physics_us = 0, resimulated_physics_us = 0;
  double sdk_us() const {
    return receive_us + correct_us + step_us + authority_us + send_us + present_us + session_us;
  }
};

/// What securing the links cost the timed peer in the shared run (every peer's links are
/// secured, as over ENet by default): the time its calls into the transport spent in the
/// security layer (sealing, opening, the handshakes), timed above and below that layer.
struct SecurityCost {
  double security_us = 0;       ///< per simulated frame, in the security layer
  double update_us_secured = 0;  ///< update() per simulated frame, as run
  double update_us_clear = 0;   ///< the same without the security layer's time
  double share = 0;             ///< security_us / update_us_secured
  double messages_per_frame = 0;  ///< sealed or opened per simulated frame
};

struct OverheadResult {
  samples::Physics physics = samples::Physics::reference;
  int objects = 0, peers = 0, frames = 0;
  int input_delay_frames = 0;  ///< every peer's PeerConfig::input_delay_frames
  bool freeze_outside_simulated_region = true;  ///< every peer's PeerConfig field of that name
  bool restore_contacts = true;  ///< the adapters restored contacts (see WorldSpec)
  /// All peers in this process, updated one after the other on one thread: the timed peer
  /// starts each update with the caches full of the other peers' worlds.
  OverheadFigures shared;
  /// The same peer run again alone in the process, fed what its transport delivered in the
  /// shared run (same inputs, same times, same work: checked), as with one peer per machine.
  OverheadFigures alone;
  double overrides_per_s = 0, catchup_frames_per_s = 0, ownership_changes_per_s = 0;
  double snaps_per_s = 0;
  std::size_t owned_objects = 0;
  double live_spawned = 0;   ///< spawned objects the timed peer held, mean over the timed frames
  double spawns_per_s = 0;   ///< spawns it applied, its own and the others'
  double kbps_out = 0, kbps_in = 0;  ///< the timed peer's links, summed, at the end of the shared run
  /// Heap the timed peer holds per body (balls and objects), alone: what its construction and
  /// its first frames allocated (history, owner frames, links, per-body columns).
  double bytes_per_object = 0;
  PhaseCosts phases;  ///< the alone run again, with the peer timing its phases
  RecordingCost recording;  ///< when asked for
  SecurityCost security;
};

/// Plays a bot match of spec.balls peers over spec.objects objects on spec.physics on the
/// in-process network (latency, jitter and loss, so that overrides, catch-ups and ownership
/// changes happen) and times peer 1 for `frames` render frames, shared and alone (and alone
/// once more, split by phase). Every peer's settings come from the spec (input delay,
/// freezing, projectiles). With `recording`, the alone run is repeated with the peer recording
/// itself and without, alternately. A world with spawn slots is timed shared only (a recording
/// does not hold spawns: no alone run, no phases). Throws std::runtime_error when the peers do not connect or the replay
/// diverges.
OverheadResult measure_overhead(const WorldSpec& spec, int frames, std::uint64_t seed, bool recording = false);

}  // namespace shoal::bench
