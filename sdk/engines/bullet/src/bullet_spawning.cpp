// SPDX-License-Identifier: MIT
// BulletSimulation's spawn slots (the bookkeeping: spawn_pool.hpp). Every body a slot may hold
// is made when the slots are reserved, one per slot and spawned type, and parked until
// add_body() puts it to use: static and asleep (as freezing makes a body), far below the
// world, apart from every other parked one, so the narrow phase never pairs it with anything
// that moves. Filling a slot makes its body dynamic where the spawn says; emptying it parks it
// again. No collision object comes or goes during play: the world's object order, which Bullet
// steps in, and the pairs a saved frame names stay as they were, and a restore only needs
// which slots hold which body, which Shoal puts back before restore().
#include <algorithm>
#include <string>

#include "bullet_simulation_impl.hpp"

namespace shoal {
namespace {

void park(btRigidBody& body, std::size_t n) {
  const auto [x, y] = engines::parking_spot(n);
  body.setLinearVelocity(btVector3(0, 0, 0));
  body.setAngularVelocity(btVector3(0, 0, 0));
  body.setCenterOfMassTransform(btTransform(btQuaternion(0, 0, 0, 1), btVector3(x, y, 0)));
}

const btMatrix3x3 kNoWrite(0, 0, 0, 0, 0, 0, 0, 0, 0);  // applied_basis before any write

}  // namespace

void BulletSimulation::set_spawn_type(std::uint16_t type, BodyMaker make) {
  impl_->spawn.declare(impl_->table, type, std::move(make));
}

void BulletSimulation::add_spawn_slots(std::size_t count) {
  Impl& m = *impl_;
  m.spawn.check_can_reserve(m.table);
  m.spawn.first_slot = static_cast<BodyIndex>(m.table.size());
  for (std::size_t k = 0; k < count; ++k) {
    for (const auto& [type, make] : m.spawn.types) {
      btRigidBody& body = make(m.world);
      m.check_new_body(body, "add_spawn_slots", "the body made for type " + std::to_string(type));
      btVector3 center;
      btScalar radius = 0;
      body.getCollisionShape()->getBoundingSphere(center, radius);
      m.spawn.keep(body, {body.getLinearFactor(), body.getAngularFactor(), body.getCollisionFlags(), ACTIVE_TAG, 0},
                   static_cast<float>(center.length() + radius));
      m.registered.insert(std::upper_bound(m.registered.begin(), m.registered.end(), &body), &body);
      Impl::make_static(body);
      park(body, m.spawn.bodies.size() - 1);
    }
    m.spawn.add_slot(m.table, k);
    m.bodies.push_back(m.spawn.stand_in(k));
    m.set_aside.push_back(m.spawn.kept[k * m.spawn.types.size()]);
    m.applied_basis.push_back(kNoWrite);
    m.was_active.push_back(0);
  }
  m.objects_checked = -1;
  m.snapshots.clear();  // saved frames lack the slots
}

std::size_t BulletSimulation::spawn_slot_count() const { return impl_->spawn.slot_count(); }
bool BulletSimulation::can_spawn(std::uint16_t type) const { return impl_->spawn.can_spawn(type); }

void BulletSimulation::add_body(BodyIndex b, std::uint16_t type, const ObjectState& state,
                                std::span<const std::uint8_t> /*spawn_bytes*/) {
  Impl& m = *impl_;
  const std::size_t n = m.spawn.fill(m.table, b, type, state);
  btRigidBody& body = *m.spawn.bodies[n];
  m.bodies[b] = &body;
  m.set_aside[b] = m.spawn.kept[n];
  m.applied_basis[b] = kNoWrite;
  if (!m.table.frozen(b)) Impl::make_dynamic(body, m.set_aside[b]);
  m.apply(b, state);
}

void BulletSimulation::remove_body(BodyIndex b) {
  Impl& m = *impl_;
  const std::optional<std::size_t> n = m.spawn.empty(m.table, b, m.spawn.is_slot(b) ? m.bodies[b] : nullptr);
  if (!n) return;
  btRigidBody& body = *m.spawn.bodies[*n];
  Impl::make_static(body);
  park(body, *n);
  const std::size_t k = b - m.spawn.first_slot;
  m.bodies[b] = m.spawn.stand_in(k);
  m.set_aside[b] = m.spawn.kept[k * m.spawn.types.size()];
}

}  // namespace shoal
