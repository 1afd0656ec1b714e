// SPDX-License-Identifier: MIT
// The game's physics, behind the small interface Shoal needs to re-simulate frames.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "shoal/state.hpp"

namespace shoal {

/// A body's place in the simulation's dense body table, 0..body_count()-1. Stable for the
/// body's lifetime, so per-frame work indexes arrays instead of looking up ids.
using BodyIndex = std::uint32_t;

/// The most user bytes a body type may carry (Simulation::user_bytes_size).
inline constexpr std::size_t kMaxUserBytes = 32;

/// The most spawn bytes an object spawned during play may carry (Peer::spawn,
/// SpawnConfig::max_spawn_bytes).
inline constexpr std::size_t kMaxSpawnBytes = 64;

/// Ids with this bit set are Shoal's own: the ids of objects spawned during play (they carry
/// the spawning peer, so peers hand them out without asking each other). A game's fixed bodies
/// use ids without it.
inline constexpr ObjectId kSpawnedIdBit = 0x80000000u;

/// What an empty spawn slot reads as (Simulation::spawn_slot_count): the default state, at
/// rest. Every peer holds exactly these bits for an empty slot, so empty slots never differ.
inline constexpr ObjectState empty_slot_state() {
  ObjectState state;
  state.at_rest = true;
  return state;
}

/// The input of one controlled body for one frame.
struct BodyInput {
  BodyIndex body = 0;  ///< which body (Simulation's index)
  Input input;  ///< its input for the frame
};

/// Adapter between Shoal and a physics engine. Requirements:
/// - step() is deterministic: the same states and inputs give the same result, bit for bit,
///   in the same build (catch-up and sync-test mode depend on it);
/// - write() followed by read() returns the written state;
/// - bodies are listed in the same order on every peer (the game creates its world the same
///   way everywhere);
/// - between steps only Shoal changes bodies (through write()): the game acts through inputs,
///   since whatever it wrote itself would be lost at the next catch-up and reach no other peer.
class Simulation {
 public:
  virtual ~Simulation() = default;

  /// Advances the world one fixed step; the state afterwards is the state of `frame`.
  virtual void step(Frame frame, std::span<const BodyInput> inputs) = 0;

  virtual std::size_t body_count() const = 0;  ///< how many bodies the world has; constant for a match
  /// the game's id of a body; indices and ids are the same on every peer
  virtual ObjectId body_id(BodyIndex body) const = 0;
  /// Radius of a sphere around the body's position that contains the whole body.
  virtual float bounding_radius(BodyIndex body) const = 0;
  /// A small game-defined type, used to pick smoothing rules and user bytes.
  virtual std::uint16_t body_type(BodyIndex) const { return 0; }

  virtual ObjectState read(BodyIndex body) const = 0;  ///< A body's state now.
  /// Sets a body's state; at_rest = true puts it to sleep, false wakes it.
  virtual void write(BodyIndex body, const ObjectState& state) = 0;

  /// Engine-private state (contact caches, sleep timers) that ObjectState does not carry.
  /// save(frame) is called after each step; restore(frame) before re-simulating from frame,
  /// after every body has been written with its state of that frame.
  /// Engines whose step depends only on ObjectState leave both empty.
  virtual void save(Frame) {}
  /// See save().
  virtual void restore(Frame) {}

  /// Optional game state owned with the object and kept identical on every peer (a door's
  /// open flag, a crate's health, a fuse timer): a fixed number of bytes per body type, at
  /// most kMaxUserBytes (a larger size makes Peer's constructor throw std::invalid_argument).
  /// 0, the default, means none: such bodies cost nothing. The bytes are recorded after every
  /// step, compared with the owner's, sent with the body's snapshots and restored before a
  /// catch-up, exactly like ObjectState. Requirements as for the state: step() may change
  /// them but deterministically; write_user_bytes() followed by read_user_bytes() returns
  /// what was written; the sizes are the same on every peer. Both calls get a span of exactly
  /// user_bytes_size(body_type(body)) bytes, and only for bodies whose type has user bytes.
  virtual std::size_t user_bytes_size(std::uint16_t /*body_type*/) const { return 0; }
  /// Copies a body's user bytes into `out` (see user_bytes_size).
  virtual void read_user_bytes(BodyIndex, std::span<std::uint8_t> /*out*/) const {}
  /// Sets a body's user bytes (see user_bytes_size).
  virtual void write_user_bytes(BodyIndex, std::span<const std::uint8_t> /*bytes*/) {}

  /// Optional, for speed in large worlds where most bodies sleep: after step(), the bodies
  /// whose state that step may have changed (any order). Every body not listed must read back
  /// exactly what it held before the step, and writing a body the state it already holds must
  /// change nothing; Shoal then reads, filters and records only the listed bodies. nullopt (the
  /// default) means any body may have changed: Shoal reads every body after every step.
  virtual std::optional<std::span<const BodyIndex>> changed_bodies() const { return std::nullopt; }

  /// Optional, for speed in worlds larger than one player's surroundings: a peer simulates
  /// only its simulated region (PeerConfig::freeze_outside_simulated_region) and freezes every
  /// other body it neither owns nor sees controlled by a player. A frozen body keeps its state
  /// and user bytes through step() (it is not listed by changed_bodies()) and is an immovable
  /// obstacle to the bodies that are simulated; write() still sets it. Its owner's snapshots
  /// correct it once it matters here again. Shoal calls this only when a body's flag changes,
  /// before the step the flag applies to, and again while re-simulating, so that a catch-up
  /// freezes exactly what the straight run froze. The default ignores it: every body is
  /// simulated, which is always correct, only slower.
  virtual void set_frozen(BodyIndex /*body*/, bool /*frozen*/) {}

  /// Optional, for games whose bodies appear and vanish during play (projectiles, debris,
  /// pickups). The engine reserves this many spawn slots when it is built: the last
  /// spawn_slot_count() body indices, counted by body_count(), empty at first. Shoal fills
  /// and empties them only through add_body() and remove_body(), at the frame the game asked
  /// for, in the same order on every peer, and again while re-simulating, so that a catch-up
  /// across a spawn or a removal recreates exactly what the straight run had. Indices never
  /// move: every per-body table of Shoal is sized once, and a freed slot is reused later.
  /// An empty slot must: read() as empty_slot_state(); ignore write(), write_user_bytes()
  /// and set_frozen() (keeping the frozen flag for when it is filled is fine too); take no
  /// part in step() (no collisions, no inputs); have bounding_radius() 0. body_id() is never
  /// asked of a slot (Shoal names spawned objects itself). 0, the default, means no spawning.
  virtual std::size_t spawn_slot_count() const { return 0; }
  /// Fills empty spawn slot `body` with a new body of game-defined `type` in `state` (the
  /// state it holds at the frame it appears in; step() has already run for that frame).
  /// `spawn_bytes` are the bytes the spawner gave Peer::spawn (0..SpawnConfig::max_spawn_bytes
  /// of them, the same on every peer): what the game wants the engine to know at creation (a
  /// projectile's weapon, a pickup's kind), fixed for the object's life. Spawned bodies carry
  /// no user bytes (user_bytes_size): Shoal sizes those per body once, from body_type() when a
  /// Peer is built, and an empty slot reports type 0, whose size should then be 0.
  /// Deterministic like step(): the same calls in the same order give the same bits, whatever
  /// the slot held before.
  virtual void add_body(BodyIndex /*body*/, std::uint16_t /*type*/, const ObjectState& /*state*/,
                        std::span<const std::uint8_t> /*spawn_bytes*/) {}
  /// Empties spawn slot `body`: from now on it is an empty slot (see spawn_slot_count).
  virtual void remove_body(BodyIndex /*body*/) {}
  /// Whether add_body() builds bodies of `type`. Shoal checks it before accepting a spawn
  /// (Peer::spawn throws, a remote spawn is dropped as bad_spawn), so add_body() never sees
  /// another type. The default: every type.
  virtual bool can_spawn(std::uint16_t /*type*/) const { return true; }
};

}  // namespace shoal
