// SPDX-License-Identifier: MIT
// One builder per engine (reference_arena.cpp, bullet_arena.cpp, box2d_arena.cpp), for
// make_engine_world.
#pragma once

#include "engine_world.hpp"

namespace shoal::samples {

std::unique_ptr<EngineWorld> make_reference_world(const WorldSpec& spec);
std::unique_ptr<EngineWorld> make_bullet_world(const WorldSpec& spec);
std::unique_ptr<EngineWorld> make_box2d_world(const WorldSpec& spec);

}  // namespace shoal::samples
