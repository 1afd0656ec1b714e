// SPDX-License-Identifier: MIT
// Bullet's overlapping pairs kept sorted by the two proxies' numbers (their creation order),
// instead of in the order they were found (Bullet's hashed cache).
//
// Bullet walks the pair array to merge bodies into islands and to run the narrow phase, and the
// order decides which island is solved first and which contact the solver meets first: bits of
// the result. A hashed cache's order records when each pair appeared and which pair was removed
// before it, which a catch-up from an earlier frame cannot reproduce. Sorted, the order depends
// only on which pairs exist: the same for a straight run and a catch-up, and for two peers.
#pragma once

#include <btBulletCollisionCommon.h>

namespace shoal::bullet {

class SortedPairCache final : public btOverlappingPairCache {
 public:
  /// A pair of proxy numbers, first < second.
  struct Key {
    int first = 0, second = 0;
    bool operator<(const Key& o) const { return first != o.first ? first < o.first : second < o.second; }
    bool operator==(const Key&) const = default;
  };

  /// Makes the pairs exactly `keys` (sorted, no duplicates): a pair in both keeps its collision
  /// algorithm (and so its contacts), one that is gone has its algorithm freed, a new one starts
  /// without. `proxy(n)` gives proxy number n.
  template <class ProxyOf>
  void replace_with(const btAlignedObjectArray<Key>& keys, ProxyOf&& proxy, btDispatcher* dispatcher);

  /// Removes every pair, freeing their algorithms.
  void clear(btDispatcher* dispatcher);
  /// Appends a pair (for rebuilding a saved frame in order: keys must come ascending).
  btBroadphasePair& append(btBroadphaseProxy& proxy0, btBroadphaseProxy& proxy1);

  static Key key_of(const btBroadphasePair& pair) {
    return {pair.m_pProxy0->m_uniqueId, pair.m_pProxy1->m_uniqueId};
  }

  // btOverlappingPairCache
  btBroadphasePair* getOverlappingPairArrayPtr() override { return held().size() ? &held()[0] : nullptr; }
  const btBroadphasePair* getOverlappingPairArrayPtr() const override {
    return held().size() ? &held()[0] : nullptr;
  }
  btBroadphasePairArray& getOverlappingPairArray() override { return held(); }
  void cleanOverlappingPair(btBroadphasePair& pair, btDispatcher* dispatcher) override;
  int getNumOverlappingPairs() const override { return held().size(); }
  bool needsBroadphaseCollision(btBroadphaseProxy* proxy0, btBroadphaseProxy* proxy1) const override;
  btOverlapFilterCallback* getOverlapFilterCallback() override { return filter_; }
  void cleanProxyFromPairs(btBroadphaseProxy* proxy, btDispatcher* dispatcher) override;
  void setOverlapFilterCallback(btOverlapFilterCallback* callback) override { filter_ = callback; }
  void processAllOverlappingPairs(btOverlapCallback* callback, btDispatcher* dispatcher) override;
  btBroadphasePair* findPair(btBroadphaseProxy* proxy0, btBroadphaseProxy* proxy1) override;
  bool hasDeferredRemoval() override { return false; }
  void setInternalGhostPairCallback(btOverlappingPairCallback* callback) override { ghost_ = callback; }
  void sortOverlappingPairs(btDispatcher*) override {}  // always sorted

  // btOverlappingPairCallback
  btBroadphasePair* addOverlappingPair(btBroadphaseProxy* proxy0, btBroadphaseProxy* proxy1) override;
  void* removeOverlappingPair(btBroadphaseProxy* proxy0, btBroadphaseProxy* proxy1, btDispatcher* dispatcher) override;
  void removeOverlappingPairsContainingProxy(btBroadphaseProxy* proxy, btDispatcher* dispatcher) override;

 private:
  int lower_bound(Key key) const;
  void erase_at(int index, btDispatcher* dispatcher);

  // Two arrays: replace_with builds the new pairs in the other one, then makes it current.
  btBroadphasePairArray arrays_[2];
  int current_ = 0;
  btBroadphasePairArray& held() { return arrays_[current_]; }
  const btBroadphasePairArray& held() const { return arrays_[current_]; }
  btOverlapFilterCallback* filter_ = nullptr;
  btOverlappingPairCallback* ghost_ = nullptr;  // ghost objects' pair callback, told of changes
};

template <class ProxyOf>
void SortedPairCache::replace_with(const btAlignedObjectArray<Key>& keys, ProxyOf&& proxy, btDispatcher* dispatcher) {
  btBroadphasePairArray& before = arrays_[current_];
  btBroadphasePairArray& after = arrays_[1 - current_];
  after.resize(0);
  int old = 0;
  auto drop = [&](btBroadphasePair& gone) {
    if (ghost_ != nullptr) ghost_->removeOverlappingPair(gone.m_pProxy0, gone.m_pProxy1, dispatcher);
    cleanOverlappingPair(gone, dispatcher);
  };
  for (int k = 0; k < keys.size(); ++k) {
    const Key key = keys[k];
    while (old < before.size() && key_of(before[old]) < key) drop(before[old++]);
    if (old < before.size() && key_of(before[old]) == key) {
      after.push_back(before[old++]);  // keeps its algorithm
    } else {
      btBroadphaseProxy& p0 = proxy(key.first);
      btBroadphaseProxy& p1 = proxy(key.second);
      after.push_back(btBroadphasePair(p0, p1));
      if (ghost_ != nullptr) ghost_->addOverlappingPair(&p0, &p1);
    }
  }
  while (old < before.size()) drop(before[old++]);
  current_ = 1 - current_;
}

}  // namespace shoal::bullet
