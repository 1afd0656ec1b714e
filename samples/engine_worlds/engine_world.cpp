// SPDX-License-Identifier: MIT
#include <stdexcept>
#include <string>

#include "engine_builders.hpp"

namespace shoal::samples {

std::unique_ptr<EngineWorld> make_engine_world(Physics physics, const WorldSpec& spec) {
  if (!built_with(physics)) throw std::invalid_argument(physics_problem(name(physics)));
  if (spec.spawn_slots > 0 && physics != Physics::reference) {
    throw std::invalid_argument(std::string("objects spawned during play need the reference physics: the ") +
                                name(physics) + " adapter has no spawn slots yet");
  }
  switch (physics) {
    case Physics::reference: return make_reference_world(spec);
#ifdef SHOAL_WITH_BULLET
    case Physics::bullet: return make_bullet_world(spec);
#endif
#ifdef SHOAL_WITH_BOX2D
    case Physics::box2d: return make_box2d_world(spec);
#endif
    default: break;
  }
  throw std::invalid_argument(physics_problem(name(physics)));
}

}  // namespace shoal::samples
