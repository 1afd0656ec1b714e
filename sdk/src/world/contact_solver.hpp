// SPDX-License-Identifier: MIT
// Sequential-impulse contact solver with Coulomb friction, restitution and split-impulse
// position correction (pseudo velocities that move bodies apart without adding energy).
#pragma once

#include <span>

#include "shoal/simulation.hpp"
#include "world/rigid_math.hpp"

namespace shoal::world {

/// A body as the solver sees it. Bodies that must not move (static or asleep) have zero
/// inverse mass and inertia, so impulses leave them untouched.
struct SolverBody {
  Vec3 position;
  Vec3 velocity;
  Vec3 angular_velocity;
  Vec3 pseudo_velocity;          // split impulse: applied to the position only, then dropped
  Vec3 pseudo_angular_velocity;
  float inverse_mass = 0;
  Mat3 inverse_inertia;          // world space
};

struct SolverContact {
  BodyIndex a = 0;  // solver body indices; a static sentinel body stands in for planes
  BodyIndex b = 0;
  Vec3 point;
  Vec3 normal;      // from a to b
  float separation = 0;
  // Filled by prepare_contacts():
  Vec3 tangent1, tangent2, ra, rb;
  float normal_mass = 0, tangent1_mass = 0, tangent2_mass = 0;
  float target_normal_speed = 0;  // restitution bounce, or closing a speculative gap
  float target_pseudo_speed = 0;  // pushes overlapping bodies apart
  float normal_impulse = 0, tangent1_impulse = 0, tangent2_impulse = 0, pseudo_impulse = 0;
};

struct SolverSettings {
  float dt = 1.0f / 60.0f;
  float restitution = 0;
  float friction = 0;
  int iterations = 10;
};

/// Computes each contact's lever arms, effective masses and targets from the bodies' current
/// (gravity-applied) velocities, then applies the impulses the contacts start with (warm start;
/// zero for new contacts).
void prepare_contacts(std::span<SolverContact> contacts, std::span<SolverBody> bodies,
                      const SolverSettings& settings);

/// Runs settings.iterations passes over the contacts in order.
void solve_contacts(std::span<SolverContact> contacts, std::span<SolverBody> bodies,
                    const SolverSettings& settings);

}  // namespace shoal::world
