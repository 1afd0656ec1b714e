// SPDX-License-Identifier: MIT
#include "sorted_pair_cache.hpp"

namespace shoal::bullet {

int SortedPairCache::lower_bound(Key key) const {
  int low = 0, high = held().size();
  while (low < high) {
    const int middle = low + (high - low) / 2;
    if (key_of(held()[middle]) < key) {
      low = middle + 1;
    } else {
      high = middle;
    }
  }
  return low;
}

void SortedPairCache::cleanOverlappingPair(btBroadphasePair& pair, btDispatcher* dispatcher) {
  if (pair.m_algorithm == nullptr || dispatcher == nullptr) return;
  pair.m_algorithm->~btCollisionAlgorithm();
  dispatcher->freeCollisionAlgorithm(pair.m_algorithm);
  pair.m_algorithm = nullptr;
}

void SortedPairCache::clear(btDispatcher* dispatcher) {
  for (int i = 0; i < held().size(); ++i) {
    if (ghost_ != nullptr) ghost_->removeOverlappingPair(held()[i].m_pProxy0, held()[i].m_pProxy1, dispatcher);
    cleanOverlappingPair(held()[i], dispatcher);
  }
  held().resize(0);
}

btBroadphasePair& SortedPairCache::append(btBroadphaseProxy& proxy0, btBroadphaseProxy& proxy1) {
  held().push_back(btBroadphasePair(proxy0, proxy1));
  if (ghost_ != nullptr) ghost_->addOverlappingPair(&proxy0, &proxy1);
  return held()[held().size() - 1];
}

bool SortedPairCache::needsBroadphaseCollision(btBroadphaseProxy* proxy0, btBroadphaseProxy* proxy1) const {
  if (filter_ != nullptr) return filter_->needBroadphaseCollision(proxy0, proxy1);
  return (proxy0->m_collisionFilterGroup & proxy1->m_collisionFilterMask) != 0 &&
         (proxy1->m_collisionFilterGroup & proxy0->m_collisionFilterMask) != 0;
}

void SortedPairCache::erase_at(int index, btDispatcher* dispatcher) {
  btBroadphasePair& pair = held()[index];
  if (ghost_ != nullptr) ghost_->removeOverlappingPair(pair.m_pProxy0, pair.m_pProxy1, dispatcher);
  cleanOverlappingPair(pair, dispatcher);
  for (int i = index + 1; i < held().size(); ++i) held()[i - 1] = held()[i];
  held().pop_back();
}

void SortedPairCache::cleanProxyFromPairs(btBroadphaseProxy* proxy, btDispatcher* dispatcher) {
  for (int i = 0; i < held().size(); ++i) {
    if (held()[i].m_pProxy0 == proxy || held()[i].m_pProxy1 == proxy) cleanOverlappingPair(held()[i], dispatcher);
  }
}

void SortedPairCache::processAllOverlappingPairs(btOverlapCallback* callback, btDispatcher* dispatcher) {
  for (int i = 0; i < held().size();) {
    if (callback->processOverlap(held()[i])) {
      erase_at(i, dispatcher);  // the next pair moved into slot i
    } else {
      ++i;
    }
  }
}

btBroadphasePair* SortedPairCache::findPair(btBroadphaseProxy* proxy0, btBroadphaseProxy* proxy1) {
  const btBroadphasePair probe(*proxy0, *proxy1);  // orders the two by number
  const Key key = key_of(probe);
  const int at = lower_bound(key);
  return at < held().size() && key_of(held()[at]) == key ? &held()[at] : nullptr;
}

btBroadphasePair* SortedPairCache::addOverlappingPair(btBroadphaseProxy* proxy0, btBroadphaseProxy* proxy1) {
  if (!needsBroadphaseCollision(proxy0, proxy1)) return nullptr;
  const btBroadphasePair added(*proxy0, *proxy1);
  const Key key = key_of(added);
  const int at = lower_bound(key);
  if (at < held().size() && key_of(held()[at]) == key) return &held()[at];
  held().push_back(added);
  for (int i = held().size() - 1; i > at; --i) held()[i] = held()[i - 1];
  held()[at] = added;
  if (ghost_ != nullptr) ghost_->addOverlappingPair(proxy0, proxy1);
  return &held()[at];
}

void* SortedPairCache::removeOverlappingPair(btBroadphaseProxy* proxy0, btBroadphaseProxy* proxy1, btDispatcher* dispatcher) {
  btBroadphasePair* pair = findPair(proxy0, proxy1);
  if (pair == nullptr) return nullptr;
  void* user_info = pair->m_internalInfo1;
  erase_at(static_cast<int>(pair - &held()[0]), dispatcher);
  return user_info;
}

void SortedPairCache::removeOverlappingPairsContainingProxy(btBroadphaseProxy* proxy, btDispatcher* dispatcher) {
  for (int i = 0; i < held().size();) {
    if (held()[i].m_pProxy0 == proxy || held()[i].m_pProxy1 == proxy) {
      erase_at(i, dispatcher);
    } else {
      ++i;
    }
  }
}

}  // namespace shoal::bullet
