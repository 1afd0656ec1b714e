// SPDX-License-Identifier: MIT
// A busy Bullet scene for the adapter's tests: a walled floor, two stacks of boxes, loose
// spheres, and a ball a bot pushes into them (ids as in tests/peer/match_harness.hpp: the ball
// is kFirstBall, the objects kFirstObject + i). Stacks topple, bodies fall asleep and are woken.
#pragma once

#include <btBulletDynamicsCommon.h>

#include <memory>
#include <vector>

#include "shoal/bullet_simulation.hpp"
#include "peer/match_harness.hpp"

namespace shoal::test {

class BulletScene {
 public:
  static constexpr int kObjects = 14;  // shared objects (the stacks and the spheres)

  explicit BulletScene(const BulletSimulationConfig& config = {}) : simulation(world, config) {
    add_static(std::make_unique<btStaticPlaneShape>(btVector3(0, 1, 0), 0));
    for (int side = 0; side < 4; ++side) {
      const btVector3 normal = side == 0 ? btVector3(1, 0, 0) : side == 1 ? btVector3(-1, 0, 0)
                             : side == 2 ? btVector3(0, 0, 1) : btVector3(0, 0, -1);
      add_static(std::make_unique<btStaticPlaneShape>(normal, -kHalfExtent));
    }
    add(kFirstBall, std::make_unique<btSphereShape>(0.5f), 2, {-5, 0.5f, 0});
    int i = 0;
    for (int stack = 0; stack < 2; ++stack) {
      for (int level = 0; level < 5; ++level, ++i) {
        add(kFirstObject + static_cast<ObjectId>(i), std::make_unique<btBoxShape>(btVector3(0.4f, 0.4f, 0.4f)), 1,
            {static_cast<float>(stack) * 2.5f, 0.4f + 0.8f * static_cast<float>(level), 0.1f * static_cast<float>(level)});
      }
    }
    for (; i < kObjects; ++i) {
      add(kFirstObject + static_cast<ObjectId>(i), std::make_unique<btSphereShape>(0.4f), 1,
          {-2.0f + static_cast<float>(i % 2) * 3, 0.4f, 3.0f - static_cast<float>(i % 3) * 3});
    }
  }

  ~BulletScene() {
    for (auto& body : bodies_) world.dynamics().removeRigidBody(body.get());
  }
  BulletScene(const BulletScene&) = delete;
  BulletScene& operator=(const BulletScene&) = delete;

  static constexpr float kHalfExtent = 8;
  BulletWorld world;
  BulletSimulation simulation;

 private:
  btRigidBody& make(std::unique_ptr<btCollisionShape> shape, float mass, btVector3 at) {
    btVector3 inertia(0, 0, 0);
    if (mass > 0) shape->calculateLocalInertia(mass, inertia);
    btRigidBody::btRigidBodyConstructionInfo info(mass, nullptr, shape.get(), inertia);
    info.m_startWorldTransform.setOrigin(at);
    info.m_friction = 0.5f;
    info.m_restitution = 0.3f;
    info.m_linearDamping = 0.05f;
    info.m_angularDamping = 0.1f;
    shapes_.push_back(std::move(shape));
    bodies_.push_back(std::make_unique<btRigidBody>(info));
    world.dynamics().addRigidBody(bodies_.back().get());
    return *bodies_.back();
  }
  void add_static(std::unique_ptr<btCollisionShape> shape) { make(std::move(shape), 0, {0, 0, 0}); }
  void add(ObjectId id, std::unique_ptr<btCollisionShape> shape, float mass, btVector3 at) {
    simulation.add_body(id, make(std::move(shape), mass, at));
  }

  std::vector<std::unique_ptr<btCollisionShape>> shapes_;
  std::vector<std::unique_ptr<btRigidBody>> bodies_;
};

/// The scene with three spawn slots: shots (small heavy spheres) and crates.
class BulletSpawnScene : public BulletScene {
 public:
  static constexpr std::uint16_t kShot = 21, kCrate = 22;

  BulletSpawnScene() {
    simulation.set_spawn_type(kShot, [this](BulletWorld& w) -> btRigidBody& {
      return make(w, std::make_unique<btSphereShape>(0.2f), 1.5f);
    });
    simulation.set_spawn_type(kCrate, [this](BulletWorld& w) -> btRigidBody& {
      return make(w, std::make_unique<btBoxShape>(btVector3(0.3f, 0.3f, 0.3f)), 0.5f);
    });
    simulation.add_spawn_slots(3);
  }
  ~BulletSpawnScene() {
    for (auto& body : made_) world.dynamics().removeRigidBody(body.get());
  }
  BulletSpawnScene(const BulletSpawnScene&) = delete;
  BulletSpawnScene& operator=(const BulletSpawnScene&) = delete;

 private:
  btRigidBody& make(BulletWorld& w, std::unique_ptr<btCollisionShape> shape, float mass) {
    btVector3 inertia(0, 0, 0);
    shape->calculateLocalInertia(mass, inertia);
    btRigidBody::btRigidBodyConstructionInfo info(mass, nullptr, shape.get(), inertia);
    info.m_friction = 0.5f;
    info.m_restitution = 0.3f;
    info.m_linearDamping = 0.05f;
    made_shapes_.push_back(std::move(shape));
    made_.push_back(std::make_unique<btRigidBody>(info));
    w.dynamics().addRigidBody(made_.back().get());
    return *made_.back();
  }

  std::vector<std::unique_ptr<btCollisionShape>> made_shapes_;
  std::vector<std::unique_ptr<btRigidBody>> made_;
};

}  // namespace shoal::test
