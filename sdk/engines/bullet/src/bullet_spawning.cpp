// SPDX-License-Identifier: MIT
// BulletSimulation's spawn slots: Bullet's side (the slots' life is every adapter's:
// adapter_core.hpp, spawn_pool.hpp). A parked body is static and asleep (as freezing makes a
// body), far below the world, apart from every other parked one, so the narrow phase never
// pairs it with anything that moves; filling a slot makes its body dynamic where the spawn
// says. No collision object comes or goes during play: the world's object order, which Bullet
// steps in, and the pairs a saved frame names stay as they were, and a restore only needs
// which slots hold which body, which Shoal puts back before restore().
#include <string>

#include "bullet_simulation_impl.hpp"

namespace shoal {

btRigidBody& BulletImpl::make_body(const BulletSimulation::BodyMaker& make, const std::string& which) {
  btRigidBody& body = make(world);
  check_new_body(body, "add_spawn_slots", which);
  return body;
}

void BulletImpl::park(btRigidBody& body, std::size_t n) {
  make_static(body);
  const auto [x, y] = engines::parking_spot(n);
  body.setLinearVelocity(btVector3(0, 0, 0));
  body.setAngularVelocity(btVector3(0, 0, 0));
  body.setCenterOfMassTransform(btTransform(btQuaternion(0, 0, 0, 1), btVector3(x, y, 0)));
}

}  // namespace shoal
