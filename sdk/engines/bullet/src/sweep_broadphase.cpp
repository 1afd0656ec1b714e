// SPDX-License-Identifier: MIT
#include "sweep_broadphase.hpp"

#include <algorithm>

namespace shoal::bullet {
namespace {

bool overlap(const btBroadphaseProxy& a, const btBroadphaseProxy& b) {
  return a.m_aabbMin.x() <= b.m_aabbMax.x() && a.m_aabbMax.x() >= b.m_aabbMin.x() &&
         a.m_aabbMin.y() <= b.m_aabbMax.y() && a.m_aabbMax.y() >= b.m_aabbMin.y() &&
         a.m_aabbMin.z() <= b.m_aabbMax.z() && a.m_aabbMax.z() >= b.m_aabbMin.z();
}

bool overlap(const btBroadphaseProxy& a, const btVector3& min, const btVector3& max) {
  return a.m_aabbMin.x() <= max.x() && a.m_aabbMax.x() >= min.x() && a.m_aabbMin.y() <= max.y() &&
         a.m_aabbMax.y() >= min.y() && a.m_aabbMin.z() <= max.z() && a.m_aabbMax.z() >= min.z();
}

}  // namespace

void SweepBroadphase::ProxyDeleter::operator()(btBroadphaseProxy* p) const { delete p; }

SweepBroadphase::SweepBroadphase() = default;

SweepBroadphase::~SweepBroadphase() = default;

btBroadphaseProxy* SweepBroadphase::createProxy(const btVector3& aabbMin, const btVector3& aabbMax, int /*shapeType*/,
                                                void* userPtr, int collisionFilterGroup, int collisionFilterMask,
                                                btDispatcher* /*dispatcher*/) {
  auto* proxy = new btBroadphaseProxy(aabbMin, aabbMax, userPtr, collisionFilterGroup, collisionFilterMask);
  proxy->m_uniqueId = static_cast<int>(proxies_.size());
  proxies_.emplace_back(proxy);
  order_.reserve(proxies_.size());
  return proxy;
}

void SweepBroadphase::destroyProxy(btBroadphaseProxy* proxy, btDispatcher* dispatcher) {
  pairs_.removeOverlappingPairsContainingProxy(proxy, dispatcher);
  proxies_.at(static_cast<std::size_t>(proxy->m_uniqueId)).reset();
}

void SweepBroadphase::setAabb(btBroadphaseProxy* proxy, const btVector3& aabbMin, const btVector3& aabbMax, btDispatcher*) {
  proxy->m_aabbMin = aabbMin;
  proxy->m_aabbMax = aabbMax;
}

void SweepBroadphase::getAabb(btBroadphaseProxy* proxy, btVector3& aabbMin, btVector3& aabbMax) const {
  aabbMin = proxy->m_aabbMin;
  aabbMax = proxy->m_aabbMax;
}

void SweepBroadphase::rayTest(const btVector3& /*rayFrom*/, const btVector3& /*rayTo*/, btBroadphaseRayCallback& rayCallback,
                              const btVector3& /*aabbMin*/, const btVector3& /*aabbMax*/) {
  // Every proxy: the callback tests the ray against the shape itself. Queries are rare here;
  // the step never casts rays.
  for (const auto& proxy : proxies_) {
    if (proxy != nullptr) rayCallback.process(proxy.get());
  }
}

void SweepBroadphase::aabbTest(const btVector3& aabbMin, const btVector3& aabbMax, btBroadphaseAabbCallback& callback) {
  for (const auto& proxy : proxies_) {
    if (proxy != nullptr && overlap(*proxy, aabbMin, aabbMax)) callback.process(proxy.get());
  }
}

void SweepBroadphase::calculateOverlappingPairs(btDispatcher* dispatcher) {
  order_.clear();
  for (const auto& proxy : proxies_) {
    if (proxy != nullptr) order_.push_back(proxy->m_uniqueId);
  }
  auto at = [&](int number) -> btBroadphaseProxy& { return *proxies_[static_cast<std::size_t>(number)]; };
  std::sort(order_.begin(), order_.end(), [&](int a, int b) {
    const btScalar xa = at(a).m_aabbMin.x(), xb = at(b).m_aabbMin.x();
    return xa != xb ? xa < xb : a < b;
  });
  found_.resize(0);
  for (std::size_t i = 0; i < order_.size(); ++i) {
    btBroadphaseProxy& a = at(order_[i]);
    for (std::size_t j = i + 1; j < order_.size(); ++j) {
      btBroadphaseProxy& b = at(order_[j]);
      if (b.m_aabbMin.x() > a.m_aabbMax.x()) break;  // and every later one
      if (!overlap(a, b) || !pairs_.needsBroadphaseCollision(&a, &b)) continue;
      found_.push_back({std::min(a.m_uniqueId, b.m_uniqueId), std::max(a.m_uniqueId, b.m_uniqueId)});
    }
  }
  found_.quickSort([](const SortedPairCache::Key& a, const SortedPairCache::Key& b) { return a < b; });
  pairs_.replace_with(found_, at, dispatcher);
}

void SweepBroadphase::getBroadphaseAabb(btVector3& aabbMin, btVector3& aabbMax) const {
  aabbMin.setValue(0, 0, 0);
  aabbMax.setValue(0, 0, 0);
  bool first = true;
  for (const auto& proxy : proxies_) {
    if (proxy == nullptr) continue;
    if (first) {
      aabbMin = proxy->m_aabbMin;
      aabbMax = proxy->m_aabbMax;
      first = false;
    } else {
      aabbMin.setMin(proxy->m_aabbMin);
      aabbMax.setMax(proxy->m_aabbMax);
    }
  }
}

}  // namespace shoal::bullet
