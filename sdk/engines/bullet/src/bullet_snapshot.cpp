// SPDX-License-Identifier: MIT
// BulletSimulation's save and restore: Bullet's private state of a frame (see snapshot_ring.hpp
// for why a frame is taken as the next step begins, adapter_core.hpp for when).
#include <BulletCollision/CollisionDispatch/btCollisionObjectWrapper.h>

#include <cstring>

#include "core/bitwise_equal.hpp"
#include "bullet_simulation_impl.hpp"

namespace shoal {

void BulletImpl::take_snapshot(bullet::Snapshot& s) {
  s.states.assign(table.states().begin(), table.states().end());
  s.bodies.resize(bodies.size());
  for (BodyIndex b = 0; b < bodies.size(); ++b) {
    const btRigidBody& body = *bodies[b];
    s.bodies[b] = {body.getActivationState(), body.getDeactivationTime(), table.frozen(b), kept[b]};
    if (empty_slot(b)) s.bodies[b] = {ISLAND_SLEEPING, 0, table.frozen(b), kept[b]};  // its parked body: no state
  }
  s.pairs.clear();
  s.manifold_points.clear();
  s.points.clear();
  const btBroadphasePairArray& pairs = parts.broadphase.pairs().getOverlappingPairArray();
  for (int i = 0; i < pairs.size(); ++i) {
    const btBroadphasePair& pair = pairs[i];
    bullet::Snapshot::Pair& record = s.pairs.emplace_back();
    record.first = pair.m_pProxy0->m_uniqueId;
    record.second = pair.m_pProxy1->m_uniqueId;
    if (pair.m_algorithm == nullptr) continue;
    manifolds_scratch.resize(0);
    pair.m_algorithm->getAllContactManifolds(manifolds_scratch);
    record.manifolds = manifolds_scratch.size();
    for (int k = 0; k < manifolds_scratch.size(); ++k) {
      const btPersistentManifold& manifold = *manifolds_scratch[k];
      s.manifold_points.push_back(manifold.getNumContacts());
      for (int p = 0; p < manifold.getNumContacts(); ++p) s.points.push_back(manifold.getContactPoint(p));
    }
  }
  s.solver_seed = parts.solver.getRandSeed();
}

void BulletImpl::restore_snapshot(const bullet::Snapshot& s) {
  for (BodyIndex b = 0; b < bodies.size(); ++b) {
    const bullet::Snapshot::Body& saved = s.bodies[b];
    const bool refrozen = saved.frozen != table.frozen(b);
    if (refrozen && saved.frozen) freeze(b);
    if (refrozen && !saved.frozen) thaw(b);
    if (empty_slot(b)) continue;  // a parked body: restoring which slots hold bodies is Shoal's
    kept[b] = saved.set_aside;
    if (restored.activation) {
      bodies[b]->forceActivationState(saved.activation);
      bodies[b]->setDeactivationTime(saved.deactivation_time);
    }
    // A body written otherwise than it was then (an owner's state) gets the write's effects on
    // what was just restored: asleep, or woken with a fresh timer.
    if (!core::bitwise_equal(table.state(b), s.states[b])) apply(b, table.state(b));
  }
  if (restored.contacts) {
    restore_pairs(s);
  } else {
    parts.broadphase.pairs().clear(&parts.dispatcher);
  }
  if (restored.solver_seed) parts.solver.setRandSeed(s.solver_seed);
}

void BulletImpl::restore_pairs(const bullet::Snapshot& s) {
  // Most pairs are as they were (bodies asleep, resting on the ground): only what differs is
  // touched. First the pairs themselves, in one merge: those in both keep their algorithms.
  bullet::SweepBroadphase& broadphase = parts.broadphase;
  saved_keys.resize(0);
  for (const bullet::Snapshot::Pair& saved : s.pairs) {
    if (broadphase.proxy(saved.first) != nullptr && broadphase.proxy(saved.second) != nullptr) {
      saved_keys.push_back({saved.first, saved.second});
    }
  }
  broadphase.pairs().replace_with(saved_keys, [&](int n) -> btBroadphaseProxy& { return *broadphase.proxy(n); },
                                  &parts.dispatcher);
  // Then each pair's algorithm and manifolds, where they differ from the saved ones.
  btBroadphasePair* pairs = broadphase.pairs().getOverlappingPairArrayPtr();
  int held = 0;
  std::size_t manifold = 0, point = 0;
  for (const bullet::Snapshot::Pair& saved : s.pairs) {
    btBroadphasePair* pair = nullptr;
    if (held < saved_keys.size() && saved_keys[held] == bullet::SortedPairCache::Key{saved.first, saved.second}) {
      pair = &pairs[held++];
    }
    if (saved.manifolds < 0) {
      if (pair != nullptr) broadphase.pairs().cleanOverlappingPair(*pair, &parts.dispatcher);
      continue;
    }
    manifolds_scratch.resize(0);
    if (pair != nullptr) collect_manifolds(*pair, saved.manifolds);
    for (int k = 0; k < saved.manifolds; ++k) {
      const int count = s.manifold_points[manifold++];
      if (k < manifolds_scratch.size()) set_points(*manifolds_scratch[k], &s.points[point], count);
      point += static_cast<std::size_t>(count);
    }
  }
  parts.dispatcher.order_manifolds(broadphase.pairs());
}

void BulletImpl::collect_manifolds(btBroadphasePair& pair, int wanted) {
  if (pair.m_algorithm == nullptr) {
    // The algorithm the narrow phase would make for this pair, holding its manifolds. The
    // narrow phase makes algorithms only for pairs with a body awake, and some make their
    // manifold only then (or only when first run, whose points set_points replaces): one body
    // is woken while it is made here.
    auto* object0 = static_cast<btCollisionObject*>(pair.m_pProxy0->m_clientObject);
    auto* object1 = static_cast<btCollisionObject*>(pair.m_pProxy1->m_clientObject);
    const btCollisionObjectWrapper wrap0(nullptr, object0->getCollisionShape(), object0,
                                         object0->getWorldTransform(), -1, -1);
    const btCollisionObjectWrapper wrap1(nullptr, object1->getCollisionShape(), object1,
                                         object1->getWorldTransform(), -1, -1);
    const int activation0 = object0->getActivationState();
    const bool wake = wanted > 0 && !object0->isActive() && !object1->isActive();
    if (wake) object0->forceActivationState(ACTIVE_TAG);
    pair.m_algorithm = parts.dispatcher.findAlgorithm(&wrap0, &wrap1, nullptr, BT_CONTACT_POINT_ALGORITHMS);
    if (pair.m_algorithm != nullptr) {
      pair.m_algorithm->getAllContactManifolds(manifolds_scratch);
      if (manifolds_scratch.size() < wanted) {
        btManifoldResult result(&wrap0, &wrap1);
        pair.m_algorithm->processCollision(&wrap0, &wrap1, parts.dynamics.getDispatchInfo(), &result);
      }
    }
    if (wake) object0->forceActivationState(activation0);
    manifolds_scratch.resize(0);
  }
  if (pair.m_algorithm != nullptr) pair.m_algorithm->getAllContactManifolds(manifolds_scratch);
}

void BulletImpl::set_points(btPersistentManifold& manifold, const btManifoldPoint* points, int count) {
  bool same = manifold.getNumContacts() == count;
  for (int p = 0; same && p < count; ++p) {
    same = std::memcmp(&manifold.getContactPoint(p), &points[p], sizeof(btManifoldPoint)) == 0;
  }
  if (same) return;
  manifold.clearManifold();
  for (int p = 0; p < count; ++p) manifold.addManifoldPoint(points[p]);
}

void BulletImpl::restore_fresh() {
  parts.broadphase.pairs().clear(&parts.dispatcher);
  for (BodyIndex b = 0; b < bodies.size(); ++b) {
    if (table.frozen(b) || empty_slot(b)) continue;
    bodies[b]->forceActivationState(table.state(b).at_rest ? ISLAND_SLEEPING : ACTIVE_TAG);
    bodies[b]->setDeactivationTime(0);
  }
}

}  // namespace shoal
