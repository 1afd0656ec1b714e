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

#include "shoal/simulation.hpp"

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

/// The adapter. Bodies are numbered in the order add_body() registers them; register the same
/// bodies in the same order on every peer, before creating the Peer.
///
/// Mapping, on the plane: position (x, y, 0), orientation the rotation by the body's angle
/// about z, linear velocity (vx, vy, 0), angular velocity (0, 0, w); at_rest is !IsAwake().
/// Regions, snapshots and smoothing are Shoal's 3D ones, unchanged: z stays 0. Inputs: by
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
class Box2dSimulation final : public Simulation {
 public:
  /// Throws std::invalid_argument for a bad config field or a world with sub-stepping on.
  Box2dSimulation(b2World& world, const Box2dSimulationConfig& config);
  ~Box2dSimulation() override;
  Box2dSimulation(const Box2dSimulation&) = delete;
  Box2dSimulation& operator=(const Box2dSimulation&) = delete;

  /// Registers a dynamic body of the world and returns its index. Throws
  /// std::invalid_argument for a body of another world, registered twice, static or
  /// kinematic, or under an id already used. Registering forgets every saved frame. Static
  /// bodies (ground, walls) need no registering; every dynamic body of the world must be
  /// registered (step() throws std::logic_error otherwise: one it did not know of could never
  /// be rewound).
  BodyIndex add_body(ObjectId id, b2Body& body, std::uint16_t type = 0);
  b2Body& body(BodyIndex body) const;

  /// Replaces the built-in push: called before each step (straight or re-simulated) with each
  /// controlled body and its input. It must act only through the body (velocities, forces,
  /// SetAwake), the same way every time. An empty function restores the push.
  using InputHandler = std::function<void(b2Body&, const Input&)>;
  void set_input_handler(InputHandler handler);

  /// Throws std::invalid_argument for a body out of range.
  void set_body_type(BodyIndex body, std::uint16_t type);
  /// Gives every body of `type` `size` bytes of game state (0 = none); throws
  /// std::invalid_argument above kMaxUserBytes. The step never changes them.
  void set_user_bytes_size(std::uint16_t type, std::size_t size);
  bool is_frozen(BodyIndex body) const;
  void set_restored_parts(const Box2dRestoredParts& parts);

  /// Spawning (see Simulation::spawn_slot_count). Declares what add_body() builds for `type`:
  /// `make` creates a dynamic body of the world (fixtures, mass, damping as the game wants;
  /// its pose and velocities are overwritten). Call it for every spawned type, then
  /// add_spawn_slots(); `make` is called then, never during play. Throws
  /// std::invalid_argument for an empty function, or once slots exist.
  using BodyMaker = std::function<b2Body&(b2World&)>;
  void set_spawn_type(std::uint16_t type, BodyMaker make);
  /// Reserves `count` spawn slots after every registered body (register those first): for
  /// each slot, one body per spawned type is built with its maker and parked (static, far
  /// below the world, touching nothing) until add_body() fills the slot with it. A freed slot
  /// parks its body again, so Box2D's bodies, fixtures and broad-phase proxies never come or
  /// go during play, and saved frames stay valid across spawns. Once; throws
  /// std::invalid_argument without a spawned type, or when a maker returns a body that is not
  /// a new dynamic body of the world.
  void add_spawn_slots(std::size_t count);

  void step(Frame frame, std::span<const BodyInput> inputs) override;
  std::size_t body_count() const override;
  ObjectId body_id(BodyIndex body) const override;
  float bounding_radius(BodyIndex body) const override;
  std::uint16_t body_type(BodyIndex body) const override;
  ObjectState read(BodyIndex body) const override;
  /// Throws std::invalid_argument for a non-finite state or a body out of range. The angle is
  /// taken from the orientation's rotation about z; its other parts, like position z, are kept
  /// for read() but do not reach the engine.
  void write(BodyIndex body, const ObjectState& state) override;
  void save(Frame frame) override;
  /// A frame no longer held falls back to no contacts and fresh sleep timers: well defined,
  /// but not a bitwise replay.
  void restore(Frame frame) override;
  std::optional<std::span<const BodyIndex>> changed_bodies() const override;
  void set_frozen(BodyIndex body, bool frozen) override;
  std::size_t user_bytes_size(std::uint16_t type) const override;
  void read_user_bytes(BodyIndex body, std::span<std::uint8_t> out) const override;
  void write_user_bytes(BodyIndex body, std::span<const std::uint8_t> bytes) override;
  std::size_t spawn_slot_count() const override;
  /// Throws std::invalid_argument for a body that is not an empty slot or a type without
  /// set_spawn_type(). The spawn bytes are the game's: ignored here.
  void add_body(BodyIndex body, std::uint16_t type, const ObjectState& state,
                std::span<const std::uint8_t> spawn_bytes) override;
  /// Throws std::invalid_argument for a body that is not a slot; an empty slot stays empty.
  void remove_body(BodyIndex body) override;
  bool can_spawn(std::uint16_t type) const override;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace shoal
