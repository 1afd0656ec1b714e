// SPDX-License-Identifier: MIT
// The fixed-step frame clock of one peer, kept on the shared match timeline.
//
// The host's clock defines the timeline (frame 0 at its start). Every other peer feeds the
// target from TimeSync into advance() and follows it:
// - small errors are corrected by running ticks slightly faster or slower (bounded stretch),
//   never by running time backwards or repeating a frame; a clock ahead by more than the
//   resync threshold waits (its ticks slow down as far as to a stop) until it is within it;
// - the very first target may move a joining peer forward in one jump (it has no history to
//   preserve), never backwards: a peer ahead of the target slows down, or waits when it is
//   ahead by more than the resync threshold (the match's pace can drop faster than a 5% stretch follows);
// - later, a peer found far behind moves its timeline forward and simulates the missed frames
//   at most max_catchup_frames_per_update at a time, like after a hitch, so the cost of one
//   update stays bounded (no spiral of death).
// Time is injected (microseconds of the peer's local monotonic clock), so it runs in tests
// without real time.
#pragma once

#include <cstdint>
#include <optional>

#include "shoal/types.hpp"

namespace shoal::session {

struct FrameClockConfig {
  double tick_hz = 60.0;
  int max_catchup_frames_per_update = 4;
  /// Largest relative change of the tick rate used to correct drift (0.05 = +-5%).
  double max_tick_stretch = 0.05;
  /// The drift correction removes an error over roughly this many frames (proportional gain
  /// 1/horizon, then clamped by max_tick_stretch).
  double correction_horizon_frames = 20.0;
  /// Errors larger than this (frames) are not stretched away: the first target jumps to it,
  /// a later one behind us is caught up frame by frame.
  double resync_threshold_frames = 3.0;
};

class FrameClock {
 public:
  /// Starts the timeline at `start_frame` at local time `start_us`.
  /// Throws std::invalid_argument when the config is unusable.
  FrameClock(const FrameClockConfig& config, std::int64_t start_us, Frame start_frame = 0);

  /// Moves the clock to local time `now_us` and returns how many frames to simulate now
  /// (0..max_catchup_frames_per_update). `target_match_time` is where the match timeline is
  /// now according to TimeSync; the host passes nothing. `pace` is the match's rate (frames
  /// per tick of real time, session/pace.hpp): the timeline runs that fast, plus any
  /// correction toward the target. A `now_us` earlier than the previous call is treated as no
  /// time passing.
  int advance(std::int64_t now_us, std::optional<double> target_match_time = std::nullopt, double pace = 1.0);

  /// The newest frame the game has been told to simulate.
  Frame current_frame() const { return current_frame_; }
  /// Render alpha between the previous and the current frame, 0..1.
  double fraction() const;
  /// Where this clock's timeline is (frames): current_frame() + fraction() unless frames are
  /// still to be caught up. This is what a pong reports.
  double match_time() const { return timeline_; }
  /// Where the timeline is at local time `now_us` (not before the last advance), at the last
  /// advance's rate: how old a frame is, without advancing the clock.
  double match_time_at(std::int64_t now_us) const;
  /// Tick rate used by the last advance relative to nominal (1.0 = no stretch, no slower pace).
  double tick_rate() const { return tick_rate_; }
  /// True once a target has been applied. The host, which defines the timeline, needs none.
  bool synchronized() const { return target_seen_; }
  /// Forward jumps taken when the first target arrived (0 or 1).
  int jumps() const { return jumps_; }
  /// Frames still to be simulated on later updates.
  int backlog() const;
  const FrameClockConfig& config() const { return config_; }

 private:
  FrameClockConfig config_;
  double tick_us_;
  std::int64_t last_us_;
  double timeline_;  ///< continuous match time in frames
  Frame current_frame_;
  double tick_rate_ = 1.0;
  bool target_seen_ = false;
  int jumps_ = 0;
};

}  // namespace shoal::session
