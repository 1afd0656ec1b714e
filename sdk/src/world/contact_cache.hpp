// SPDX-License-Identifier: MIT
// Impulses of the last step's contacts, carried into the next step (warm starting). Without
// it the solver's leftover error each step makes stacks creep and twist; with it a resting
// stack converges over a few steps and stays put. The cache is engine-private state, so the
// reference physics saves it per frame for restore().
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "world/contact_solver.hpp"

namespace shoal::world {

struct CachedImpulse {
  BodyIndex a = 0;
  BodyIndex b = 0;
  Vec3 local_point;  // in body a's frame, so it follows a as it moves
  float normal = 0, tangent1 = 0, tangent2 = 0;
  std::uint32_t order = 0;  // position among the stored contacts: a total, repeatable order
};

/// The impulses of the newest step, and those of up to `frames` saved frames, for restore.
/// Saving a frame keeps the newest step's buffer as that frame's and restoring one makes its
/// buffer the newest again: nothing is copied either way (a pile of awake boxes holds
/// thousands of contacts, and a peer saves every frame it steps).
class ContactCache {
 public:
  explicit ContactCache(std::size_t frames = 0);

  /// Remembers the solved contacts; `poses` are the poses the contacts were found at.
  void store(std::span<const SolverContact> contacts, std::span<const Pose> poses);
  /// Gives each new contact the impulses of the nearest remembered contact of the same pair.
  void warm(std::span<SolverContact> contacts, std::span<const Pose> poses) const;

  /// Keeps the newest impulses as those of ring slot `slot` (< frames).
  void save(std::size_t slot);
  /// Makes slot's impulses the newest again.
  void restore(std::size_t slot);
  /// Forgets the newest impulses (saved slots are left as they are).
  void clear();

 private:
  // buffers_[slots_[i]] holds ring slot i's impulses; buffers_[spare_] belongs to no slot, and
  // the next store() writes it. current_ is the buffer the newest impulses are in.
  std::vector<std::vector<CachedImpulse>> buffers_;  // sorted by (a, b), then by contact order
  std::vector<std::size_t> slots_;
  std::size_t spare_ = 0;
  std::size_t current_ = 0;
};

}  // namespace shoal::world
