// SPDX-License-Identifier: MIT
// Box2dSimulation's spawn slots. Every body a slot may hold is built when the slots are
// reserved, one per slot and spawned type, and parked until add_body() puts it to use: a
// static body far below the world, apart from every other parked one, so it touches nothing.
// Filling a slot makes its body dynamic where the spawn says; emptying it parks it again.
// Box2D's bodies, fixtures and broad-phase proxies therefore never come or go during play:
// the contacts and the tree a saved frame holds stay valid whatever was spawned since, and a
// restore only needs which slots hold which body, which Shoal puts back before restore().
#include <algorithm>
#include <limits>
#include <string>

#include "box2d_simulation_impl.hpp"

namespace shoal {
namespace {

// Where pooled body n waits: far below any sane world, 4 m from the next.
b2Vec2 parking_place(std::size_t n) { return {4.0f * static_cast<float>(n % 1024), -100000.0f - 4.0f * static_cast<float>(n / 1024)}; }

}  // namespace

void Box2dSimulation::set_spawn_type(std::uint16_t type, BodyMaker make) {
  Impl& m = *impl_;
  if (!m.pool.empty()) m.table.fail("set_spawn_type", "type " + std::to_string(type) + " after add_spawn_slots: expected every type first");
  if (!make) m.table.fail("set_spawn_type", "type " + std::to_string(type) + " given an empty maker");
  auto same = [&](const Impl::SpawnType& t) { return t.type == type; };
  std::erase_if(m.spawn_types, same);
  m.spawn_types.push_back({type, std::move(make)});
}

void Box2dSimulation::add_spawn_slots(std::size_t count) {
  Impl& m = *impl_;
  if (!m.pool.empty()) m.table.fail("add_spawn_slots", "slots were added already: expected one call");
  if (m.spawn_types.empty()) m.table.fail("add_spawn_slots", "no spawned type: expected set_spawn_type() first");
  m.first_slot = static_cast<BodyIndex>(m.table.size());
  const std::size_t types = m.spawn_types.size();
  for (std::size_t k = 0; k < count; ++k) {
    for (std::size_t t = 0; t < types; ++t) {
      const std::size_t before = static_cast<std::size_t>(m.world.GetBodyCount());
      b2Body& body = m.spawn_types[t].make(m.world);
      const std::string which = "the maker of type " + std::to_string(m.spawn_types[t].type);
      if (body.GetWorld() != &m.world || static_cast<std::size_t>(m.world.GetBodyCount()) != before + 1) {
        m.table.fail("add_spawn_slots", which + " returned a body it did not just create in this world");
      }
      if (body.GetType() != b2_dynamicBody) m.table.fail("add_spawn_slots", which + " returned a static or kinematic body");
      m.pool.push_back(&body);
      m.pool_masses.push_back({box2d_internals::mass(body), body.GetLocalCenter()});
      m.pool_radii.push_back(box2d::bounding_radius_of(body));
      m.registered.insert(std::upper_bound(m.registered.begin(), m.registered.end(), &body), &body);
      m.make_static(body);
      body.SetTransform(parking_place(m.pool.size() - 1), 0);
    }
    const BodyIndex index = m.table.add(kSpawnedIdBit | 0x7FFF0000u | static_cast<ObjectId>(k), 0, 0, empty_slot_state());
    m.bodies.push_back(m.pool[k * types]);  // a parked body: no call reaches it while the slot is empty
    m.masses.push_back(m.pool_masses[k * types]);
    m.was_awake.push_back(0);
    m.applied_angle.push_back(std::numeric_limits<float>::quiet_NaN());
    m.slot_filled.push_back(0);
    (void)index;
  }
  m.bodies_checked = -1;
  m.snapshots.clear();  // saved frames lack the slots
}

std::size_t Box2dSimulation::spawn_slot_count() const { return impl_->slot_filled.size(); }

bool Box2dSimulation::can_spawn(std::uint16_t type) const {
  return std::ranges::any_of(impl_->spawn_types, [&](const Impl::SpawnType& t) { return t.type == type; });
}

void Box2dSimulation::add_body(BodyIndex b, std::uint16_t type, const ObjectState& state,
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
  m.masses[b] = m.pool_masses[n];
  m.table.set_radius(b, m.pool_radii[n]);
  m.table.set_type(b, type);
  m.applied_angle[b] = std::numeric_limits<float>::quiet_NaN();
  if (!m.table.frozen(b)) m.make_dynamic(*m.pool[n], m.pool_masses[n]);
  m.apply(b, state, true);
}

void Box2dSimulation::remove_body(BodyIndex b) {
  Impl& m = *impl_;
  if (b < m.first_slot || b - m.first_slot >= m.slot_filled.size()) {
    m.table.fail("remove_body", "body " + std::to_string(b) + " is not a spawn slot");
  }
  if (m.empty_slot(b)) return;
  const std::size_t k = b - m.first_slot;
  const auto n = static_cast<std::size_t>(std::ranges::find(m.pool, m.bodies[b]) - m.pool.begin());
  b2Body& body = *m.bodies[b];
  if (body.GetType() != b2_staticBody) m.make_static(body);
  body.SetTransform(parking_place(n), 0);
  m.slot_filled[k] = 0;
  m.bodies[b] = m.pool[k * m.spawn_types.size()];
  m.table.state(b) = empty_slot_state();
  m.table.set_radius(b, 0);
  m.table.set_type(b, 0);
}

}  // namespace shoal
