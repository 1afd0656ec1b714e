// SPDX-License-Identifier: MIT
// Shoal's built-in reference physics: rigid spheres and boxes in a walled arena.
// Deterministic and restorable bit for bit, so catch-up and sync-test mode work out of the box;
// games with their own engine implement shoal::Simulation instead.
#pragma once

#include <memory>
#include <span>

#include "shoal/simulation.hpp"

namespace shoal {

/// Every field is checked by ReferencePhysics' constructor; a bad value throws
/// std::invalid_argument naming the field, the value and what is expected.
struct ReferencePhysicsConfig {
  float dt = 1.0f / 60.0f;            ///< seconds per step, (0, 1]
  Vec3 gravity{0, -9.81f, 0};         ///< m/s^2, y is up
  float arena_half_x = 50;            ///< walls at x = +-arena_half_x (m), > 0
  float arena_half_z = 50;            ///< walls at z = +-arena_half_z (m), > 0; ground at y = 0
  float restitution = 0.3f;           ///< 0..1, bounciness of every contact
  float friction = 0.5f;              ///< Coulomb coefficient, >= 0
  float linear_damping = 0.05f;       ///< 1/s, >= 0
  float angular_damping = 0.1f;       ///< 1/s, >= 0
  int solver_iterations = 10;         ///< contact solver passes per step, 1..256
  bool allow_sleep = true;            ///< false: bodies never fall asleep on their own
  float sleep_linear_speed = 0.08f;   ///< m/s, >= 0: slower than this counts as still
  float sleep_angular_speed = 0.1f;   ///< rad/s, >= 0
  int sleep_frames = 30;              ///< frames a touching group stays still before it sleeps, >= 1
  float push_acceleration = 20;       ///< m/s^2 of a full Input.axis push, >= 0
  float max_push_speed = 6;           ///< m/s: pushing does not speed a body past this, >= 0
  int history_frames = 64;            ///< frames of engine-private state save() keeps, >= 1
  float grid_cell_size = 1;           ///< m, broad-phase cell edge, > 0 (about 2-3x a typical radius)
};

/// The reference physics engine. Bodies are added once, before stepping (adding later is
/// allowed but forgets every saved frame). A body of mass 0 is static: it never moves. Bodies
/// that appear during play go into spawn slots reserved after the fixed bodies
/// (add_spawn_slots), of the types declared with set_spawn_sphere / set_spawn_box.
///
/// Determinism: the same build, bodies and inputs give the same states bit for bit. After
/// write() of every body's state for frame F and restore(F), stepping reproduces the original
/// run bit for bit, provided save(F) was called after stepping F and F is among the last
/// `history_frames` saved frames. The engine-private state saved per frame is the sleep timers
/// and the contact impulses carried into the next step (warm starting). Restoring a frame that
/// is not held falls back to sleep timers derived from the written at_rest flags (asleep
/// bodies stay asleep, the others start counting afresh) and no carried impulses: well
/// defined, but not a bitwise replay.
class ReferencePhysics final : public Simulation {
 public:
  /// An empty world with the given gravity, ground and step.
  explicit ReferencePhysics(const ReferencePhysicsConfig& config);
  ~ReferencePhysics() override;
  ReferencePhysics(const ReferencePhysics&) = delete;
  ReferencePhysics& operator=(const ReferencePhysics&) = delete;

  /// Adds a body and returns its index (bodies are numbered in the order added). Throws
  /// std::invalid_argument for a non-finite or non-positive size, a negative or non-finite mass
  /// or a non-finite state. The orientation is used as given (keep it unit length).
  BodyIndex add_sphere(ObjectId id, float radius, float mass, const ObjectState& state);
  /// Adds a box of these half extents (metres); returns its index. Throws as add_sphere.
  BodyIndex add_box(ObjectId id, Vec3 half_extents, float mass, const ObjectState& state);

  /// Inputs: Input.axis x and z (length clamped to 1) push the body horizontally with
  /// push_acceleration, up to max_push_speed; a push wakes a sleeping body. Throws
  /// std::invalid_argument for a body index out of range. Non-finite axes count as no push.
  void step(Frame frame, std::span<const BodyInput> inputs) override;

  std::size_t body_count() const override;
  ObjectId body_id(BodyIndex body) const override;
  float bounding_radius(BodyIndex body) const override;
  ObjectState read(BodyIndex body) const override;
  /// Throws std::invalid_argument for a non-finite state or a body out of range.
  void write(BodyIndex body, const ObjectState& state) override;
  void save(Frame frame) override;
  void restore(Frame frame) override;
  /// The bodies that were awake during the last step (only they move or fall asleep).
  std::optional<std::span<const BodyIndex>> changed_bodies() const override;
  /// A frozen body is skipped by the step (no forces, no integration, no sleep timer, no
  /// wake-up, no inputs) and pushes back on simulated bodies like a static one. Throws
  /// std::invalid_argument for a body out of range.
  void set_frozen(BodyIndex body, bool frozen) override;
  bool is_frozen(BodyIndex body) const;  ///< whether the body is left out of steps (set_frozen)

  /// A game-defined body type (default 0). Throws std::invalid_argument for a body out of range.
  void set_body_type(BodyIndex body, std::uint16_t type);
  std::uint16_t body_type(BodyIndex body) const override;
  /// Gives every body of `type` `size` user bytes (0 = none, the default). The built-in step
  /// keeps in their first min(size, 4) bytes a little-endian, wrapping u32 counting the frames
  /// the body ended awake, so they change with the simulation; any further bytes are the
  /// game's (written, read and restored, never changed by step()). Throws
  /// std::invalid_argument for a size above kMaxUserBytes. Set it before building a Peer.
  void set_user_bytes_size(std::uint16_t type, std::size_t size);
  std::size_t user_bytes_size(std::uint16_t type) const override;
  void read_user_bytes(BodyIndex body, std::span<std::uint8_t> out) const override;
  void write_user_bytes(BodyIndex body, std::span<const std::uint8_t> bytes) override;

  /// Spawning (see Simulation::spawn_slot_count). Declares the body add_body() builds for
  /// `type`: a sphere of this radius and mass. Throws std::invalid_argument as add_sphere, and
  /// for a mass of 0 (a spawned body moves).
  void set_spawn_sphere(std::uint16_t type, float radius, float mass);
  /// Declares a box of these half extents and mass for `type`; throws as set_spawn_sphere.
  void set_spawn_box(std::uint16_t type, Vec3 half_extents, float mass);
  /// Reserves `count` empty spawn slots after the bodies added so far and returns the first
  /// one's index. Add every fixed body first: adding a body after the slots throws
  /// std::logic_error, since slots must be the last indices. Called once, before building a
  /// Peer (a second call throws std::logic_error).
  BodyIndex add_spawn_slots(std::size_t count);
  std::size_t spawn_slot_count() const override;
  /// Throws std::invalid_argument for a body that is not an empty slot, a type without
  /// set_spawn_sphere/box, or a non-finite state. The state is used as given (at_rest too);
  /// the spawn bytes are the game's, not the physics': ignored.
  void add_body(BodyIndex body, std::uint16_t type, const ObjectState& state,
                std::span<const std::uint8_t> spawn_bytes) override;
  /// Throws std::invalid_argument for a body that is not a slot; an empty slot stays empty.
  void remove_body(BodyIndex body) override;
  /// Whether `type` was declared with set_spawn_sphere / set_spawn_box.
  bool can_spawn(std::uint16_t type) const override;
  bool slot_filled(BodyIndex body) const;  ///< false for an empty spawn slot, true for any other body

  const ReferencePhysicsConfig& config() const;  ///< the world's config
  bool is_static(BodyIndex body) const;  ///< whether the body is static (the step never moves it)
  /// Contacts found in the last step (after sleeping pairs were skipped): a cheap statistic.
  std::size_t contact_count() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace shoal
