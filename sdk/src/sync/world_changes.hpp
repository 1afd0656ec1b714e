// SPDX-License-Identifier: MIT
// The timeline of existence: which spawn slot gains or loses a body at which frame. Like the
// input log it is replayed by every step, straight or re-simulated, so that a catch-up across
// a spawn or a removal recreates the same bodies, and a spawn heard late is stepped from its
// own frame.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "core/fixed_bytes.hpp"
#include "shoal/simulation.hpp"

namespace shoal::sync {

/// One body appearing in, or leaving, a spawn slot at a frame.
struct WorldChange {
  enum class Kind : std::uint8_t { remove = 0, spawn = 1 };  // removals go first in a frame
  Frame frame = kNoFrame;  // the first frame the change holds in
  Kind kind = Kind::spawn;
  BodyIndex body = 0;      // the spawn slot
  std::uint16_t type = 0;  // spawn: the body's type
  ObjectState state;       // spawn: its state at `frame`
  FixedBytes<kMaxSpawnBytes> bytes;  // spawn: the spawner's bytes (Simulation::add_body)

  // The order every peer applies a frame's changes in: removals first (so a slot freed and
  // filled in one frame works), then by slot. Slots are named by the spawner, so this order
  // does not depend on when each change arrived.
  static bool before(const WorldChange& a, const WorldChange& b) {
    if (a.frame != b.frame) return a.frame < b.frame;
    if (a.kind != b.kind) return a.kind < b.kind;
    return a.body < b.body;
  }
};

/// The changes of the frames a catch-up may still re-simulate, in application order. Holds at
/// most `capacity` changes (reserved up front: adding never allocates).
class WorldChanges {
 public:
  explicit WorldChanges(std::size_t capacity) : capacity_(capacity) { changes_.reserve(capacity); }

  /// Adds a change in its place. False, changing nothing, for a change of the same frame,
  /// kind and slot as one held, a negative frame, or when full.
  bool add(const WorldChange& change);
  /// The changes of frame f, in application order.
  std::span<const WorldChange> at(Frame f) const;
  /// Forgets the changes of frames before f (they can no longer be re-simulated).
  void forget_before(Frame f);
  void clear() { changes_.clear(); }
  std::size_t size() const { return changes_.size(); }
  std::size_t capacity() const { return capacity_; }
  std::span<const WorldChange> all() const { return changes_; }

 private:
  std::size_t capacity_;
  std::vector<WorldChange> changes_;  // sorted by WorldChange::before
};

}  // namespace shoal::sync
