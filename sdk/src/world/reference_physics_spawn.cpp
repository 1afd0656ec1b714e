// SPDX-License-Identifier: MIT
// The reference physics' spawn slots: bodies reserved after the fixed ones, filled and emptied
// during play. A slot keeps its index, so nothing per body is ever reallocated; an empty slot
// is a body that reads as empty_slot_state(), is never moving and is skipped by the broad
// phase's pairs, so it touches nothing.
#include <stdexcept>
#include <string>

#include "world/reference_physics_impl.hpp"

namespace shoal {

using world::Shape;
using world::ShapeKind;
using world::reference::Body;

void ReferencePhysics::set_spawn_sphere(std::uint16_t type, float radius, float mass) {
  if (!std::isfinite(radius) || radius <= 0 || !std::isfinite(mass) || mass <= 0) {
    throw std::invalid_argument("ReferencePhysics::set_spawn_sphere: type " + std::to_string(type) +
                                " has radius " + std::to_string(radius) + " and mass " + std::to_string(mass) +
                                ", expected a finite radius > 0 and a finite mass > 0");
  }
  const float factor = 0.4f * radius * radius;
  impl_->spawn_templates[type] = {Shape{ShapeKind::sphere, radius, {}}, mass, {factor, factor, factor}};
}

void ReferencePhysics::set_spawn_box(std::uint16_t type, Vec3 half_extents, float mass) {
  const Vec3 h = half_extents;
  if (!world::reference::finite(h) || h.x <= 0 || h.y <= 0 || h.z <= 0 || !std::isfinite(mass) || mass <= 0) {
    throw std::invalid_argument("ReferencePhysics::set_spawn_box: type " + std::to_string(type) +
                                " expected finite half extents > 0 and a finite mass > 0");
  }
  const Vec3 factors{(h.y * h.y + h.z * h.z) / 3, (h.x * h.x + h.z * h.z) / 3, (h.x * h.x + h.y * h.y) / 3};
  impl_->spawn_templates[type] = {Shape{ShapeKind::box, 0, h}, mass, factors};
}

BodyIndex ReferencePhysics::add_spawn_slots(std::size_t count) {
  Impl& m = *impl_;
  if (m.slots_added) throw std::logic_error("ReferencePhysics::add_spawn_slots: called twice, expected once");
  const auto first = static_cast<BodyIndex>(m.bodies.size());
  // Each slot starts as a placeholder body, then is emptied: the same tables as a fixed body.
  for (std::size_t k = 0; k < count; ++k) {
    m.add(kSpawnedIdBit, Shape{ShapeKind::sphere, 1, {}}, 0, {1, 1, 1}, empty_slot_state());
  }
  m.first_slot = first;
  m.slots_added = true;
  for (BodyIndex b = first; b < m.bodies.size(); ++b) remove_body(b);
  return first;
}

std::size_t ReferencePhysics::spawn_slot_count() const {
  return impl_->slots_added ? impl_->bodies.size() - impl_->first_slot : 0;
}

void ReferencePhysics::add_body(BodyIndex body, std::uint16_t type, const ObjectState& state,
                                std::span<const std::uint8_t> /*spawn_bytes*/) {
  Impl& m = *impl_;
  if (!m.is_slot(body) || m.present[body] != 0) {
    throw std::invalid_argument("ReferencePhysics::add_body: body " + std::to_string(body) +
                                " is not an empty spawn slot");
  }
  const auto found = m.spawn_templates.find(type);
  if (found == m.spawn_templates.end()) {
    throw std::invalid_argument("ReferencePhysics::add_body: type " + std::to_string(type) +
                                " has no spawn shape, expected set_spawn_sphere or set_spawn_box first");
  }
  const Impl::SpawnTemplate& t = found->second;
  Body made = Impl::make_body(kSpawnedIdBit, t.shape, t.mass, t.inertia_factors, state);  // throws if not finite
  made.state = state;  // as given: the spawner's at_rest flag too
  m.bodies[body] = made;
  m.present[body] = 1;
  m.sleep_counters[body] = state.at_rest ? m.config.sleep_frames : 0;
  std::fill_n(m.user_bytes.begin() + static_cast<std::ptrdiff_t>(body * kMaxUserBytes), kMaxUserBytes, 0);
  set_body_type(body, type);
}

void ReferencePhysics::remove_body(BodyIndex body) {
  Impl& m = *impl_;
  if (!m.is_slot(body)) {
    throw std::invalid_argument("ReferencePhysics::remove_body: body " + std::to_string(body) +
                                " is not a spawn slot");
  }
  Body& b = m.bodies[body];
  b.state = empty_slot_state();
  b.inverse_mass = 0;
  b.bounding_radius = 0;
  m.present[body] = 0;
  m.sleep_counters[body] = m.config.sleep_frames;
  std::fill_n(m.user_bytes.begin() + static_cast<std::ptrdiff_t>(body * kMaxUserBytes), kMaxUserBytes, 0);
  set_body_type(body, 0);
}

bool ReferencePhysics::can_spawn(std::uint16_t type) const { return impl_->spawn_templates.contains(type); }

bool ReferencePhysics::slot_filled(BodyIndex body) const { return impl_->present.at(body) != 0; }

}  // namespace shoal
