// SPDX-License-Identifier: MIT
// A Bullet broad phase whose pairs are a function of the bodies' current boxes alone.
//
// Bullet's own broad phases remember: the dynamic-tree one keeps enlarged boxes and removes pairs
// that stopped overlapping a few at a time over later frames, and the order of everything
// depends on the order things moved. Pairs decide which bodies share an island (so fall asleep
// together), so such history reaches the simulation, and no catch-up can put it back. This one
// finds, every step, exactly the pairs whose boxes overlap (sweep and prune along x), and hands
// them to a SortedPairCache.
#pragma once

#include <memory>
#include <vector>

#include "sorted_pair_cache.hpp"

namespace shoal::bullet {

class SweepBroadphase final : public btBroadphaseInterface {
 public:
  SweepBroadphase();
  ~SweepBroadphase() override;
  SweepBroadphase(const SweepBroadphase&) = delete;
  SweepBroadphase& operator=(const SweepBroadphase&) = delete;

  /// Proxy number n (numbers are given in creation order, from 0); nullptr once destroyed.
  btBroadphaseProxy* proxy(int number) const {
    return number >= 0 && static_cast<std::size_t>(number) < proxies_.size() ? proxies_[static_cast<std::size_t>(number)].get() : nullptr;
  }
  SortedPairCache& pairs() { return pairs_; }

  btBroadphaseProxy* createProxy(const btVector3& aabbMin, const btVector3& aabbMax, int shapeType, void* userPtr,
                                 int collisionFilterGroup, int collisionFilterMask, btDispatcher* dispatcher) override;
  void destroyProxy(btBroadphaseProxy* proxy, btDispatcher* dispatcher) override;
  void setAabb(btBroadphaseProxy* proxy, const btVector3& aabbMin, const btVector3& aabbMax, btDispatcher*) override;
  void getAabb(btBroadphaseProxy* proxy, btVector3& aabbMin, btVector3& aabbMax) const override;
  void rayTest(const btVector3& rayFrom, const btVector3& rayTo, btBroadphaseRayCallback& rayCallback,
               const btVector3& aabbMin, const btVector3& aabbMax) override;
  void aabbTest(const btVector3& aabbMin, const btVector3& aabbMax, btBroadphaseAabbCallback& callback) override;
  void calculateOverlappingPairs(btDispatcher* dispatcher) override;
  btOverlappingPairCache* getOverlappingPairCache() override { return &pairs_; }
  const btOverlappingPairCache* getOverlappingPairCache() const override { return &pairs_; }
  void getBroadphaseAabb(btVector3& aabbMin, btVector3& aabbMax) const override;
  void printStats() override {}

 private:
  struct ProxyDeleter {
    void operator()(btBroadphaseProxy* p) const;
  };
  std::vector<std::unique_ptr<btBroadphaseProxy, ProxyDeleter>> proxies_;  // by number
  std::vector<int> order_;                                          // live numbers by min x
  btAlignedObjectArray<SortedPairCache::Key> found_;                // this step's pairs
  SortedPairCache pairs_;
};

}  // namespace shoal::bullet
