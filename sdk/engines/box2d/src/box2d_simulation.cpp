// SPDX-License-Identifier: MIT
// Box2dSimulation: Box2D's side of registering bodies, stepping, reading and writing them on
// the plane, and freezing (the rest is every adapter's: adapter_core.hpp).
#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "box2d_simulation_impl.hpp"
#include "config_check.hpp"
#include "engine_simulation_calls.hpp"
#include "push_rule.hpp"

namespace shoal {
namespace {

const Box2dSimulationConfig& validated(const b2World& world, const Box2dSimulationConfig& c) {
  engines::check_shared_fields("Box2dSimulationConfig", c);
  engines::require(c.velocity_iterations >= 1 && c.velocity_iterations <= 256, "Box2dSimulationConfig",
                   "velocity_iterations", static_cast<float>(c.velocity_iterations), "1..256");
  engines::require(c.position_iterations >= 1 && c.position_iterations <= 256, "Box2dSimulationConfig",
                   "position_iterations", static_cast<float>(c.position_iterations), "1..256");
  if (world.GetSubStepping()) {
    throw std::invalid_argument("Box2dSimulation: the world has sub-stepping on: expected SetSubStepping(false) "
                                "(a sub-stepped frame spans several calls, which a catch-up cannot repeat)");
  }
  return c;
}

// The rotation about z by `angle`, and back. A quaternion and its negation are the same
// rotation; the angle comes back in (-2pi, 2pi], which Box2D takes as it is.
Quat about_z(float angle) { return {std::cos(angle * 0.5f), 0, 0, std::sin(angle * 0.5f)}; }
float angle_of(const Quat& q) { return 2 * std::atan2(q.z, q.w); }

bool same_bits(float a, float b) { return std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b); }

}  // namespace

float box2d::bounding_radius_of(b2Body& body) {
  float radius = 0;
  for (b2Fixture* f = body.GetFixtureList(); f != nullptr; f = f->GetNext()) {
    const b2Shape& shape = *f->GetShape();
    if (shape.GetType() == b2Shape::e_circle) {
      const auto& circle = static_cast<const b2CircleShape&>(shape);
      radius = std::max(radius, circle.m_p.Length() + circle.m_radius);
    } else if (shape.GetType() == b2Shape::e_polygon) {
      const auto& polygon = static_cast<const b2PolygonShape&>(shape);
      for (int32 i = 0; i < polygon.m_count; ++i) {
        radius = std::max(radius, polygon.m_vertices[i].Length() + polygon.m_radius);
      }
    } else {  // edges and chains: the farthest corner of their box about the origin
      const b2Transform identity(b2Vec2(0, 0), b2Rot(0));
      for (int32 child = 0; child < shape.GetChildCount(); ++child) {
        b2AABB box;
        shape.ComputeAABB(&box, identity, child);
        const float x = std::max(std::fabs(box.lowerBound.x), std::fabs(box.upperBound.x));
        const float y = std::max(std::fabs(box.lowerBound.y), std::fabs(box.upperBound.y));
        radius = std::max(radius, std::sqrt(x * x + y * y));
      }
    }
  }
  return radius;
}

Box2dSimulation::Box2dSimulation(b2World& world, const Box2dSimulationConfig& config)
    : EngineSimulation(std::make_unique<Box2dImpl>(world, validated(world, config))) {}

void Box2dSimulation::set_restored_parts(const Box2dRestoredParts& parts) { impl().restored = parts; }

void Box2dImpl::check_new_body(b2Body& body, const char* call, const std::string& which) const {
  if (body.GetWorld() != &world) {
    table.fail(call, which + " belongs to another b2World: expected a body of the world given to the constructor");
  }
  if (body.GetType() != b2_dynamicBody) {
    table.fail(call, which + " is static or kinematic: expected a dynamic body (static ones need no "
                             "registering; kinematic ones are moved by the game, which a catch-up cannot replay)");
  }
}

void Box2dImpl::check_world() {
  if (world.GetSubStepping()) {
    throw std::logic_error("Box2dSimulation::step: the world's sub-stepping was turned on: expected it off");
  }
  if (world.GetBodyCount() == bodies_checked) return;
  int index = 0;
  for (const b2Body* body = world.GetBodyList(); body != nullptr; body = body->GetNext(), ++index) {
    if (body->GetType() == b2_staticBody || std::binary_search(registered.begin(), registered.end(), body)) continue;
    throw std::logic_error("Box2dSimulation::step: the world holds a " +
                           std::string(body->GetType() == b2_kinematicBody ? "kinematic" : "dynamic") +
                           " body (number " + std::to_string(index) + " of its body list) that was never "
                           "registered: expected add_body() for every body that moves, or a static body");
  }
  bodies_checked = world.GetBodyCount();
}

void Box2dImpl::push(b2Body& body, const Input& input) const {
  const b2Vec2 v = body.GetLinearVelocity();
  const std::optional<engines::GroundVector> after = engines::push_step(
      {input.axis.x, input.axis.y}, {v.x, v.y}, {config.push_acceleration, config.max_push_speed}, config.dt);
  if (!after) return;
  body.SetAwake(true);
  body.SetLinearVelocity(b2Vec2(after->u, after->v));
}

ObjectState Box2dImpl::engine_state(BodyIndex b) const {
  const b2Body& body = *bodies[b];
  const b2Vec2 p = body.GetPosition();
  const b2Vec2 v = body.GetLinearVelocity();
  ObjectState s;
  s.position = {p.x, p.y, 0};
  // A body that has not turned since its last write keeps that write's orientation: an angle
  // made from a quaternion does not give back the same bits, and a body merely woken (or
  // pushed straight) should not look changed to the other peers.
  s.orientation = same_bits(body.GetAngle(), applied_angle[b]) ? table.state(b).orientation : about_z(body.GetAngle());
  s.linear_velocity = {v.x, v.y, 0};
  s.angular_velocity = {0, 0, body.GetAngularVelocity()};
  s.at_rest = !body.IsAwake();
  return s;
}

void Box2dImpl::apply(BodyIndex b, const ObjectState& s, bool resync) {
  if (empty_slot(b)) return;  // it reads as empty_slot_state(), its parked body untouched
  table.state(b) = s;
  b2Body& body = *bodies[b];
  const b2Vec2 position(s.position.x, s.position.y);
  const float angle = angle_of(s.orientation);
  // SetTransform also moves the body's proxies in the broad phase (and asks for new contacts),
  // so a write of the pose the body already has leaves the engine as it is.
  if (resync || !same_bits(body.GetPosition().x, position.x) || !same_bits(body.GetPosition().y, position.y) ||
      !same_bits(body.GetAngle(), angle)) {
    body.SetTransform(position, angle);
  }
  applied_angle[b] = angle;
  if (table.frozen(b)) return;  // static: its velocities wait in the table until it thaws
  if (s.at_rest) {
    if (body.IsAwake()) body.SetAwake(false);  // also zeroes its velocities
    return;
  }
  const bool awake = body.IsAwake();
  const float timer = box2d_internals::sleep_time(body);
  body.SetAwake(true);  // restarts the sleep timer: put back below if it was awake already
  body.SetLinearVelocity(b2Vec2(s.linear_velocity.x, s.linear_velocity.y));
  body.SetAngularVelocity(s.angular_velocity.z);
  if (awake) box2d_internals::sleep_time(body) = timer;
}

void Box2dImpl::make_static(b2Body& body) {
  // A static body: not stepped, an obstacle to the others. SetType also drops its contacts;
  // new ones are looked for at the next step's start.
  body.SetType(b2_staticBody);
  box2d_internals::new_contacts(world) = true;
}

void Box2dImpl::make_dynamic(BodyIndex b) {
  b2Body& body = *bodies[b];
  const box2d::KeptMass& mass = kept[b];
  body.SetType(b2_dynamicBody);
  // SetType recomputed the mass from the fixtures, which need not be what the game set: its
  // centre goes back through SetMassData, the values themselves bit for bit.
  b2MassData data;
  data.mass = mass.exact.mass;
  data.center = mass.local_center;
  data.I = mass.exact.inertia + mass.exact.mass * b2Dot(mass.local_center, mass.local_center);
  body.SetMassData(&data);
  box2d_internals::set_mass(body, mass.exact);
  box2d_internals::new_contacts(world) = true;
}

template class EngineSimulation<Box2dSimulation, b2Body, b2World>;

}  // namespace shoal
