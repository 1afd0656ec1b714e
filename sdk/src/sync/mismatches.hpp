// SPDX-License-Identifier: MIT
// Owner frames that differed from this peer's own since the last correction: per body, the
// earliest such frame. The next update corrects them all at once, with one catch-up from the
// earliest (or a snap when that is too deep), so that many owner frames arriving in one update
// cost one re-simulation.
#pragma once

#include <algorithm>
#include <span>
#include <stdexcept>
#include <vector>

#include "shoal/simulation.hpp"
#include "shoal/types.hpp"

namespace shoal::sync {

class Mismatches {
 public:
  explicit Mismatches(std::size_t bodies) : since_(bodies, kNoFrame) { bodies_.reserve(bodies); }

  /// The owner's `frame` of `body` differs from this peer's.
  void note(BodyIndex body, Frame frame) {
    Frame& since = since_[body];
    if (since == kNoFrame) bodies_.push_back(body);
    if (since == kNoFrame || frame < since) since = frame;
  }

  bool empty() const { return bodies_.empty(); }
  std::span<const BodyIndex> bodies() const { return bodies_; }
  Frame since(BodyIndex body) const { return since_[body]; }

  /// The earliest mismatched frame of any body (not empty()).
  Frame earliest() const {
    Frame from = since_[bodies_.front()];
    for (BodyIndex b : bodies_) from = std::min(from, since_[b]);
    return from;
  }

  /// Forgets the bodies `corrected(body, since)` says it corrected.
  template <class Fn>
  void correct_each(Fn&& corrected) {
    std::erase_if(bodies_, [&](BodyIndex b) {
      if (!corrected(b, since_[b])) return false;
      since_[b] = kNoFrame;
      return true;
    });
  }

  void clear() {
    for (BodyIndex b : bodies_) since_[b] = kNoFrame;
    bodies_.clear();
  }

  /// Each listed body once, with a frame; every other body without. Throws std::logic_error.
  void validate() const {
    std::size_t with_frame = 0;
    for (Frame f : since_) with_frame += f != kNoFrame ? 1 : 0;
    if (with_frame != bodies_.size()) throw std::logic_error("Mismatches: list and frames disagree");
    for (BodyIndex b : bodies_) {
      if (b >= since_.size() || since_[b] == kNoFrame) throw std::logic_error("Mismatches: a listed body without a frame");
    }
  }

 private:
  std::vector<Frame> since_;  // per body; kNoFrame = no mismatch stands
  std::vector<BodyIndex> bodies_;
};

}  // namespace shoal::sync
