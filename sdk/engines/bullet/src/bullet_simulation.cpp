// SPDX-License-Identifier: MIT
// BulletSimulation: Bullet's side of registering bodies, stepping, reading and writing them,
// and freezing (the rest is every adapter's: adapter_core.hpp).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>

#include "bullet_simulation_impl.hpp"
#include "config_check.hpp"
#include "engine_simulation_calls.hpp"
#include "push_rule.hpp"

namespace shoal {
namespace {

const BulletSimulationConfig& validated(const BulletSimulationConfig& c) {
  engines::check_shared_fields("BulletSimulationConfig", c);
  return c;
}

btVector3 to_bullet(Vec3 v) { return {v.x, v.y, v.z}; }
Vec3 to_shoal(const btVector3& v) { return {v.x(), v.y(), v.z()}; }

}  // namespace

BulletSimulation::BulletSimulation(BulletWorld& world, const BulletSimulationConfig& config)
    : EngineSimulation(std::make_unique<BulletImpl>(world, validated(config))) {}

void BulletSimulation::set_restored_parts(const BulletRestoredParts& parts) { impl().restored = parts; }

void BulletImpl::check_new_body(btRigidBody& body, const char* call, const std::string& which) const {
  const btCollisionObjectArray& objects = parts.dynamics.getCollisionObjectArray();
  if (body.getBroadphaseHandle() == nullptr || objects.findLinearSearch(&body) == objects.size()) {
    table.fail(call, which + " is not in the BulletWorld: expected a body added to world.dynamics() first");
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

float BulletImpl::radius_of(btRigidBody& body) const {
  btVector3 center;
  btScalar radius = 0;
  body.getCollisionShape()->getBoundingSphere(center, radius);
  return static_cast<float>(center.length() + radius);
}

void BulletImpl::check_world() {
  const btCollisionObjectArray& objects = parts.dynamics.getCollisionObjectArray();
  if (objects.size() == bodies_checked) return;
  for (int i = 0; i < objects.size(); ++i) {
    const btCollisionObject* object = objects[i];
    const btRigidBody* body = btRigidBody::upcast(object);
    if (object->isStaticObject() || (body && std::binary_search(registered.begin(), registered.end(), body))) continue;
    throw std::logic_error("BulletSimulation::step: the world holds a dynamic body (collision object " +
                           std::to_string(i) + ") that was never registered: expected add_body() for every "
                           "body that moves, or a static body");
  }
  bodies_checked = objects.size();
}

void BulletImpl::push(btRigidBody& body, const Input& input) const {
  const btVector3 v = body.getLinearVelocity();  // y is up: the ground is x and z
  const std::optional<engines::GroundVector> after = engines::push_step(
      {input.axis.x, input.axis.z}, {v.x(), v.z()}, {config.push_acceleration, config.max_push_speed}, config.dt);
  if (!after) return;
  body.setLinearVelocity(btVector3(after->u, v.y(), after->v));
  body.activate(true);
}

ObjectState BulletImpl::engine_state(BodyIndex b) const {
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

void BulletImpl::apply(BodyIndex b, const ObjectState& s) {
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

void BulletImpl::make_static(BodyIndex b) {
  btRigidBody& body = *bodies[b];
  kept[b] = {body.getLinearFactor(), body.getAngularFactor(), body.getCollisionFlags(), body.getActivationState(),
             body.getDeactivationTime()};
  make_static(body);
}

void BulletImpl::make_dynamic(BodyIndex b) { make_dynamic(*bodies[b], kept[b]); }

void BulletImpl::make_static(btRigidBody& body) {
  // Static to Bullet (no integration, no gravity, not in islands) and immovable to the solver
  // (zero factors: it keeps its inverse mass, exactly, for when it thaws).
  body.setCollisionFlags(body.getCollisionFlags() | btCollisionObject::CF_STATIC_OBJECT);
  body.setLinearFactor(btVector3(0, 0, 0));
  body.setAngularFactor(btVector3(0, 0, 0));
  body.forceActivationState(ISLAND_SLEEPING);
}

void BulletImpl::make_dynamic(btRigidBody& body, const bullet::SetAside& kept) {
  body.setCollisionFlags(kept.collision_flags);
  body.setLinearFactor(kept.linear_factor);
  body.setAngularFactor(kept.angular_factor);
  body.forceActivationState(kept.activation);
  body.setDeactivationTime(kept.deactivation_time);
}

template class EngineSimulation<BulletSimulation, btRigidBody, BulletWorld>;

}  // namespace shoal
