// SPDX-License-Identifier: MIT
// BulletSimulation's spawn slots. Every body a slot may hold is made when the slots are
// reserved, one per slot and spawned type, and parked until add_body() puts it to use: static
// and asleep (as freezing makes a body), far below the world, apart from every other parked
// one, so the narrow phase never pairs it with anything that moves. Filling a slot makes its
// body dynamic where the spawn says; emptying it parks it again. No collision object comes or
// goes during play: the world's object order, which Bullet steps in, and the pairs a saved
// frame names stay as they were, and a restore only needs which slots hold which body, which
// Shoal puts back before restore().
#include <algorithm>
#include <string>

#include "bullet_simulation_impl.hpp"

namespace shoal {
namespace {

// Where pooled body n waits: far below any sane world, 4 m from the next.
btTransform parking_place(std::size_t n) {
  return btTransform(btQuaternion(0, 0, 0, 1),
                     btVector3(4.0f * static_cast<float>(n % 1024), -100000.0f - 4.0f * static_cast<float>(n / 1024), 0));
}

void park(btRigidBody& body, std::size_t n) {
  body.setLinearVelocity(btVector3(0, 0, 0));
  body.setAngularVelocity(btVector3(0, 0, 0));
  body.setCenterOfMassTransform(parking_place(n));
}

}  // namespace

void BulletSimulation::set_spawn_type(std::uint16_t type, BodyMaker make) {
  Impl& m = *impl_;
  if (!m.pool.empty()) m.table.fail("set_spawn_type", "type " + std::to_string(type) + " after add_spawn_slots: expected every type first");
  if (!make) m.table.fail("set_spawn_type", "type " + std::to_string(type) + " given an empty maker");
  std::erase_if(m.spawn_types, [&](const Impl::SpawnType& t) { return t.type == type; });
  m.spawn_types.push_back({type, std::move(make)});
}

void BulletSimulation::add_spawn_slots(std::size_t count) {
  Impl& m = *impl_;
  if (!m.pool.empty()) m.table.fail("add_spawn_slots", "slots were added already: expected one call");
  if (m.spawn_types.empty()) m.table.fail("add_spawn_slots", "no spawned type: expected set_spawn_type() first");
  m.first_slot = static_cast<BodyIndex>(m.table.size());
  const std::size_t types = m.spawn_types.size();
  for (std::size_t k = 0; k < count; ++k) {
    for (std::size_t t = 0; t < types; ++t) {
      btRigidBody& body = m.spawn_types[t].make(m.world);
      m.check_new_body(body, "add_spawn_slots", "the body made for type " + std::to_string(m.spawn_types[t].type));
      btVector3 center;
      btScalar radius = 0;
      body.getCollisionShape()->getBoundingSphere(center, radius);
      m.pool.push_back(&body);
      m.pool_dynamic.push_back({body.getLinearFactor(), body.getAngularFactor(), body.getCollisionFlags(), ACTIVE_TAG, 0});
      m.pool_radii.push_back(static_cast<float>(center.length() + radius));
      m.registered.insert(std::upper_bound(m.registered.begin(), m.registered.end(), &body), &body);
      Impl::make_static(body);
      park(body, m.pool.size() - 1);
    }
    m.table.add(kSpawnedIdBit | 0x7FFF0000u | static_cast<ObjectId>(k), 0, 0, empty_slot_state());
    m.bodies.push_back(m.pool[k * types]);  // a parked body: no call reaches it while the slot is empty
    m.set_aside.push_back(m.pool_dynamic[k * types]);
    m.applied_basis.push_back(btMatrix3x3(0, 0, 0, 0, 0, 0, 0, 0, 0));
    m.was_active.push_back(0);
    m.slot_filled.push_back(0);
  }
  m.objects_checked = -1;
  m.snapshots.clear();  // saved frames lack the slots
}

std::size_t BulletSimulation::spawn_slot_count() const { return impl_->slot_filled.size(); }

bool BulletSimulation::can_spawn(std::uint16_t type) const {
  return std::ranges::any_of(impl_->spawn_types, [&](const Impl::SpawnType& t) { return t.type == type; });
}

void BulletSimulation::add_body(BodyIndex b, std::uint16_t type, const ObjectState& state,
                                std::span<const std::uint8_t> /*spawn_bytes*/) {
  Impl& m = *impl_;
  if (!m.empty_slot(b)) m.table.fail("add_body", "body " + std::to_string(b) + " is not an empty spawn slot");
  const auto found = std::ranges::find_if(m.spawn_types, [&](const Impl::SpawnType& t) { return t.type == type; });
  if (found == m.spawn_types.end()) {
    m.table.fail("add_body", "type " + std::to_string(type) + " has no maker: expected set_spawn_type() first");
  }
  m.table.check_finite(b, state, "add_body");
  const std::size_t k = b - m.first_slot;
  const std::size_t n = k * m.spawn_types.size() + static_cast<std::size_t>(found - m.spawn_types.begin());
  m.slot_filled[k] = 1;
  m.bodies[b] = m.pool[n];
  m.set_aside[b] = m.pool_dynamic[n];
  m.table.set_radius(b, m.pool_radii[n]);
  m.table.set_type(b, type);
  m.applied_basis[b] = btMatrix3x3(0, 0, 0, 0, 0, 0, 0, 0, 0);
  if (!m.table.frozen(b)) Impl::make_dynamic(*m.pool[n], m.pool_dynamic[n]);
  m.apply(b, state);
}

void BulletSimulation::remove_body(BodyIndex b) {
  Impl& m = *impl_;
  if (b < m.first_slot || b - m.first_slot >= m.slot_filled.size()) {
    m.table.fail("remove_body", "body " + std::to_string(b) + " is not a spawn slot");
  }
  if (m.empty_slot(b)) return;
  const std::size_t k = b - m.first_slot;
  const auto n = static_cast<std::size_t>(std::ranges::find(m.pool, m.bodies[b]) - m.pool.begin());
  btRigidBody& body = *m.bodies[b];
  Impl::make_static(body);
  park(body, n);
  m.slot_filled[k] = 0;
  m.bodies[b] = m.pool[k * m.spawn_types.size()];
  m.set_aside[b] = m.pool_dynamic[k * m.spawn_types.size()];
  m.table.state(b) = empty_slot_state();
  m.table.set_radius(b, 0);
  m.table.set_type(b, 0);
}

}  // namespace shoal
