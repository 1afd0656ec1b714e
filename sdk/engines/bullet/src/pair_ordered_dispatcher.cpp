// SPDX-License-Identifier: MIT
#include "pair_ordered_dispatcher.hpp"

namespace shoal::bullet {

void PairOrderedDispatcher::dispatchAllCollisionPairs(btOverlappingPairCache* pairs, const btDispatcherInfo& info,
                                                      btDispatcher* dispatcher) {
  btCollisionDispatcher::dispatchAllCollisionPairs(pairs, info, dispatcher);
  order_manifolds(*pairs);
}

void PairOrderedDispatcher::order_manifolds(btOverlappingPairCache& pairs) {
  constexpr int kTaken = -1;  // m_index1a of a manifold already placed, until renumbered below
  ordered_.resize(0);
  btBroadphasePair* pair = pairs.getOverlappingPairArrayPtr();
  for (int i = 0; i < pairs.getNumOverlappingPairs(); ++i) {
    if (pair[i].m_algorithm == nullptr) continue;
    of_pair_.resize(0);
    pair[i].m_algorithm->getAllContactManifolds(of_pair_);
    for (int m = 0; m < of_pair_.size(); ++m) {
      ordered_.push_back(of_pair_[m]);
      of_pair_[m]->m_index1a = kTaken;
    }
  }
  for (int m = 0; m < m_manifoldsPtr.size(); ++m) {
    if (m_manifoldsPtr[m]->m_index1a != kTaken) ordered_.push_back(m_manifoldsPtr[m]);
  }
  if (ordered_.size() != m_manifoldsPtr.size()) {  // a manifold listed twice: leave the order be
    for (int m = 0; m < m_manifoldsPtr.size(); ++m) m_manifoldsPtr[m]->m_index1a = m;
    return;
  }
  for (int m = 0; m < ordered_.size(); ++m) {
    m_manifoldsPtr[m] = ordered_[m];
    m_manifoldsPtr[m]->m_index1a = m;  // releaseManifold finds it by this
  }
}

}  // namespace shoal::bullet
