// SPDX-License-Identifier: MIT
// Box2dSimulation's spawn slots (the bookkeeping: spawn_pool.hpp). Every body a slot may hold
// is built when the slots are reserved, one per slot and spawned type, and parked until
// add_body() puts it to use: a static body far below the world, apart from every other parked
// one, so it touches nothing. Filling a slot makes its body dynamic where the spawn says;
// emptying it parks it again. Box2D's bodies, fixtures and broad-phase proxies therefore never
// come or go during play: the contacts and the tree a saved frame holds stay valid whatever was
// spawned since, and a restore only needs which slots hold which body, which Shoal puts back
// before restore().
#include <algorithm>
#include <limits>
#include <string>

#include "box2d_simulation_impl.hpp"

namespace shoal {
namespace {

void park(b2Body& body, std::size_t n) {
  const auto [x, y] = engines::parking_spot(n);
  body.SetTransform(b2Vec2(x, y), 0);
}

}  // namespace

void Box2dSimulation::set_spawn_type(std::uint16_t type, BodyMaker make) {
  impl_->spawn.declare(impl_->table, type, std::move(make));
}

void Box2dSimulation::add_spawn_slots(std::size_t count) {
  Impl& m = *impl_;
  m.spawn.check_can_reserve(m.table);
  m.spawn.first_slot = static_cast<BodyIndex>(m.table.size());
  for (std::size_t k = 0; k < count; ++k) {
    for (const auto& [type, make] : m.spawn.types) {
      const int before = m.world.GetBodyCount();
      b2Body& body = make(m.world);
      const std::string which = "the maker of type " + std::to_string(type);
      if (body.GetWorld() != &m.world || m.world.GetBodyCount() != before + 1) {
        m.table.fail("add_spawn_slots", which + " returned a body it did not just create in this world");
      }
      if (body.GetType() != b2_dynamicBody) m.table.fail("add_spawn_slots", which + " returned a static or kinematic body");
      m.spawn.keep(body, {box2d_internals::mass(body), body.GetLocalCenter()}, box2d::bounding_radius_of(body));
      m.registered.insert(std::upper_bound(m.registered.begin(), m.registered.end(), &body), &body);
      m.make_static(body);
      park(body, m.spawn.bodies.size() - 1);
    }
    m.spawn.add_slot(m.table, k);
    m.bodies.push_back(m.spawn.stand_in(k));
    m.masses.push_back(m.spawn.kept[k * m.spawn.types.size()]);
    m.was_awake.push_back(0);
    m.applied_angle.push_back(std::numeric_limits<float>::quiet_NaN());
  }
  m.bodies_checked = -1;
  m.snapshots.clear();  // saved frames lack the slots
}

std::size_t Box2dSimulation::spawn_slot_count() const { return impl_->spawn.slot_count(); }
bool Box2dSimulation::can_spawn(std::uint16_t type) const { return impl_->spawn.can_spawn(type); }

void Box2dSimulation::add_body(BodyIndex b, std::uint16_t type, const ObjectState& state,
                               std::span<const std::uint8_t> /*spawn_bytes*/) {
  Impl& m = *impl_;
  const std::size_t n = m.spawn.fill(m.table, b, type, state);
  b2Body& body = *m.spawn.bodies[n];
  m.bodies[b] = &body;
  m.masses[b] = m.spawn.kept[n];
  m.applied_angle[b] = std::numeric_limits<float>::quiet_NaN();
  if (!m.table.frozen(b)) m.make_dynamic(body, m.masses[b]);
  m.apply(b, state, true);
}

void Box2dSimulation::remove_body(BodyIndex b) {
  Impl& m = *impl_;
  const std::optional<std::size_t> n = m.spawn.empty(m.table, b, m.spawn.is_slot(b) ? m.bodies[b] : nullptr);
  if (!n) return;
  b2Body& body = *m.spawn.bodies[*n];
  if (body.GetType() != b2_staticBody) m.make_static(body);
  park(body, *n);
  m.bodies[b] = m.spawn.stand_in(b - m.spawn.first_slot);
}

}  // namespace shoal
