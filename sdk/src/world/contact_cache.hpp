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

class ContactCache {
 public:
  /// Remembers the solved contacts; `poses` are the poses the contacts were found at.
  void store(std::span<const SolverContact> contacts, std::span<const Pose> poses);
  /// Gives each new contact the impulses of the nearest remembered contact of the same pair.
  void warm(std::span<SolverContact> contacts, std::span<const Pose> poses) const;

  void clear() { entries_.clear(); }
  std::span<const CachedImpulse> entries() const { return entries_; }
  void assign(std::span<const CachedImpulse> entries) {
    entries_.assign(entries.begin(), entries.end());
  }

 private:
  std::vector<CachedImpulse> entries_;  // sorted by (a, b), then by contact order
};

}  // namespace shoal::world
