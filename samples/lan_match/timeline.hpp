// SPDX-License-Identifier: MIT
// The frames a match is organised by. Frames are the shared match timeline (frame 0 is when
// the host started), so every peer, started by the launcher or by hand, agrees on them
// without being told.
#pragma once

#include <cmath>

#include "options.hpp"
#include "shoal/types.hpp"

namespace lan_match {

struct Timeline {
  float tick_hz = 60;
  shoal::Frame sample_interval = 60;  ///< a progress sample every second of match time
  shoal::Frame bots_stop = 0;         ///< bots push until this frame
  shoal::Frame compare = 0;           ///< every peer reports its state at this frame (a whole second)
  /// ... and at the next few seconds' frames, up to last_compare(): an object still rolling at
  /// `compare` outside some peer's simulated region is frozen there, by design, until it rests
  /// (nobody sends a peer moving objects it does not simulate), so the report compares at the
  /// first of these frames at which every peer sees every object at rest.
  int settle_checks = 3;
  /// A peer reports frame F once it is this far past F, so that owner frames for F sent by
  /// the others (delayed, lost and resent) have arrived; well inside the frame history.
  shoal::Frame report_delay = 20;

  double seconds_at(shoal::Frame frame) const { return static_cast<double>(frame) / tick_hz; }
  shoal::Frame last_compare() const { return compare + settle_checks * sample_interval; }
};

inline Timeline timeline_for(const Options& options, float tick_hz) {
  auto frame_at = [&](double seconds) { return static_cast<shoal::Frame>(std::lround(seconds * tick_hz)); };
  Timeline t;
  t.tick_hz = tick_hz;
  t.sample_interval = frame_at(1);
  t.bots_stop = frame_at(options.seconds);
  // On a whole second, where the progress samples are.
  const shoal::Frame settled = frame_at(options.seconds + options.settle_seconds);
  t.compare = (settled + t.sample_interval - 1) / t.sample_interval * t.sample_interval;
  return t;
}

}  // namespace lan_match
