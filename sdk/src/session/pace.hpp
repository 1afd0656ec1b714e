// SPDX-License-Identifier: MIT
// The match's pace: how fast its timeline runs against real time, slowed when a peer cannot
// keep up, as GGPO's wait frames do, so that an overloaded machine plays a slower match
// instead of spiralling (a peer behind the timeline sends old frames, whose overrides cost
// the others catch-ups, which put them behind in turn).
//
// The host's clock defines the timeline. Its local time, counted in frames at the nominal
// rate ("wall" frames), runs at one frame per tick whatever the pace; the match frame is a
// piecewise-linear function of it, one PaceSegment at a time. Time sync estimates the host's
// wall time (a quantity that never changes rate, so its samples stay comparable), and every
// peer maps it through the newest segment it has heard of, which pongs carry. A rate change
// starts a new segment at the current point, so the timeline never jumps.
//
// The host alone decides the pace (PaceController), from the lag each peer reports in its
// pongs: the frames it was due to simulate and had not yet. Multiplicative decrease while
// someone lags, additive increase once nobody has for a while.
#pragma once

#include <cstdint>
#include <vector>

#include "shoal/peer_config.hpp"
#include "shoal/types.hpp"

namespace shoal::session {

/// From `wall` on (the host's wall frames), the match frame is match + (w - wall) * rate.
struct PaceSegment {
  double wall = 0;
  double match = 0;
  float rate = 1.0f;

  double match_at(double at_wall) const { return match + (at_wall - wall) * static_cast<double>(rate); }
  /// Segments only move forward: the newer of two is the one that starts later.
  bool newer_than(const PaceSegment& other) const { return wall > other.wall; }
};

/// The host's decision. Deterministic in its inputs (reports and times), so a recording
/// replays it.
class PaceController {
 public:
  /// Throws std::invalid_argument when the config is unusable.
  explicit PaceController(const PaceConfig& config = {});

  /// A peer's lag (frames due and not simulated) as of local time now_us; the host's own too.
  void report(PeerId peer, int lag_frames, std::int64_t now_us);
  void forget(PeerId peer);
  /// The rate the match should run at from now on (unchanged most calls).
  float decide(std::int64_t now_us);

  float rate() const { return rate_; }
  std::uint64_t slowdowns() const { return slowdowns_; }

 private:
  struct Report {
    PeerId peer;
    int lag_frames;
    std::int64_t at_us;
  };
  static constexpr std::int64_t kReportLifetimeUs = 1'000'000;  ///< older lag reports no longer count
  PaceConfig config_;
  std::vector<Report> reports_;
  float rate_ = 1.0f;
  std::int64_t last_change_us_ = -1;
  std::int64_t last_lag_us_ = -1;  ///< when someone last lagged
  std::uint64_t slowdowns_ = 0;
};

}  // namespace shoal::session
