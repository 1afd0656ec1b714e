// SPDX-License-Identifier: MIT
#include "bullet_world_parts.hpp"

namespace shoal {

BulletWorld::BulletWorld(Vec3 gravity) : parts_(std::make_unique<Parts>(gravity)) {}

BulletWorld::~BulletWorld() = default;

btDiscreteDynamicsWorld& BulletWorld::dynamics() { return parts_->dynamics; }
const btDiscreteDynamicsWorld& BulletWorld::dynamics() const { return parts_->dynamics; }
BulletWorld::Parts& BulletWorld::parts() { return *parts_; }

}  // namespace shoal
