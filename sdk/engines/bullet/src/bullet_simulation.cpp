// SPDX-License-Identifier: MIT
// BulletSimulation: registering bodies, stepping, reading and writing them, freezing.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>

#include "bullet_simulation_impl.hpp"
#include "push_rule.hpp"

namespace shoal {
namespace {

void require(bool ok, const char* field, float value, const char* expected) {
  if (!ok) {
    throw std::invalid_argument(std::string("BulletSimulationConfig: ") + field + " is " +
                                std::to_string(value) + ", expected " + expected);
  }
}

void validate(const BulletSimulationConfig& c) {
  require(std::isfinite(c.dt) && c.dt > 0 && c.dt <= 1, "dt", c.dt, "a step in (0, 1] seconds");
  require(std::isfinite(c.push_acceleration) && c.push_acceleration >= 0, "push_acceleration",
          c.push_acceleration, "a finite acceleration >= 0");
  require(std::isfinite(c.max_push_speed) && c.max_push_speed >= 0, "max_push_speed", c.max_push_speed,
          "a finite speed >= 0");
  require(c.history_frames >= 1 && c.history_frames <= 65536, "history_frames",
          static_cast<float>(c.history_frames), "1..65536");
}

btVector3 to_bullet(Vec3 v) { return {v.x, v.y, v.z}; }
Vec3 to_shoal(const btVector3& v) { return {v.x(), v.y(), v.z()}; }

}  // namespace

BulletSimulation::BulletSimulation(BulletWorld& world, const BulletSimulationConfig& config) {
  validate(config);
  impl_ = std::make_unique<Impl>(world, config);
}

BulletSimulation::~BulletSimulation() = default;

void BulletSimulation::Impl::check_new_body(btRigidBody& body, const char* call, const std::string& which) const {
  const btCollisionObjectArray& objects = parts.dynamics.getCollisionObjectArray();
  if (body.getBroadphaseHandle() == nullptr || objects.findLinearSearch(&body) == objects.size()) {
    table.fail(call, which + " is not in the BulletWorld: expected a body added to world.dynamics() first");
  }
  if (std::binary_search(registered.begin(), registered.end(), &body)) {
    table.fail(call, which + ": that btRigidBody is registered already");
  }
  if (body.isStaticOrKinematicObject()) {
    table.fail(call, which + " is static or kinematic: expected a dynamic body (static ones need no "
                             "registering; kinematic ones are moved by the game, which a catch-up cannot replay)");
  }
  if (body.getCcdMotionThreshold() > 0) {
    table.fail(call, which + " has continuous collision detection on: its predictive contacts are not "
                             "restored, expected setCcdMotionThreshold(0)");
  }
}

BodyIndex BulletSimulation::add_body(ObjectId id, btRigidBody& body, std::uint16_t type) {
  Impl& m = *impl_;
  const std::string which = "body " + std::to_string(id);
  if (!m.spawn.bodies.empty()) m.table.fail("add_body", which + " after the spawn slots: expected every body registered first");
  m.check_new_body(body, "add_body", which);
  btVector3 center;
  btScalar radius = 0;
  body.getCollisionShape()->getBoundingSphere(center, radius);
  const BodyIndex index = m.table.add(id, static_cast<float>(center.length() + radius), type, ObjectState{});
  m.bodies.push_back(&body);
  m.set_aside.emplace_back();
  m.applied_basis.push_back(btMatrix3x3(0, 0, 0, 0, 0, 0, 0, 0, 0));  // no write yet: read the engine's
  m.was_active.push_back(0);
  m.registered.insert(std::upper_bound(m.registered.begin(), m.registered.end(), &body), &body);
  m.objects_checked = -1;
  m.apply(index, m.engine_state(index));
  m.snapshots.clear();  // saved frames lack the body
  return index;
}

btRigidBody& BulletSimulation::body(BodyIndex b) const { return *impl_->bodies.at(impl_->table.check(b, "body")); }

void BulletSimulation::set_input_handler(InputHandler handler) { impl_->input_handler = std::move(handler); }
void BulletSimulation::set_body_type(BodyIndex b, std::uint16_t type) { impl_->table.set_type(b, type); }
void BulletSimulation::set_user_bytes_size(std::uint16_t type, std::size_t size) {
  impl_->table.set_user_bytes_size(type, size);
}
bool BulletSimulation::is_frozen(BodyIndex b) const { return impl_->table.frozen(b); }
void BulletSimulation::set_restored_parts(const BulletRestoredParts& parts) { impl_->restored = parts; }

std::size_t BulletSimulation::body_count() const { return impl_->table.size(); }
ObjectId BulletSimulation::body_id(BodyIndex b) const { return impl_->table.id(b); }
float BulletSimulation::bounding_radius(BodyIndex b) const { return impl_->table.radius(b); }
std::uint16_t BulletSimulation::body_type(BodyIndex b) const { return impl_->table.type(b); }
ObjectState BulletSimulation::read(BodyIndex b) const { return impl_->table.state(b); }
std::size_t BulletSimulation::user_bytes_size(std::uint16_t type) const { return impl_->table.user_bytes_size(type); }
void BulletSimulation::read_user_bytes(BodyIndex b, std::span<std::uint8_t> out) const {
  impl_->table.read_user_bytes(b, out);
}
void BulletSimulation::write_user_bytes(BodyIndex b, std::span<const std::uint8_t> bytes) {
  impl_->table.write_user_bytes(b, bytes);
}
std::optional<std::span<const BodyIndex>> BulletSimulation::changed_bodies() const {
  return std::span<const BodyIndex>(impl_->table.changed());
}

void BulletSimulation::write(BodyIndex b, const ObjectState& state) {
  Impl& m = *impl_;
  m.table.check(b, "write");
  m.table.check_finite(b, state, "write");
  if (m.empty_slot(b)) return;  // an empty slot ignores writes
  m.apply(b, state);
}

void BulletSimulation::set_frozen(BodyIndex b, bool frozen) {
  Impl& m = *impl_;
  m.table.check(b, "set_frozen");
  if (frozen == m.table.frozen(b)) return;
  if (m.empty_slot(b)) return m.table.set_frozen(b, frozen);  // kept for the body that fills it
  if (frozen) {
    m.freeze(b);
  } else {
    m.thaw(b);
  }
}

void BulletSimulation::step(Frame, std::span<const BodyInput> inputs) {
  Impl& m = *impl_;
  for (const BodyInput& in : inputs) {
    if (in.body >= m.table.size()) {
      throw std::invalid_argument("BulletSimulation::step: input for body " + std::to_string(in.body) +
                                  ", but there are only " + std::to_string(m.table.size()) + " bodies");
    }
  }
  m.check_every_dynamic_body_registered();
  if (bullet::Snapshot* snapshot = m.snapshots.take_marked()) m.take_snapshot(*snapshot);
  for (const BodyInput& in : inputs) {
    if (m.table.frozen(in.body) || m.empty_slot(in.body)) continue;
    if (m.input_handler) {
      m.input_handler(*m.bodies[in.body], in.input);
    } else {
      m.push(*m.bodies[in.body], in.input);
    }
  }
  for (BodyIndex b = 0; b < m.table.size(); ++b) m.was_active[b] = m.bodies[b]->isActive() && !m.empty_slot(b) ? 1 : 0;
  m.parts.dynamics.stepSimulation(m.config.dt, 0, m.config.dt);
  // Only a body awake before or after the step can have moved (one asleep throughout kept its
  // transform and zero velocities): those are re-read and written back (see BodyTable).
  std::vector<BodyIndex>& changed = m.table.changed();
  changed.clear();
  for (BodyIndex b = 0; b < m.table.size(); ++b) {
    if (m.table.frozen(b) || m.empty_slot(b) || (m.was_active[b] == 0 && !m.bodies[b]->isActive())) continue;
    changed.push_back(b);
    m.apply(b, m.engine_state(b));
  }
}

void BulletSimulation::Impl::push(btRigidBody& body, const Input& input) const {
  const engines::GroundVector direction = engines::push_direction({input.axis.x, input.axis.z});
  if (direction.u == 0 && direction.v == 0) return;
  const btVector3 v = body.getLinearVelocity();
  const engines::PushRule rule{config.push_acceleration, config.max_push_speed};
  const engines::GroundVector after = engines::pushed_velocity({v.x(), v.z()}, direction, rule, config.dt);
  body.setLinearVelocity(btVector3(after.u, v.y(), after.v));
  body.activate(true);
}

ObjectState BulletSimulation::Impl::engine_state(BodyIndex b) const {
  const btRigidBody& body = *bodies[b];
  const btTransform& transform = body.getWorldTransform();
  ObjectState s;
  s.position = to_shoal(transform.getOrigin());
  // A body that has not turned since its last write keeps that write's orientation: a matrix
  // made from a quaternion does not give back the same bits, and a body merely woken (or
  // pushed straight) should not look changed to the other peers.
  if (std::memcmp(&transform.getBasis(), &applied_basis[b], sizeof(btMatrix3x3)) == 0) {
    s.orientation = table.state(b).orientation;
  } else {
    btQuaternion q;
    transform.getBasis().getRotation(q);
    s.orientation = {q.w(), q.x(), q.y(), q.z()};
  }
  s.linear_velocity = to_shoal(body.getLinearVelocity());
  s.angular_velocity = to_shoal(body.getAngularVelocity());
  s.at_rest = body.getActivationState() == ISLAND_SLEEPING;
  return s;
}

void BulletSimulation::Impl::apply(BodyIndex b, const ObjectState& s) {
  if (empty_slot(b)) return;  // it reads as empty_slot_state(), its parked body untouched
  table.state(b) = s;
  btRigidBody& body = *bodies[b];
  const btTransform transform(btQuaternion(s.orientation.x, s.orientation.y, s.orientation.z, s.orientation.w),
                              to_bullet(s.position));
  const bool frozen = table.frozen(b);
  // A frozen body stands still in the engine; its velocities wait in the table until it thaws.
  body.setLinearVelocity(frozen ? btVector3(0, 0, 0) : to_bullet(s.linear_velocity));
  body.setAngularVelocity(frozen ? btVector3(0, 0, 0) : to_bullet(s.angular_velocity));
  body.setCenterOfMassTransform(transform);  // also the interpolation transform and inertia
  applied_basis[b] = transform.getBasis();
  if (frozen) return;
  const bool asleep = body.getActivationState() == ISLAND_SLEEPING;
  if (s.at_rest && !asleep) {
    body.forceActivationState(ISLAND_SLEEPING);
  } else if (!s.at_rest && asleep) {
    body.forceActivationState(ACTIVE_TAG);
    body.setDeactivationTime(0);
  }
}

void BulletSimulation::Impl::freeze(BodyIndex b) {
  table.set_frozen(b, true);
  if (empty_slot(b)) return;
  btRigidBody& body = *bodies[b];
  set_aside[b] = {body.getLinearFactor(), body.getAngularFactor(), body.getCollisionFlags(),
                  body.getActivationState(), body.getDeactivationTime()};
  make_static(body);
  apply(b, table.state(b));
}

void BulletSimulation::Impl::thaw(BodyIndex b) {
  if (!empty_slot(b)) make_dynamic(*bodies[b], set_aside[b]);
  table.set_frozen(b, false);
  apply(b, table.state(b));
}

void BulletSimulation::Impl::make_static(btRigidBody& body) {
  // Static to Bullet (no integration, no gravity, not in islands) and immovable to the solver
  // (zero factors: it keeps its inverse mass, exactly, for when it thaws).
  body.setCollisionFlags(body.getCollisionFlags() | btCollisionObject::CF_STATIC_OBJECT);
  body.setLinearFactor(btVector3(0, 0, 0));
  body.setAngularFactor(btVector3(0, 0, 0));
  body.forceActivationState(ISLAND_SLEEPING);
}

void BulletSimulation::Impl::make_dynamic(btRigidBody& body, const bullet::SetAside& kept) {
  body.setCollisionFlags(kept.collision_flags);
  body.setLinearFactor(kept.linear_factor);
  body.setAngularFactor(kept.angular_factor);
  body.forceActivationState(kept.activation);
  body.setDeactivationTime(kept.deactivation_time);
}

void BulletSimulation::Impl::check_every_dynamic_body_registered() {
  const btCollisionObjectArray& objects = parts.dynamics.getCollisionObjectArray();
  if (objects.size() == objects_checked) return;
  for (int i = 0; i < objects.size(); ++i) {
    const btCollisionObject* object = objects[i];
    if (object->isStaticObject() || std::binary_search(registered.begin(), registered.end(), object)) continue;
    throw std::logic_error("BulletSimulation::step: the world holds a dynamic body (collision object " +
                           std::to_string(i) + ") that was never registered: expected add_body() for every "
                           "body that moves, or a static body");
  }
  objects_checked = objects.size();
}

}  // namespace shoal
