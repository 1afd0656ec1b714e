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
  shoal::Frame compare = 0;           ///< every peer reports its state at this frame
  /// A peer reports frame F once it is this far past F, so that owner frames for F sent by
  /// the others (delayed, lost and resent) have arrived; well inside the frame history.
  shoal::Frame report_delay = 20;

  double seconds_at(shoal::Frame frame) const { return static_cast<double>(frame) / tick_hz; }
};

inline Timeline timeline_for(const Options& options, float tick_hz) {
  auto frame_at = [&](double seconds) { return static_cast<shoal::Frame>(std::lround(seconds * tick_hz)); };
  Timeline t;
  t.tick_hz = tick_hz;
  t.sample_interval = frame_at(1);
  t.bots_stop = frame_at(options.seconds);
  t.compare = frame_at(options.seconds + options.settle_seconds);
  return t;
}

}  // namespace lan_match
