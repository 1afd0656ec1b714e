// SPDX-License-Identifier: MIT
// The layout on Box2D, seen from above: the ground's x and z are the plane's x and y, no
// gravity, a static box per wall, a circle or a box per body.
#include <box2d/box2d.h>

#include <numbers>
#include <optional>

#include "engine_builders.hpp"
#include "shoal/box2d_simulation.hpp"

namespace shoal::samples {
namespace {

// Seen from above nothing rubs on the ground, so this much more damping (1/s) stands in for
// the ground friction that stops bodies in 3D: a push at full speed dies out in about 2 s.
constexpr float kGroundDamping = 2.5f;
constexpr float kWallThickness = 1;

class Box2dArena final : public EngineWorld {
 public:
  explicit Box2dArena(const WorldSpec& spec) : EngineWorld(Physics::box2d), world_(b2Vec2(0, 0)) {
    wall({0, -spec.half_z - kWallThickness}, {spec.half_x + 2 * kWallThickness, kWallThickness});
    wall({0, spec.half_z + kWallThickness}, {spec.half_x + 2 * kWallThickness, kWallThickness});
    wall({-spec.half_x - kWallThickness, 0}, {kWallThickness, spec.half_z});
    wall({spec.half_x + kWallThickness, 0}, {kWallThickness, spec.half_z});
    Box2dSimulationConfig config;
    config.push_acceleration = spec.push_acceleration;
    config.max_push_speed = spec.max_push_speed;
    simulation_.emplace(world_, config);
    simulation_->set_restored_parts({.contacts = spec.restore_contacts});
    for (const BodySpec& spec_body : spec.bodies) {
      b2BodyDef def;
      def.type = b2_dynamicBody;
      def.position.Set(spec_body.state.position.x, spec_body.state.position.z);
      def.linearVelocity.Set(spec_body.state.linear_velocity.x, spec_body.state.linear_velocity.z);
      def.linearDamping = spec.linear_damping + kGroundDamping;
      def.angularDamping = spec.angular_damping + kGroundDamping;
      b2Body* body = world_.CreateBody(&def);
      b2FixtureDef fixture;
      fixture.friction = 0.5f;  // the reference physics' defaults
      fixture.restitution = 0.3f;
      b2CircleShape circle;
      b2PolygonShape box;
      if (spec_body.shape == BodySpec::Shape::sphere) {
        circle.m_radius = spec_body.size.x;
        fixture.shape = &circle;
        fixture.density = spec_body.mass / (std::numbers::pi_v<float> * circle.m_radius * circle.m_radius);
      } else {
        box.SetAsBox(spec_body.size.x, spec_body.size.z);
        fixture.shape = &box;
        fixture.density = spec_body.mass / (4 * spec_body.size.x * spec_body.size.z);
      }
      body->CreateFixture(&fixture);
      const BodyIndex index = simulation_->add_body(spec_body.id, *body);
      ObjectState on_plane = simulation_->read(index);
      on_plane.at_rest = spec_body.state.at_rest;
      if (on_plane.at_rest) on_plane.linear_velocity = on_plane.angular_velocity = {};
      simulation_->write(index, on_plane);  // asleep if the layout says so
    }
  }

  Simulation& simulation() override { return *simulation_; }

 private:
  void wall(b2Vec2 center, b2Vec2 half) {
    b2BodyDef def;
    def.position = center;
    b2PolygonShape box;
    box.SetAsBox(half.x, half.y);
    world_.CreateBody(&def)->CreateFixture(&box, 0);
  }

  b2World world_;
  std::optional<Box2dSimulation> simulation_;
};

}  // namespace

std::unique_ptr<EngineWorld> make_box2d_world(const WorldSpec& spec) { return std::make_unique<Box2dArena>(spec); }

}  // namespace shoal::samples
