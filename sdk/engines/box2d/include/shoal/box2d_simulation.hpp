// SPDX-License-Identifier: MIT
// Box2D (2D) behind shoal::Simulation: the game's b2World and its bodies, stepped, saved and
// restored so that catch-up and sync-test mode reproduce a straight run.
//
//   b2World world(b2Vec2(0, -9.81f));                     // the game's world, built the same
//   b2Body* crate = world.CreateBody(&crate_def);        // way on every peer
//   shoal::Box2dSimulation simulation(world, {});
//   simulation.add_body(/*id*/ 100, *crate);             // the bodies Shoal shares
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>

#include "shoal/engine_simulation.hpp"

class b2Body;
class b2World;

namespace shoal {

/// Every field is checked by Box2dSimulation's constructor; a bad value throws
/// std::invalid_argument naming the field, the value and what is expected.
struct Box2dSimulationConfig {
  float dt = 1.0f / 60.0f;       ///< seconds per step, (0, 1]
  int velocity_iterations = 8;   ///< b2World::Step's, 1..256
  int position_iterations = 3;   ///< b2World::Step's, 1..256
  float push_acceleration = 20;  ///< built-in input rule: m/s^2 of a full Input.axis push, >= 0
  float max_push_speed = 6;      ///< m/s: pushing does not speed a body past this, >= 0
  int history_frames = 64;       ///< frames of engine-private state kept, >= 1 (at least the peer's)
};

/// What restore() puts back; everything by default. Leaving a part out is a diagnostic: it
/// shows what that part is worth (sync-test mode then reports desyncs, and a match more
/// overrides and catch-ups).
struct Box2dRestoredParts {
  bool contacts = true;     ///< the contact list: manifolds with their impulses, flags, order
  bool sleep = true;        ///< sleep timers and body flags (awake, island)
  bool broad_phase = true;  ///< the broad phase's tree (its boxes and shape) and move buffer
};

/// The adapter; EngineSimulation has the calls every adapter shares. add_body() takes dynamic
/// bodies of the b2World given here (not static or kinematic ones); an input handler acts
/// through the b2Body (velocities, forces, SetAwake); a spawn maker returns a new dynamic body
/// of the world, and a parked one is static, so Box2D's bodies, fixtures and broad-phase
/// proxies never come or go during play.
///
/// Mapping, on the plane: position (x, y, 0), orientation the rotation by the body's angle
/// about z, linear velocity (vx, vy, 0), angular velocity (0, 0, w); at_rest is !IsAwake().
/// write() takes the angle from the orientation's rotation about z; its other parts, like
/// position z, are kept for read() but do not reach the engine. Regions, snapshots and
/// smoothing are Shoal's 3D ones, unchanged: z stays 0. Inputs: by
/// default Input.axis x and y push the body in the plane; set_input_handler() replaces that
/// rule (a platformer pushes along x only). Changed bodies: those awake before or after the
/// step. Frozen bodies become static (b2Body::SetType) and get their mass, velocities and
/// sleep state back when unfrozen.
///
/// What a step depends on beyond ObjectState, saved per frame and restored exactly:
///  - every contact, in the world's list order (which is each body's contact order too, and so
///    the order of the solver's islands): its manifold with the warm-start impulses, its flags
///    (touching, enabled), friction, restitution, tangent speed and time of impact;
///  - each body's sleep timer and flags (awake, island);
///  - the broad phase: the tree of enlarged boxes, node for node (its shape decides the order of
///    new contacts), the proxies waiting for new pairs, and whether new contacts are pending.
/// Box2D offers no access to any of these: the adapter reaches its private members by name
/// (src/box2d_internals.*), so it builds against Box2D 2.4 only.
///
/// Limits (what is not restored; keep them out of a shared world):
///  - joints: their accumulated impulses are not saved, so a catch-up across a joint is
///    deterministic but not a bitwise replay;
///  - kinematic bodies (moved by the game: add_body refuses them) and sub-stepping (refused);
///  - contact listeners: restore() rebuilds the contact list without calling them, but a
///    listener that changes contacts in PreSolve must do so the same way every time.
/// Two peers with the same states but different histories can differ in contact order and
/// warm-start impulses: tolerant compare and catch-up absorb it, and at rest the owner's exact
/// state wins, so matches still end bitwise identical.
class Box2dSimulation final : public EngineSimulation<Box2dSimulation, b2Body, b2World> {
 public:
  /// Throws std::invalid_argument for a bad config field or a world with sub-stepping on.
  Box2dSimulation(b2World& world, const Box2dSimulationConfig& config);
  void set_restored_parts(const Box2dRestoredParts& parts);
};

extern template class EngineSimulation<Box2dSimulation, b2Body, b2World>;

}  // namespace shoal
