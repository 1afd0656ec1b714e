// SPDX-License-Identifier: MIT
// A Bullet world that a catch-up can rewind: what shoal::BulletSimulation runs on.
//
//   shoal::BulletWorld world({0, -9.81f, 0});
//   world.dynamics().addRigidBody(&ground);          // the game builds its world as usual,
//   world.dynamics().addRigidBody(&crate);           // the same way on every peer
//   shoal::BulletSimulation simulation(world, {});
//   simulation.add_body(/*id*/ 100, crate);          // then registers the bodies Shoal shares
#pragma once

#include <memory>

#include "shoal/math.hpp"

class btDiscreteDynamicsWorld;

namespace shoal {

/// A btDiscreteDynamicsWorld with Bullet's default collision configuration and sequential
/// impulse solver, and two parts of Shoal's own in place of Bullet's: a broad phase that finds
/// exactly the pairs whose boxes overlap, every step, kept sorted by the bodies' creation order;
/// and a dispatcher that orders contact manifolds like their pairs. Bullet's own parts order
/// pairs and contacts by the history of the world (what moved when, what was removed before
/// it), which reaches the solver's results and which no restore can rebuild. With these, that
/// order depends only on the world as it is. Everything else is Bullet's: the game adds its
/// static and dynamic rigid bodies to dynamics() as usual.
class BulletWorld {
 public:
  explicit BulletWorld(Vec3 gravity = {0, -9.81f, 0});
  ~BulletWorld();
  BulletWorld(const BulletWorld&) = delete;
  BulletWorld& operator=(const BulletWorld&) = delete;

  btDiscreteDynamicsWorld& dynamics();
  const btDiscreteDynamicsWorld& dynamics() const;

  struct Parts;  ///< the dispatcher, broad phase and solver (the adapter's business)
  Parts& parts();

 private:
  std::unique_ptr<Parts> parts_;
};

}  // namespace shoal
