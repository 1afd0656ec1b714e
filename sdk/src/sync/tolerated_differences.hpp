// SPDX-License-Identifier: MIT
// Owner frames that differ from this peer's own only within the compare tolerances
// (CompareTolerance with exact off). Such a difference is invisible and not worth a catch-up of
// its own: any catch-up injects every owner frame from its start on, so the next one, which a
// busy scene brings within a few frames, corrects it for free. Left alone, though, it would
// stand for as long as the object moves (a drifting crate never comes to rest to be compared
// bit for bit), so one that no catch-up has corrected for a while is corrected by one of its
// own. Per body: since when a difference has stood, and the newest frame that showed one.
#pragma once

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "shoal/simulation.hpp"
#include "shoal/types.hpp"

namespace shoal::sync {

class ToleratedDifferences {
 public:
  explicit ToleratedDifferences(std::size_t bodies) : since_(bodies, kNoFrame), newest_(bodies, kNoFrame) {
    bodies_.reserve(bodies);
  }

  /// The owner's `frame` of `body` agreed with this peer's only within tolerance.
  void note(BodyIndex body, Frame frame) {
    if (since_[body] == kNoFrame) {
      since_[body] = frame;
      bodies_.push_back(body);
    }
    since_[body] = std::min(since_[body], frame);
    newest_[body] = std::max(newest_[body], frame);
  }

  /// The owner's `frame` of `body` agreed bit for bit: differences seen up to it are gone.
  void confirmed(BodyIndex body, Frame frame) {
    if (since_[body] != kNoFrame && frame >= newest_[body]) forget(body);
  }

  /// A catch-up from `from` injected every owner frame it holds from there on: a body whose
  /// newest difference is at or after `from` now follows its owner's frames.
  void caught_up(Frame from) {
    std::erase_if(bodies_, [&](BodyIndex b) { return newest_[b] >= from && reset(b); });
  }

  /// Hands fn(body, newest frame with a difference) every body whose difference has stood
  /// since `before` or earlier and whose newest difference is at or after `newest_from` (an
  /// older one would take a catch-up deeper than is allowed: it waits for a newer owner
  /// frame), and forgets them.
  template <class Fn>
  void take_overdue(Frame before, Frame newest_from, Fn&& fn) {
    std::erase_if(bodies_, [&](BodyIndex b) {
      if (since_[b] > before || newest_[b] < newest_from) return false;
      fn(b, newest_[b]);
      return reset(b);
    });
  }

  void forget(BodyIndex body) {
    if (since_[body] == kNoFrame) return;
    reset(body);
    std::erase(bodies_, body);
  }
  void clear() {
    for (BodyIndex b : bodies_) reset(b);
    bodies_.clear();
  }

  bool empty() const { return bodies_.empty(); }
  std::size_t size() const { return bodies_.size(); }

  /// Each listed body once, with a difference since no later than its newest; every other body
  /// without one. Throws std::logic_error.
  void validate() const {
    std::size_t standing = 0;
    for (Frame f : since_) standing += f != kNoFrame ? 1 : 0;
    if (standing != bodies_.size()) throw std::logic_error("ToleratedDifferences: list and frames disagree");
    for (BodyIndex b : bodies_) {
      if (b >= since_.size() || since_[b] == kNoFrame || newest_[b] < since_[b]) {
        throw std::logic_error("ToleratedDifferences: a listed body without a standing difference");
      }
    }
  }

 private:
  bool reset(BodyIndex body) {
    since_[body] = kNoFrame;
    newest_[body] = kNoFrame;
    return true;
  }

  std::vector<Frame> since_, newest_;  // per body; kNoFrame = no difference stands
  std::vector<BodyIndex> bodies_;      // the bodies with one, each once
};

}  // namespace shoal::sync
