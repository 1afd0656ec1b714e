// SPDX-License-Identifier: MIT
// The layout on Shoal's reference physics: its arena is the layout's own (ground and walls are
// built in).
#include "engine_builders.hpp"
#include "shoal/reference_physics.hpp"

namespace shoal::samples {
namespace {

class ReferenceWorld final : public EngineWorld {
 public:
  explicit ReferenceWorld(const WorldSpec& spec) : EngineWorld(Physics::reference), physics_(config_of(spec)) {
    for (const BodySpec& body : spec.bodies) {
      if (body.shape == BodySpec::Shape::sphere) {
        physics_.add_sphere(body.id, body.size.x, body.mass, body.state);
      } else {
        physics_.add_box(body.id, body.size, body.mass, body.state);
      }
    }
    for (const SpawnSpec& spawned : spec.spawn_types) {
      if (spawned.shape == BodySpec::Shape::sphere) {
        physics_.set_spawn_sphere(spawned.type, spawned.size.x, spawned.mass);
      } else {
        physics_.set_spawn_box(spawned.type, spawned.size, spawned.mass);
      }
    }
    if (spec.spawn_slots > 0) physics_.add_spawn_slots(spec.spawn_slots);
  }
  Simulation& simulation() override { return physics_; }

 private:
  static ReferencePhysicsConfig config_of(const WorldSpec& spec) {
    ReferencePhysicsConfig c;
    c.arena_half_x = spec.half_x;
    c.arena_half_z = spec.half_z;
    c.linear_damping = spec.linear_damping;
    c.angular_damping = spec.angular_damping;
    c.push_acceleration = spec.push_acceleration;
    c.max_push_speed = spec.max_push_speed;
    return c;
  }

  ReferencePhysics physics_;
};

}  // namespace

std::unique_ptr<EngineWorld> make_reference_world(const WorldSpec& spec) {
  return std::make_unique<ReferenceWorld>(spec);
}

}  // namespace shoal::samples
