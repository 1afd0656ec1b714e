// SPDX-License-Identifier: MIT
// The peer's part that corrects its frames towards their owners': the owner frames that
// differed since the last update (one catch-up from the earliest corrects them all, or a snap
// when that is too deep), and those that agreed only within tolerance (corrected later, by a
// catch-up of their own if none comes by). The tick drains both at the start of each update
// (peer_corrections.cpp); receiving owner frames only adds to them.
//
// Owns (per body): the earliest mismatched frame, the tolerated difference's first and newest
// frames, and the forensics that explain a disagreement (Peer::diagnose); the interpolator
// that bridges a snap's frames. Nothing else writes them.
#pragma once

#include "present/frame_interpolator.hpp"
#include "sync/body_forensics.hpp"
#include "sync/mismatches.hpp"
#include "sync/tolerated_differences.hpp"

namespace shoal {

struct Corrections {
  Corrections(std::size_t bodies, float tick_hz)
      : mismatched(bodies),
        tolerated(bodies),
        forensics(bodies),
        interpolator(present::InterpolatorConfig{1.0f / tick_hz, 0.5f}) {}

  /// Its invariants (the test build checks them every frame); throws std::logic_error.
  void validate() const {
    mismatched.validate();
    tolerated.validate();
  }

  sync::Mismatches mismatched;
  sync::ToleratedDifferences tolerated;
  sync::BodyForensics forensics;            // what explains a disagreement (Peer::diagnose)
  present::FrameInterpolator interpolator;  // snaps: extrapolate, and bridge the frames between
};

}  // namespace shoal
