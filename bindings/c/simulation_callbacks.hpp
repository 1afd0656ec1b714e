// SPDX-License-Identifier: MIT
// A C++ shoal::Simulation offered to C as shoal_simulation_callbacks: how the engine worlds
// built from C (shoal_box2d.h, shoal_bullet.h) hand themselves to shoal_simulation_create().
#pragma once

#include <vector>

#include "shoal/shoal.h"
#include "shoal/simulation.hpp"

namespace shoal_c {

/// What the callbacks' `user` points to: the simulation, and the step's inputs converted from C.
struct SimulationUser {
  explicit SimulationUser(shoal::Simulation& s) : simulation(s) {}
  shoal::Simulation& simulation;
  std::vector<shoal::BodyInput> inputs;  // reused every step
};

/// Every callback the simulation implements (body types and user bytes are left NULL: the C
/// worlds give their bodies none). `user` must outlive every use of them.
shoal_simulation_callbacks simulation_callbacks(SimulationUser& user);
/// The simulation's spawn slots and its add_body / remove_body, for shoal_simulation_set_spawning.
shoal_spawn_callbacks spawn_callbacks(SimulationUser& user);

}  // namespace shoal_c
