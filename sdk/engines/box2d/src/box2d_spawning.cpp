// SPDX-License-Identifier: MIT
// Box2dSimulation's spawn slots: Box2D's side (the slots' life is every adapter's:
// adapter_core.hpp, spawn_pool.hpp). A parked body is static, far below the world, apart from
// every other parked one, so it touches nothing; filling a slot makes its body dynamic where
// the spawn says. Box2D's bodies, fixtures and broad-phase proxies therefore never come or go
// during play: the contacts and the tree a saved frame holds stay valid whatever was spawned
// since, and a restore only needs which slots hold which body, which Shoal puts back before
// restore().
#include <string>

#include "box2d_simulation_impl.hpp"

namespace shoal {

b2Body& Box2dImpl::make_body(const Box2dSimulation::BodyMaker& make, const std::string& which) {
  const int before = world.GetBodyCount();
  b2Body& body = make(world);
  if (body.GetWorld() != &world || world.GetBodyCount() != before + 1) {
    table.fail("add_spawn_slots", which + " is not a body the maker just created in this world");
  }
  if (body.GetType() != b2_dynamicBody) table.fail("add_spawn_slots", which + " is static or kinematic");
  return body;
}

void Box2dImpl::park(b2Body& body, std::size_t n) {
  if (body.GetType() != b2_staticBody) make_static(body);
  const auto [x, y] = engines::parking_spot(n);
  body.SetTransform(b2Vec2(x, y), 0);
}

}  // namespace shoal
