// SPDX-License-Identifier: MIT
// What BulletWorld is made of, for the adapter that steps, saves and restores it.
#pragma once

#include <btBulletDynamicsCommon.h>

#include "pair_ordered_dispatcher.hpp"
#include "shoal/bullet_world.hpp"
#include "sweep_broadphase.hpp"

namespace shoal {

struct BulletWorld::Parts {
  explicit Parts(Vec3 gravity) {
    dynamics.setGravity(btVector3(gravity.x, gravity.y, gravity.z));
  }

  btDefaultCollisionConfiguration configuration;
  bullet::PairOrderedDispatcher dispatcher{&configuration};
  bullet::SweepBroadphase broadphase;
  btSequentialImpulseConstraintSolver solver;
  btDiscreteDynamicsWorld dynamics{&dispatcher, &broadphase, &solver, &configuration};
};

}  // namespace shoal
