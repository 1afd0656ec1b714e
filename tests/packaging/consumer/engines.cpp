// SPDX-License-Identifier: MIT
// A game in miniature on each engine adapter the installed Shoal has (SHOAL_CONSUMER_BULLET,
// SHOAL_CONSUMER_BOX2D): the game's own world with a falling ball, registered with the
// adapter and stepped by a Peer hosting a match for a few frames.
#include <cstdio>

#include <shoal/peer.hpp>

#ifdef SHOAL_CONSUMER_BULLET
#include <btBulletDynamicsCommon.h>

#include <shoal/bullet_simulation.hpp>
#endif
#ifdef SHOAL_CONSUMER_BOX2D
#include <box2d/box2d.h>

#include <shoal/box2d_simulation.hpp>
#endif

namespace {

// Hosts a match on `simulation` for 30 frames; whether body 0 (the ball) fell below y = 2.
bool ball_falls(shoal::Simulation& simulation, const char* engine) {
  shoal::TransportConfig transport;
  transport.security.enabled = false;  // one peer alone: no link to secure
  shoal::Peer peer(shoal::PeerConfig{}, simulation, shoal::make_enet_transport(transport));
  peer.set_controlled(1);
  peer.host();
  std::int64_t now_us = 0;
  for (int i = 0; i < 30; ++i) peer.update_at(now_us += 16'667);
  const float height = peer.state(1).position.y;
  std::printf("consumer (%s): frame %d, ball at y=%.3f\n", engine, peer.frame(), static_cast<double>(height));
  return peer.in_match() && peer.frame() >= 25 && height < 2.0f;
}

}  // namespace

int main() {
  int failures = 0;
#ifdef SHOAL_CONSUMER_BULLET
  {
    shoal::BulletWorld world;
    btSphereShape shape(0.5f);
    btVector3 inertia;
    shape.calculateLocalInertia(1, inertia);
    btRigidBody::btRigidBodyConstructionInfo info(1, nullptr, &shape, inertia);
    info.m_startWorldTransform.setOrigin(btVector3(0, 2, 0));
    btRigidBody ball(info);
    world.dynamics().addRigidBody(&ball);
    {
      shoal::BulletSimulation simulation(world, {});
      simulation.add_body(1, ball);
      failures += ball_falls(simulation, "bullet") ? 0 : 1;
    }
    world.dynamics().removeRigidBody(&ball);
  }
#endif
#ifdef SHOAL_CONSUMER_BOX2D
  {
    b2World world(b2Vec2(0, -9.81f));
    b2BodyDef def;
    def.type = b2_dynamicBody;
    def.position.Set(0, 2);
    b2Body* ball = world.CreateBody(&def);
    b2CircleShape disc;
    disc.m_radius = 0.5f;
    ball->CreateFixture(&disc, 1);
    shoal::Box2dSimulation simulation(world, {});
    simulation.add_body(1, *ball);
    failures += ball_falls(simulation, "box2d") ? 0 : 1;
  }
#endif
  return failures;
}
