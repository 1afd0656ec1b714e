// SPDX-License-Identifier: MIT
// Bullet's collision dispatcher, with its contact manifolds put in the order of their pairs
// after every narrow phase.
//
// Bullet lists manifolds in the order they were made, and fills the hole a released one
// leaves with the last: history again. The island builder hands them to the solver in that
// order, and the order of contacts changes the solver's bits. Following the (sorted) pairs,
// the order depends only on which pairs hold which manifolds.
#pragma once

#include <btBulletCollisionCommon.h>

namespace shoal::bullet {

class PairOrderedDispatcher final : public btCollisionDispatcher {
 public:
  using btCollisionDispatcher::btCollisionDispatcher;

  void dispatchAllCollisionPairs(btOverlappingPairCache* pairs, const btDispatcherInfo& info,
                                 btDispatcher* dispatcher) override;
  /// Puts the manifolds in the order of `pairs`' algorithms (each algorithm's own order);
  /// manifolds no pair owns keep their order, after those.
  void order_manifolds(btOverlappingPairCache& pairs);

 private:
  btManifoldArray of_pair_;                       // one algorithm's manifolds
  btAlignedObjectArray<btPersistentManifold*> ordered_;
};

}  // namespace shoal::bullet
