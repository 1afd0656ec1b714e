// SPDX-License-Identifier: MIT
// The peer's part that corrects its frames towards their owners': the owner frames that
// differed since the last update (one catch-up from the earliest corrects them all, or a snap
// when that is too deep), and those that agreed only within tolerance (corrected later, by a
// catch-up of their own if none comes by). The tick drains both at the start of each update
// (peer_corrections.cpp); receiving owner frames only adds to them.
//
// Owns (per body): the earliest mismatched frame, and the tolerated difference's first and
// newest frames. Nothing else writes them.
#pragma once

#include "sync/mismatches.hpp"
#include "sync/tolerated_differences.hpp"

namespace shoal {

struct Corrections {
  explicit Corrections(std::size_t bodies) : mismatched(bodies), tolerated(bodies) {}

  /// Its invariants (the test build checks them every frame); throws std::logic_error.
  void validate() const {
    mismatched.validate();
    tolerated.validate();
  }

  sync::Mismatches mismatched;
  sync::ToleratedDifferences tolerated;
};

}  // namespace shoal
