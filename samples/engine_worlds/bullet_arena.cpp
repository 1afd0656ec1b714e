// SPDX-License-Identifier: MIT
// The layout on Bullet: a static plane for the ground and one per wall, a rigid body per body.
#include <btBulletDynamicsCommon.h>

#include <cmath>
#include <optional>
#include <vector>

#include "engine_builders.hpp"
#include "shoal/bullet_simulation.hpp"

namespace shoal::samples {
namespace {

class BulletArena final : public EngineWorld {
 public:
  explicit BulletArena(const WorldSpec& spec) : EngineWorld(Physics::bullet) {
    add(std::make_unique<btStaticPlaneShape>(btVector3(0, 1, 0), 0), 0, {});
    add(std::make_unique<btStaticPlaneShape>(btVector3(1, 0, 0), -spec.half_x), 0, {});
    add(std::make_unique<btStaticPlaneShape>(btVector3(-1, 0, 0), -spec.half_x), 0, {});
    add(std::make_unique<btStaticPlaneShape>(btVector3(0, 0, 1), -spec.half_z), 0, {});
    add(std::make_unique<btStaticPlaneShape>(btVector3(0, 0, -1), -spec.half_z), 0, {});
    BulletSimulationConfig config;
    config.push_acceleration = spec.push_acceleration;
    config.max_push_speed = spec.max_push_speed;
    simulation_.emplace(world_, config);
    simulation_->set_restored_parts({.contacts = spec.restore_contacts});
    // Bullet damps by (1 - d) per second where the reference physics divides by 1 + r dt per
    // step: the same slowing per second for d = 1 - e^-r.
    const float linear = 1 - std::exp(-spec.linear_damping);
    const float angular = 1 - std::exp(-spec.angular_damping);
    for (const BodySpec& body : spec.bodies) {
      std::unique_ptr<btCollisionShape> shape;
      if (body.shape == BodySpec::Shape::sphere) {
        shape = std::make_unique<btSphereShape>(body.size.x);
      } else {
        shape = std::make_unique<btBoxShape>(btVector3(body.size.x, body.size.y, body.size.z));
      }
      btRigidBody& added = add(std::move(shape), body.mass, body.state);
      added.setDamping(linear, angular);
      const BodyIndex index = simulation_->add_body(body.id, added);
      simulation_->write(index, body.state);  // asleep if the layout says so
    }
  }

  ~BulletArena() override {
    simulation_.reset();
    for (auto& body : bodies_) world_.dynamics().removeRigidBody(body.get());
  }

  Simulation& simulation() override { return *simulation_; }

 private:
  btRigidBody& add(std::unique_ptr<btCollisionShape> shape, float mass, const ObjectState& state) {
    btVector3 inertia(0, 0, 0);
    if (mass > 0) shape->calculateLocalInertia(mass, inertia);
    btRigidBody::btRigidBodyConstructionInfo info(mass, nullptr, shape.get(), inertia);
    info.m_startWorldTransform.setOrigin(btVector3(state.position.x, state.position.y, state.position.z));
    info.m_startWorldTransform.setRotation(
        btQuaternion(state.orientation.x, state.orientation.y, state.orientation.z, state.orientation.w));
    info.m_friction = 0.5f;     // the reference physics' defaults
    info.m_restitution = 0.3f;
    shapes_.push_back(std::move(shape));
    bodies_.push_back(std::make_unique<btRigidBody>(info));
    world_.dynamics().addRigidBody(bodies_.back().get());
    return *bodies_.back();
  }

  BulletWorld world_;
  std::vector<std::unique_ptr<btCollisionShape>> shapes_;
  std::vector<std::unique_ptr<btRigidBody>> bodies_;
  std::optional<BulletSimulation> simulation_;
};

}  // namespace

std::unique_ptr<EngineWorld> make_bullet_world(const WorldSpec& spec) { return std::make_unique<BulletArena>(spec); }

}  // namespace shoal::samples
