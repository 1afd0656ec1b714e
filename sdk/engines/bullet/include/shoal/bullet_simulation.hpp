// SPDX-License-Identifier: MIT
// Bullet (3D) behind shoal::Simulation: the game's rigid bodies, in a shoal::BulletWorld,
// stepped, saved and restored so that catch-up and sync-test mode reproduce a straight run.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>

#include "shoal/bullet_world.hpp"
#include "shoal/engine_simulation.hpp"

class btRigidBody;

namespace shoal {

/// Every field is checked by BulletSimulation's constructor; a bad value throws
/// std::invalid_argument naming the field, the value and what is expected.
struct BulletSimulationConfig {
  float dt = 1.0f / 60.0f;         ///< seconds per step, (0, 1]
  float push_acceleration = 20;    ///< built-in input rule: m/s^2 of a full Input.axis push, >= 0
  float max_push_speed = 6;        ///< m/s: pushing does not speed a body past this, >= 0
  int history_frames = 64;         ///< frames of engine-private state kept, >= 1 (at least the peer's)
};

/// What restore() puts back; everything by default. Leaving a part out is a diagnostic: it
/// shows what that part is worth (sync-test mode then reports desyncs, and a match more
/// overrides and catch-ups).
struct BulletRestoredParts {
  bool contacts = true;     ///< pairs, collision algorithms and their manifolds' points
  bool activation = true;   ///< activation states and deactivation timers
  bool solver_seed = true;  ///< the sequential impulse solver's random seed
};

/// The adapter; EngineSimulation has the calls every adapter shares. add_body() takes dynamic
/// bodies already in world.dynamics(), without continuous collision detection (its predictive
/// contacts are not restored); an input handler acts through the btRigidBody (velocities,
/// forces, activate()); a spawn maker adds its body to world.dynamics() before returning it.
/// No collision object comes or goes during play, so the world's object order stays valid.
///
/// Mapping: ObjectState is the body's centre-of-mass transform (Bullet's world transform) and
/// its velocities; at_rest is Bullet's ISLAND_SLEEPING. Inputs: by default Input.axis x and z
/// push the body horizontally (y is up), as in the reference physics; set_input_handler()
/// replaces that rule. Changed bodies: those active before or after the step. Frozen bodies are
/// made static in place (zero linear and angular factors, a static flag, asleep) and get their
/// factors, velocities and activation back when unfrozen.
///
/// What a step depends on beyond ObjectState, saved per frame and restored exactly:
///  - every overlapping pair, whether it has a collision algorithm, and each of its contact
///    manifolds with all their points (warm-start impulses, lifetimes, friction directions);
///  - each body's activation state and deactivation timer, and what freezing set aside;
///  - the solver's random seed (used when SOLVER_RANDMIZE_ORDER is set).
/// The order of pairs and of manifolds is not saved: BulletWorld makes it a function of the
/// world as it is (sorted), so there is nothing to restore.
///
/// Limits (what is not restored; keep them out of a shared world):
///  - joints (btTypedConstraint): their accumulated impulses are not saved, so a catch-up across
///    a joint is deterministic but not a bitwise replay;
///  - continuous collision detection (its predictive contacts) and kinematic bodies: add_body
///    refuses them; soft bodies, ghost objects and contact callbacks with state of their own;
///  - determinism holds in one build on one kind of CPU: Bullet picks its solver's SIMD code
///    (SSE2, SSE4.1 with FMA) at run time, and the two round differently.
/// Two peers with the same states but different histories can still differ in a contact's
/// warm-start impulses, as with the reference physics: tolerant compare and catch-up absorb it.
class BulletSimulation final : public EngineSimulation<BulletSimulation, btRigidBody, BulletWorld> {
 public:
  /// Throws std::invalid_argument for a bad config field.
  BulletSimulation(BulletWorld& world, const BulletSimulationConfig& config);
  void set_restored_parts(const BulletRestoredParts& parts);
};

extern template class EngineSimulation<BulletSimulation, btRigidBody, BulletWorld>;

}  // namespace shoal
