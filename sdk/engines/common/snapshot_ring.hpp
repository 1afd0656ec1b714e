// SPDX-License-Identifier: MIT
// The engine-private state an adapter keeps per frame, for both adapters (Bullet, Box2D).
//
// Shoal calls save(F) right after stepping F, but then still writes bodies before stepping
// F + 1 (states quantised on both sides, owner frames injected): what a catch-up from F must
// reproduce is the engine as it entered step F + 1. So save(F) only marks F, and the adapter
// takes F's snapshot when the next step begins. A restore of the frame still marked needs
// nothing: the engine holds it, with every write since.
#pragma once

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "shoal/types.hpp"

namespace shoal::engines {

template <class Snapshot>
class SnapshotRing {
 public:
  /// Keeps the snapshots of the last `frames` frames (>= 1).
  explicit SnapshotRing(int frames) {
    if (frames < 1) {
      throw std::invalid_argument("history_frames is " + std::to_string(frames) +
                                  ", expected at least 1");
    }
    slots_.resize(static_cast<std::size_t>(frames));
    held_.assign(slots_.size(), kNoFrame);
  }

  /// save(frame): the snapshot is taken when the next step begins (take_marked).
  void mark(Frame frame) { marked_ = frame; }
  Frame marked() const { return marked_; }

  /// The marked frame's slot, to fill now, and forgets the mark; nullptr when none is marked.
  Snapshot* take_marked() {
    if (marked_ == kNoFrame) return nullptr;
    const std::size_t s = slot(marked_);
    held_[s] = marked_;
    marked_ = kNoFrame;
    return &slots_[s];
  }

  /// The snapshot of `frame`, or nullptr when it is not held (too old, or never taken).
  const Snapshot* find(Frame frame) const {
    const std::size_t s = slot(frame);
    return held_[s] == frame ? &slots_[s] : nullptr;
  }

  /// Forgets every snapshot and the mark (the world changed: saved frames would lack bodies).
  void clear() {
    held_.assign(held_.size(), kNoFrame);
    marked_ = kNoFrame;
  }

 private:
  std::size_t slot(Frame frame) const {
    const auto depth = static_cast<Frame>(slots_.size());
    return static_cast<std::size_t>(((frame % depth) + depth) % depth);
  }

  std::vector<Snapshot> slots_;  // reused: their buffers keep their capacity
  std::vector<Frame> held_;      // slot -> frame it holds
  Frame marked_ = kNoFrame;
};

}  // namespace shoal::engines
