// SPDX-License-Identifier: MIT
// What the engine adapters share (shoal::BulletSimulation, shoal::Box2dSimulation): the whole
// shoal::Simulation contract over the bodies an adapter registered, with freezing, user bytes,
// spawn slots and saved frames. Each adapter adds its engine's side: registering the game's
// bodies, the built-in input rule, spawn makers and what restore() puts back.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>

#include "shoal/simulation.hpp"

namespace shoal {
namespace engines {
/// An adapter's state: what every adapter keeps and its engine's own (its library defines it).
template <class Adapter>
struct AdapterImpl;
}  // namespace engines

/// The engine-independent half of an engine adapter. `Adapter` is the adapter itself
/// (BulletSimulation, Box2dSimulation), whose library defines these calls; `Body` and `World`
/// are its engine's rigid body and world (btRigidBody and shoal::BulletWorld, b2Body and
/// b2World).
template <class Adapter, class Body, class World>
class EngineSimulation : public Simulation {
 public:
  ~EngineSimulation() override;
  EngineSimulation(const EngineSimulation&) = delete;
  EngineSimulation& operator=(const EngineSimulation&) = delete;

  /// Registers a dynamic body of the world and returns its index. Bodies are numbered in the
  /// order they are registered: register the same bodies in the same order on every peer,
  /// before creating the Peer. Throws std::invalid_argument for a body registered twice, under
  /// an id already used, after the spawn slots, or one the adapter cannot rewind (static or
  /// kinematic, of another world; the adapter's class says which). Registering forgets every
  /// saved frame. Static bodies (ground, walls) need no registering; every dynamic body of the
  /// world must be registered (step() throws std::logic_error otherwise: one it did not know
  /// of could never be rewound).
  BodyIndex add_body(ObjectId id, Body& body, std::uint16_t type = 0);
  /// A registered body (or the body a spawn slot holds); throws for a body out of range.
  Body& body(BodyIndex body) const;

  /// Replaces the built-in push: called before each step (straight or re-simulated) with each
  /// controlled body and its input. It must act only through the body (velocities, forces,
  /// waking it), the same way every time. An empty function restores the push.
  using InputHandler = std::function<void(Body&, const Input&)>;
  void set_input_handler(InputHandler handler);

  /// Spawning (see Simulation::spawn_slot_count). Declares what add_body() builds for `type`:
  /// `make` creates a dynamic body of the world and returns it (its shapes, mass and damping as
  /// the game wants; its pose and velocities are overwritten). The game owns what it makes, as
  /// with registered bodies. Call it for every spawned type, then add_spawn_slots(); `make` is
  /// called then, never during play. Throws std::invalid_argument for an empty function, or
  /// once slots exist.
  using BodyMaker = std::function<Body&(World&)>;
  void set_spawn_type(std::uint16_t type, BodyMaker make);
  /// Reserves `count` spawn slots after every registered body (register those first): for
  /// each slot, one body per spawned type is made and parked (static, asleep, far below the
  /// world, touching nothing) until add_body() fills the slot with it; a freed slot parks its
  /// body again. No body comes or goes during play, so what saved frames hold stays valid
  /// across spawns. Once; throws std::invalid_argument without a spawned type, or when a maker
  /// returns a body that add_body(id, body) would refuse.
  void add_spawn_slots(std::size_t count);

  /// Throws std::invalid_argument for a body out of range.
  void set_body_type(BodyIndex body, std::uint16_t type);
  /// Gives every body of `type` `size` bytes of game state (0 = none); throws
  /// std::invalid_argument above kMaxUserBytes. The step never changes them.
  void set_user_bytes_size(std::uint16_t type, std::size_t size);
  bool is_frozen(BodyIndex body) const;  ///< whether set_frozen() left the body out of steps

  void step(Frame frame, std::span<const BodyInput> inputs) override;
  std::size_t body_count() const override;
  ObjectId body_id(BodyIndex body) const override;
  float bounding_radius(BodyIndex body) const override;
  std::uint16_t body_type(BodyIndex body) const override;
  ObjectState read(BodyIndex body) const override;
  /// Throws std::invalid_argument for a non-finite state or a body out of range.
  void write(BodyIndex body, const ObjectState& state) override;
  void save(Frame frame) override;
  /// A frame no longer held falls back to no contacts and fresh sleep timers (asleep as the
  /// written at_rest flags say): well defined, but not a bitwise replay.
  void restore(Frame frame) override;
  std::optional<std::span<const BodyIndex>> changed_bodies() const override;
  void set_frozen(BodyIndex body, bool frozen) override;
  std::size_t user_bytes_size(std::uint16_t type) const override;
  void read_user_bytes(BodyIndex body, std::span<std::uint8_t> out) const override;
  void write_user_bytes(BodyIndex body, std::span<const std::uint8_t> bytes) override;
  std::size_t spawn_slot_count() const override;
  /// Throws std::invalid_argument for a body that is not an empty slot or a type without a
  /// spawn maker. The spawn bytes are the game's: ignored here.
  void add_body(BodyIndex body, std::uint16_t type, const ObjectState& state,
                std::span<const std::uint8_t> spawn_bytes) override;
  /// Throws std::invalid_argument for a body that is not a slot; an empty slot stays empty.
  void remove_body(BodyIndex body) override;
  bool can_spawn(std::uint16_t type) const override;

 protected:
  explicit EngineSimulation(std::unique_ptr<engines::AdapterImpl<Adapter>> impl);
  engines::AdapterImpl<Adapter>& impl() { return *impl_; }

 private:
  std::unique_ptr<engines::AdapterImpl<Adapter>> impl_;
};

}  // namespace shoal
