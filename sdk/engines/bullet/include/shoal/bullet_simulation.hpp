// SPDX-License-Identifier: MIT
// Bullet (3D) behind shoal::Simulation: the game's rigid bodies, in a shoal::BulletWorld,
// stepped, saved and restored so that catch-up and sync-test mode reproduce a straight run.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>

#include "shoal/bullet_world.hpp"
#include "shoal/simulation.hpp"

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

/// The adapter. Bodies are numbered in the order add_body() registers them; register the same
/// bodies in the same order on every peer, before creating the Peer.
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
class BulletSimulation final : public Simulation {
 public:
  /// Throws std::invalid_argument for a bad config field.
  BulletSimulation(BulletWorld& world, const BulletSimulationConfig& config);
  ~BulletSimulation() override;
  BulletSimulation(const BulletSimulation&) = delete;
  BulletSimulation& operator=(const BulletSimulation&) = delete;

  /// Registers a dynamic body already in world.dynamics() and returns its index. Throws
  /// std::invalid_argument for a body not in the world, registered twice, static or kinematic,
  /// with continuous collision detection on, or under an id already used. Registering forgets
  /// every saved frame. Static bodies (ground, walls) need no registering; every dynamic body of
  /// the world must be registered (step() throws std::logic_error otherwise: one it did not
  /// know of could never be rewound).
  BodyIndex add_body(ObjectId id, btRigidBody& body, std::uint16_t type = 0);
  btRigidBody& body(BodyIndex body) const;

  /// Replaces the built-in push: called before each step (straight or re-simulated) with each
  /// controlled body and its input. It must act only through the body (velocities, forces,
  /// activate()), the same way every time. An empty function restores the push.
  using InputHandler = std::function<void(btRigidBody&, const Input&)>;
  void set_input_handler(InputHandler handler);

  /// Throws std::invalid_argument for a body out of range.
  void set_body_type(BodyIndex body, std::uint16_t type);
  /// Gives every body of `type` `size` bytes of game state (0 = none); throws
  /// std::invalid_argument above kMaxUserBytes. The step never changes them.
  void set_user_bytes_size(std::uint16_t type, std::size_t size);
  bool is_frozen(BodyIndex body) const;
  void set_restored_parts(const BulletRestoredParts& parts);

  /// Spawning (see Simulation::spawn_slot_count). Declares what add_body() builds for `type`:
  /// `make` creates a dynamic body, adds it to world.dynamics() and returns it (its shape,
  /// mass and damping as the game wants; its pose and velocities are overwritten). The game
  /// owns what it makes, as with registered bodies. Call it for every spawned type, then
  /// add_spawn_slots(); `make` is called then, never during play. Throws
  /// std::invalid_argument for an empty function, or once slots exist.
  using BodyMaker = std::function<btRigidBody&(BulletWorld&)>;
  void set_spawn_type(std::uint16_t type, BodyMaker make);
  /// Reserves `count` spawn slots after every registered body (register those first): for
  /// each slot, one body per spawned type is made and parked (static, asleep, far below the
  /// world) until add_body() fills the slot with it; a freed slot parks its body again. No
  /// collision object comes or goes during play, so the world's object order, and what saved
  /// frames hold, stay valid across spawns. Once; throws std::invalid_argument without a
  /// spawned type, or when a maker returns a body that add_body(id, body) would refuse.
  void add_spawn_slots(std::size_t count);

  void step(Frame frame, std::span<const BodyInput> inputs) override;
  std::size_t body_count() const override;
  ObjectId body_id(BodyIndex body) const override;
  float bounding_radius(BodyIndex body) const override;
  std::uint16_t body_type(BodyIndex body) const override;
  ObjectState read(BodyIndex body) const override;
  /// Throws std::invalid_argument for a non-finite state or a body out of range.
  void write(BodyIndex body, const ObjectState& state) override;
  void save(Frame frame) override;
  /// A frame no longer held falls back to fresh contacts and timers from the written at_rest
  /// flags: well defined, but not a bitwise replay.
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
