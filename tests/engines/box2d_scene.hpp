// SPDX-License-Identifier: MIT
// A busy Box2D scene for the adapter's tests, seen from the side (gravity along -y): a walled
// floor, two stacks of boxes, loose discs, and a ball a bot pushes into them along x (ids as
// in tests/peer/match_harness.hpp: the ball is kFirstBall, the objects kFirstObject + i).
// Stacks topple, bodies fall asleep and are woken.
#pragma once

#include <box2d/box2d.h>

#include "shoal/box2d_simulation.hpp"
#include "peer/match_harness.hpp"

namespace shoal::test {

class Box2dScene {
 public:
  static constexpr int kObjects = 14;  // shared objects (the stacks and the discs)
  static constexpr float kHalfWidth = 8;

  explicit Box2dScene(const Box2dSimulationConfig& config = {}) : world(b2Vec2(0, -9.81f)), simulation(world, config) {
    add_static({0, -0.5f}, {kHalfWidth + 1, 0.5f});
    add_static({-kHalfWidth - 0.5f, 5}, {0.5f, 5});
    add_static({kHalfWidth + 0.5f, 5}, {0.5f, 5});
    b2CircleShape ball;
    ball.m_radius = 0.5f;
    add(kFirstBall, ball, 2.5f, {-5, 0.5f});
    int i = 0;
    for (int stack = 0; stack < 2; ++stack) {
      for (int level = 0; level < 5; ++level, ++i) {
        b2PolygonShape box;
        box.SetAsBox(0.4f, 0.4f);
        add(kFirstObject + static_cast<ObjectId>(i), box, 1.5f,
            {static_cast<float>(stack) * 2.5f + 0.05f * static_cast<float>(level), 0.4f + 0.8f * static_cast<float>(level)});
      }
    }
    for (; i < kObjects; ++i) {
      b2CircleShape disc;
      disc.m_radius = 0.4f;
      add(kFirstObject + static_cast<ObjectId>(i), disc, 2, {-3.0f + static_cast<float>(i - 10) * 2.2f, 0.4f});
    }
  }
  Box2dScene(const Box2dScene&) = delete;
  Box2dScene& operator=(const Box2dScene&) = delete;

  b2World world;
  Box2dSimulation simulation;

 private:
  void add_static(b2Vec2 center, b2Vec2 half) {
    b2BodyDef def;
    def.position = center;
    b2PolygonShape box;
    box.SetAsBox(half.x, half.y);
    world.CreateBody(&def)->CreateFixture(&box, 0);
  }
  void add(ObjectId id, const b2Shape& shape, float density, b2Vec2 at) {
    simulation.add_body(id, make_body(world, shape, density, at));
  }

 protected:
  // A dynamic body of one fixture, as every body of the scene is made.
  static b2Body& make_body(b2World& w, const b2Shape& shape, float density, b2Vec2 at = {0, 0}) {
    b2BodyDef def;
    def.type = b2_dynamicBody;
    def.position = at;
    def.linearDamping = 0.05f;
    def.angularDamping = 0.1f;
    b2Body* body = w.CreateBody(&def);
    b2FixtureDef fixture;
    fixture.shape = &shape;
    fixture.density = density;
    fixture.friction = 0.5f;
    fixture.restitution = 0.3f;
    body->CreateFixture(&fixture);
    return *body;
  }
};

/// The scene with three spawn slots: shots (small heavy discs) and crates.
class Box2dSpawnScene : public Box2dScene {
 public:
  static constexpr std::uint16_t kShot = 21, kCrate = 22;

  Box2dSpawnScene() {
    simulation.set_spawn_type(kShot, [](b2World& w) -> b2Body& {
      b2CircleShape disc;
      disc.m_radius = 0.2f;
      return make_body(w, disc, 6);
    });
    simulation.set_spawn_type(kCrate, [](b2World& w) -> b2Body& {
      b2PolygonShape box;
      box.SetAsBox(0.3f, 0.3f);
      return make_body(w, box, 1);
    });
    simulation.add_spawn_slots(3);
  }
};

}  // namespace shoal::test
