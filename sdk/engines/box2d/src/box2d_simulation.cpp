// SPDX-License-Identifier: MIT
// Box2dSimulation: registering bodies, stepping, reading and writing them on the plane, freezing.
#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "box2d_simulation_impl.hpp"
#include "push_rule.hpp"

namespace shoal {
namespace {

void require(bool ok, const char* field, float value, const char* expected) {
  if (!ok) {
    throw std::invalid_argument(std::string("Box2dSimulationConfig: ") + field + " is " +
                                std::to_string(value) + ", expected " + expected);
  }
}

void validate(const Box2dSimulationConfig& c) {
  require(std::isfinite(c.dt) && c.dt > 0 && c.dt <= 1, "dt", c.dt, "a step in (0, 1] seconds");
  require(c.velocity_iterations >= 1 && c.velocity_iterations <= 256, "velocity_iterations",
          static_cast<float>(c.velocity_iterations), "1..256");
  require(c.position_iterations >= 1 && c.position_iterations <= 256, "position_iterations",
          static_cast<float>(c.position_iterations), "1..256");
  require(std::isfinite(c.push_acceleration) && c.push_acceleration >= 0, "push_acceleration",
          c.push_acceleration, "a finite acceleration >= 0");
  require(std::isfinite(c.max_push_speed) && c.max_push_speed >= 0, "max_push_speed", c.max_push_speed,
          "a finite speed >= 0");
  require(c.history_frames >= 1 && c.history_frames <= 65536, "history_frames",
          static_cast<float>(c.history_frames), "1..65536");
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

Box2dSimulation::Box2dSimulation(b2World& world, const Box2dSimulationConfig& config) {
  validate(config);
  if (world.GetSubStepping()) {
    throw std::invalid_argument("Box2dSimulation: the world has sub-stepping on: expected SetSubStepping(false) "
                                "(a sub-stepped frame spans several calls, which a catch-up cannot repeat)");
  }
  impl_ = std::make_unique<Impl>(world, config);
}

Box2dSimulation::~Box2dSimulation() = default;

BodyIndex Box2dSimulation::add_body(ObjectId id, b2Body& body, std::uint16_t type) {
  Impl& m = *impl_;
  const std::string which = "body " + std::to_string(id);
  if (!m.spawn.bodies.empty()) m.table.fail("add_body", which + " after the spawn slots: expected every body registered first");
  if (body.GetWorld() != &m.world) {
    m.table.fail("add_body", which + " belongs to another b2World: expected a body of the world given to the constructor");
  }
  if (std::binary_search(m.registered.begin(), m.registered.end(), &body)) {
    m.table.fail("add_body", which + ": that b2Body is registered already");
  }
  if (body.GetType() != b2_dynamicBody) {
    m.table.fail("add_body", which + " is static or kinematic: expected a dynamic body (static ones need no "
                                     "registering; kinematic ones are moved by the game, which a catch-up cannot replay)");
  }
  const BodyIndex index = m.table.add(id, box2d::bounding_radius_of(body), type, ObjectState{});
  m.bodies.push_back(&body);
  m.masses.push_back({box2d_internals::mass(body), body.GetLocalCenter()});
  m.was_awake.push_back(0);
  m.applied_angle.push_back(std::numeric_limits<float>::quiet_NaN());  // no write yet: read the engine's
  m.registered.insert(std::upper_bound(m.registered.begin(), m.registered.end(), &body), &body);
  m.bodies_checked = -1;
  m.apply(index, m.engine_state(index));
  m.snapshots.clear();  // saved frames lack the body
  return index;
}

b2Body& Box2dSimulation::body(BodyIndex b) const { return *impl_->bodies.at(impl_->table.check(b, "body")); }

void Box2dSimulation::set_input_handler(InputHandler handler) { impl_->input_handler = std::move(handler); }
void Box2dSimulation::set_body_type(BodyIndex b, std::uint16_t type) { impl_->table.set_type(b, type); }
void Box2dSimulation::set_user_bytes_size(std::uint16_t type, std::size_t size) {
  impl_->table.set_user_bytes_size(type, size);
}
bool Box2dSimulation::is_frozen(BodyIndex b) const { return impl_->table.frozen(b); }
void Box2dSimulation::set_restored_parts(const Box2dRestoredParts& parts) { impl_->restored = parts; }

std::size_t Box2dSimulation::body_count() const { return impl_->table.size(); }
ObjectId Box2dSimulation::body_id(BodyIndex b) const { return impl_->table.id(b); }
float Box2dSimulation::bounding_radius(BodyIndex b) const { return impl_->table.radius(b); }
std::uint16_t Box2dSimulation::body_type(BodyIndex b) const { return impl_->table.type(b); }
ObjectState Box2dSimulation::read(BodyIndex b) const { return impl_->table.state(b); }
std::size_t Box2dSimulation::user_bytes_size(std::uint16_t type) const { return impl_->table.user_bytes_size(type); }
void Box2dSimulation::read_user_bytes(BodyIndex b, std::span<std::uint8_t> out) const {
  impl_->table.read_user_bytes(b, out);
}
void Box2dSimulation::write_user_bytes(BodyIndex b, std::span<const std::uint8_t> bytes) {
  impl_->table.write_user_bytes(b, bytes);
}
std::optional<std::span<const BodyIndex>> Box2dSimulation::changed_bodies() const {
  return std::span<const BodyIndex>(impl_->table.changed());
}

void Box2dSimulation::write(BodyIndex b, const ObjectState& state) {
  Impl& m = *impl_;
  m.table.check(b, "write");
  m.table.check_finite(b, state, "write");
  if (m.empty_slot(b)) return;  // an empty slot ignores writes
  m.apply(b, state);
}

void Box2dSimulation::set_frozen(BodyIndex b, bool frozen) {
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

void Box2dSimulation::step(Frame, std::span<const BodyInput> inputs) {
  Impl& m = *impl_;
  for (const BodyInput& in : inputs) {
    if (in.body >= m.table.size()) {
      throw std::invalid_argument("Box2dSimulation::step: input for body " + std::to_string(in.body) +
                                  ", but there are only " + std::to_string(m.table.size()) + " bodies");
    }
  }
  if (m.world.GetSubStepping()) {
    throw std::logic_error("Box2dSimulation::step: the world's sub-stepping was turned on: expected it off");
  }
  m.check_every_dynamic_body_registered();
  if (box2d::Snapshot* snapshot = m.snapshots.take_marked()) m.take_snapshot(*snapshot);
  for (const BodyInput& in : inputs) {
    if (m.table.frozen(in.body) || m.empty_slot(in.body)) continue;
    if (m.input_handler) {
      m.input_handler(*m.bodies[in.body], in.input);
    } else {
      m.push(*m.bodies[in.body], in.input);
    }
  }
  for (BodyIndex b = 0; b < m.table.size(); ++b) m.was_awake[b] = m.bodies[b]->IsAwake() && !m.empty_slot(b) ? 1 : 0;
  m.world.Step(m.config.dt, m.config.velocity_iterations, m.config.position_iterations);
  // Only a body awake before or after the step can have moved (one asleep throughout kept its
  // pose and zero velocities): those are re-read and written back (see BodyTable).
  std::vector<BodyIndex>& changed = m.table.changed();
  changed.clear();
  for (BodyIndex b = 0; b < m.table.size(); ++b) {
    if (m.table.frozen(b) || m.empty_slot(b) || (m.was_awake[b] == 0 && !m.bodies[b]->IsAwake())) continue;
    changed.push_back(b);
    m.apply(b, m.engine_state(b));
  }
}

void Box2dSimulation::Impl::push(b2Body& body, const Input& input) const {
  const engines::GroundVector direction = engines::push_direction({input.axis.x, input.axis.y});
  if (direction.u == 0 && direction.v == 0) return;
  const b2Vec2 v = body.GetLinearVelocity();
  const engines::PushRule rule{config.push_acceleration, config.max_push_speed};
  const engines::GroundVector after = engines::pushed_velocity({v.x, v.y}, direction, rule, config.dt);
  body.SetAwake(true);
  body.SetLinearVelocity(b2Vec2(after.u, after.v));
}

ObjectState Box2dSimulation::Impl::engine_state(BodyIndex b) const {
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

void Box2dSimulation::Impl::apply(BodyIndex b, const ObjectState& s, bool resync) {
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

void Box2dSimulation::Impl::freeze(BodyIndex b) {
  table.set_frozen(b, true);
  if (empty_slot(b)) return;
  make_static(*bodies[b]);
  apply(b, table.state(b));
}

void Box2dSimulation::Impl::thaw(BodyIndex b) {
  if (!empty_slot(b)) make_dynamic(*bodies[b], masses[b]);
  table.set_frozen(b, false);
  apply(b, table.state(b));
}

void Box2dSimulation::Impl::make_static(b2Body& body) {
  // A static body: not stepped, an obstacle to the others. SetType also drops its contacts;
  // new ones are looked for at the next step's start.
  body.SetType(b2_staticBody);
  box2d_internals::new_contacts(world) = true;
}

void Box2dSimulation::Impl::make_dynamic(b2Body& body, const Mass& kept) {
  body.SetType(b2_dynamicBody);
  // SetType recomputed the mass from the fixtures, which need not be what the game set: its
  // centre goes back through SetMassData, the values themselves bit for bit.
  b2MassData data;
  data.mass = kept.exact.mass;
  data.center = kept.local_center;
  data.I = kept.exact.inertia + kept.exact.mass * b2Dot(kept.local_center, kept.local_center);
  body.SetMassData(&data);
  box2d_internals::set_mass(body, kept.exact);
  box2d_internals::new_contacts(world) = true;
}

void Box2dSimulation::Impl::check_every_dynamic_body_registered() {
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

}  // namespace shoal
