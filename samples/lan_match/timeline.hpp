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
  /// With --projectiles (else kNoFrame): owners hold their projectiles' removals from bots_stop
  /// until this frame, so that the settled world is compared with its projectiles at rest in it
  /// (a live set that changes within report_delay of a sample cannot be compared). By then
  /// every lifetime has passed (Options: settle >= lifetime); the owners remove them all.
  shoal::Frame removals_resume = shoal::kNoFrame;
  /// ... and every peer reports its live set once more at this frame, when every removal has
  /// reached it: the live count must be back to the fixed bodies.
  shoal::Frame after_lifetimes = shoal::kNoFrame;

  double seconds_at(shoal::Frame frame) const { return static_cast<double>(frame) / tick_hz; }
  shoal::Frame last_compare() const { return compare + settle_checks * sample_interval; }
  /// The frame of every peer's final sample.
  shoal::Frame final_frame() const { return after_lifetimes != shoal::kNoFrame ? after_lifetimes : last_compare(); }
  /// Whether an owner may remove its projectiles at `frame`.
  bool removing(shoal::Frame frame) const {
    return frame < bots_stop || removals_resume == shoal::kNoFrame || frame >= removals_resume;
  }
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
  if (options.projectiles > 0) {
    // Half a second past the last sample taken, so no peer (its clock a little behind) takes
    // one after a removal; then three seconds for the removals to reach every peer.
    t.removals_resume = t.last_compare() + t.report_delay + frame_at(0.5);
    t.after_lifetimes = t.last_compare() + 3 * t.sample_interval;
  }
  return t;
}

}  // namespace lan_match
