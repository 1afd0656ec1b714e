// SPDX-License-Identifier: MIT
#include "session/frame_clock.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace shoal::session {
namespace {

void require(bool ok, const std::string& what) {
  if (!ok) throw std::invalid_argument("FrameClockConfig: " + what);
}

}  // namespace

FrameClock::FrameClock(const FrameClockConfig& config, std::int64_t start_us, Frame start_frame)
    : config_(config),
      tick_us_(0),
      last_us_(start_us),
      timeline_(static_cast<double>(start_frame)),
      current_frame_(start_frame) {
  require(std::isfinite(config.tick_hz) && config.tick_hz > 0 && config.tick_hz <= 10000,
          "tick_hz must be in (0, 10000], got " + std::to_string(config.tick_hz));
  require(config.max_catchup_frames_per_update >= 1 && config.max_catchup_frames_per_update <= 1000,
          "max_catchup_frames_per_update must be in 1..1000, got " +
              std::to_string(config.max_catchup_frames_per_update));
  require(std::isfinite(config.max_tick_stretch) && config.max_tick_stretch >= 0 &&
              config.max_tick_stretch <= 0.5,
          "max_tick_stretch must be in [0, 0.5] (a fraction of the tick), got " +
              std::to_string(config.max_tick_stretch));
  require(std::isfinite(config.correction_horizon_frames) && config.correction_horizon_frames >= 1,
          "correction_horizon_frames must be >= 1, got " +
              std::to_string(config.correction_horizon_frames));
  require(std::isfinite(config.resync_threshold_frames) && config.resync_threshold_frames >= 1,
          "resync_threshold_frames must be >= 1, got " +
              std::to_string(config.resync_threshold_frames));
  require(start_frame >= 0, "start_frame must be >= 0, got " + std::to_string(start_frame));
  tick_us_ = 1e6 / config.tick_hz;
}

int FrameClock::advance(std::int64_t now_us, std::optional<double> target_match_time, double pace) {
  const double elapsed_frames =
      static_cast<double>(std::max<std::int64_t>(0, now_us - last_us_)) / tick_us_ * pace;
  last_us_ = std::max(last_us_, now_us);
  tick_rate_ = pace;

  if (target_match_time && std::isfinite(*target_match_time)) {
    const double error = *target_match_time - (timeline_ + elapsed_frames);
    const bool first_target = !target_seen_;
    target_seen_ = true;
    if (error > config_.resync_threshold_frames) {
      timeline_ = *target_match_time;
      if (first_target) {
        // A joiner has no frames worth simulating yet: it starts at the match's present and
        // takes the state from the owners' snapshots.
        current_frame_ = static_cast<Frame>(std::floor(timeline_));
        ++jumps_;
        return 0;
      }
    } else {
      // Stretch this update's ticks toward the target, but never past it: after a long update
      // the bounded rate alone could overshoot a small error. A clock far ahead (the match was
      // slowed before this peer heard of it) waits frames, as GGPO's peers do, rather than
      // lead the others by seconds: its ticks may slow down to a stop, never run backwards.
      const double slowest = error < -config_.resync_threshold_frames ? -1.0 : -config_.max_tick_stretch;
      const double wanted = std::clamp(error / config_.correction_horizon_frames, slowest, config_.max_tick_stretch);
      const double correction =
          std::clamp(wanted * elapsed_frames, -std::fabs(error), std::fabs(error));
      timeline_ += elapsed_frames + correction;
      if (elapsed_frames > 0) tick_rate_ = pace * (1.0 + correction / elapsed_frames);
    }
  } else {
    timeline_ += elapsed_frames;
  }

  const int steps = std::min(backlog(), config_.max_catchup_frames_per_update);
  current_frame_ += steps;
  return steps;
}

double FrameClock::fraction() const {
  return std::clamp(timeline_ - static_cast<double>(current_frame_), 0.0, 1.0);
}

int FrameClock::backlog() const {
  const double due = std::floor(timeline_) - static_cast<double>(current_frame_);
  return due > 0 ? static_cast<int>(std::min(due, 1e9)) : 0;
}

double FrameClock::match_time_at(std::int64_t now_us) const {
  return timeline_ + static_cast<double>(std::max<std::int64_t>(0, now_us - last_us_)) / tick_us_ * tick_rate_;
}

}  // namespace shoal::session
