// SPDX-License-Identifier: MIT
// Catch-up: re-simulates frames from an overridden frame up to the present.
//
// The order of operations per frame is the same in a straight run and in a re-simulation
// (step, save engine state, inject owner frames, replay, record), so a catch-up from a frame
// reproduces exactly what a straight run from that frame's state produces. Sync-test mode
// checks that every frame.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "shoal/simulation.hpp"
#include "sync/body_set.hpp"
#include "sync/input_log.hpp"
#include "sync/owner_frames.hpp"
#include "sync/world_changes.hpp"
#include "world/frame_history.hpp"
#include "world/user_bytes.hpp"

namespace shoal::sync {

/// Applied to every body's state after every step, straight or re-simulated, and written
/// back into the simulation: quantisation on both sides, so that an owner's frames and a
/// receiver's own frames are compared like with like.
class StateFilter {
 public:
  virtual ~StateFilter() = default;
  /// Filters states[k], the state of bodies[k] (no body twice), for every k, and sets
  /// changed[k] to 0 when it left states[k] as it was (so it need not be written back), else
  /// to 1. `frame` is the frame the step produced (a filter may cache by it; the result must
  /// not depend on it, nor on which other bodies come in the same call).
  virtual void apply_all(std::span<const BodyIndex> bodies, Frame frame, std::span<ObjectState> states,
                         std::span<std::uint8_t> changed) const = 0;
  /// apply_all() of one body; whether it changed `state`.
  bool apply(BodyIndex body, Frame frame, ObjectState& state) const {
    std::uint8_t changed = 0;
    apply_all(std::span(&body, 1), frame, std::span(&state, 1), std::span(&changed, 1));
    return changed != 0;
  }
};

/// Whether a re-simulation takes the owner frames it holds (a catch-up) or only this peer's
/// own recorded states (sync-test mode, which checks that stepping again gives the same bits).
enum class Injection : bool { none, owner_frames };
/// Whether a step makes a new frame or rewrites one already held.
enum class Pass : bool { first, again };

class Resimulator {
 public:
  Resimulator(Simulation& simulation, world::FrameHistory& history, const OwnerFrames& owner_frames,
              const InputLog& inputs);

  /// Starts the history at `frame` with every body's current state, filtered like a stepped
  /// frame's, and saves the engine's state of it.
  void start(Frame frame);

  /// Straight run: steps from history.newest() to the next frame and records it. `frozen`
  /// (one flag per body, empty = none) says which bodies the step leaves out; it is kept with
  /// the frame so that re-simulating the frame leaves out the same ones.
  void step_forward(std::span<const std::uint8_t> replay, std::span<const std::uint8_t> frozen = {});

  /// Re-simulates from `from` (held in history) to history.newest(). Owner frames are injected
  /// where they exist (unless `injection` is none); bodies whose `replay` flag is 1 follow their
  /// recorded states instead of the simulation (objects this peer owns: its sent frames are
  /// final; and, for per-object catch-up, everything the correction does not reach).
  /// Returns the number of frames stepped.
  int resimulate(Frame from, std::span<const std::uint8_t> replay, Injection injection = Injection::owner_frames);

  /// An override of bodies that no step from `from` to the newest frame simulated (all frozen)
  /// needs no re-simulation: each frame holds the owner's state where one was received, else
  /// the one before it (a frozen body does not move), and the engine gets the newest. Does
  /// that and returns true; returns false, changing nothing, when any of `bodies` was
  /// simulated in that span or `from` is not held.
  bool correct_frozen(Frame from, std::span<const BodyIndex> bodies);

  /// The bodies whose newest two frames the last step_forward, resimulate or correct_frozen
  /// may have changed (no duplicates).
  std::span<const BodyIndex> last_changes() const { return changes_.bodies(); }
  /// After resimulate(): what `body` held at the newest frame before the re-simulation
  /// rewrote it (for the bodies last_changes() names).
  const ObjectState& newest_before(BodyIndex body) const {
    return was_newest_.contains(body) ? newest_before_[body] : history_.state(resimulated_from_, body);
  }

  /// Times every Simulation::step (see the two below); off, no clock is read.
  void set_step_timing(bool on) { time_steps_ = on; }
  /// Summed time of the steps of new frames (step_forward), and of frames stepped again
  /// (resimulate), in nanoseconds.
  std::int64_t straight_step_ns() const { return straight_step_ns_; }
  std::int64_t resimulated_step_ns() const { return resimulated_step_ns_; }

  /// Installs (or, with nullptr, removes) the filter applied after every step.
  void set_state_filter(const StateFilter* filter) { filter_ = filter; }
  /// Installs the bodies whose user bytes are restored, injected, replayed and recorded like
  /// their states (the history's stride must be layout.max); nullptr or an empty layout: none.
  void set_user_bytes(const world::UserBytesLayout* layout) {
    user_bytes_ = layout != nullptr && layout->any() ? layout : nullptr;
  }
  /// Installs (or, with nullptr, removes) the spawns and removals every step applies at their
  /// frames, straight or re-simulated (resimulator_existence.cpp). Each step applies its
  /// frame's changes after Simulation::step and before saving and recording the frame, and a
  /// restore puts back which slots held which bodies at the restored frame.
  void set_world_changes(const WorldChanges* changes) { world_changes_ = changes; }
  /// Keeps up to `max` spawn bytes per slot and frame (0..kMaxSpawnBytes), so that a restore
  /// gives add_body() the bytes each slot's body was spawned with. Call before start().
  void set_spawn_bytes(std::size_t max);
  /// A change of a frame too old to re-simulate from: it takes effect in the engine now, and
  /// every held frame from its own on says so (the body holding the spawn's state where it
  /// appears), so that a later catch-up keeps it.
  void apply_now(const WorldChange& change);
  /// Whether spawn slot `body` holds a body in the engine now (true for a fixed body).
  bool exists_now(BodyIndex body) const {
    return body < history_.first_spawn_slot() || engine_exists_[body - history_.first_spawn_slot()] != 0;
  }

 private:
  void restore(Frame frame, Injection injection);
  // sim_.step with the gathered inputs, timed when asked; `pass`: whether the frame was stepped before.
  void step_simulation(Frame frame, Pass pass);
  // Tells the engine about every body whose frozen flag differs from what it was last told.
  void apply_frozen(std::span<const std::uint8_t> frozen);
  void step_and_record(Frame frame, std::span<const std::uint8_t> replay, Injection injection,
                       Pass pass);
  // After the step: every body visited (engines that cannot say which bodies moved).
  void record_every_body(Frame frame, std::span<const std::uint8_t> replay, Injection injection,
                         Pass pass);
  // After the step: the previous frame carried over, then only the bodies the step changed,
  // the replayed ones and the injected ones. Same result as record_every_body.
  void record_changed_bodies(Frame frame, std::span<const BodyIndex> changed,
                             std::span<const std::uint8_t> replay, Injection injection, Pass pass);
  // The state the step left in body, filtered (and written back when the filter changed it).
  ObjectState read_filtered(BodyIndex body, Frame frame);
  void restore_user_bytes(Frame frame, Injection injection);
  // The history's user bytes of (frame, body), its type's size of them.
  std::span<std::uint8_t> held_user_bytes(Frame frame, BodyIndex body);
  // Copies the owner's user bytes of (frame, body) into `held`; false when none were received.
  bool take_owner_user_bytes(Frame frame, BodyIndex body, std::span<std::uint8_t> held) const;
  void record_user_bytes(Frame frame, std::span<const std::uint8_t> replay, Injection injection, Pass pass);

  // Existence (resimulator_existence.cpp). Applies the world changes of `frame` to the
  // engine and adds the slots they touched to slot_changes_.
  void apply_world_changes(Frame frame);
  // Puts into the engine which slots held which bodies at held frame `frame` (before its
  // states are written).
  void restore_existence(Frame frame);
  // The frame's slot rows in the history, from what the engine holds after its changes.
  void record_existence(Frame frame);
  // Slot k's spawn bytes in the engine, as a slot_bytes() row; and setting them.
  std::span<std::uint8_t> engine_row(std::size_t k);
  void set_engine_row(std::size_t k, std::span<const std::uint8_t> bytes);
  // changed plus slot_changes_, when any: what record_changed_bodies must read.
  std::span<const BodyIndex> with_slot_changes(std::span<const BodyIndex> changed);

  Simulation& sim_;
  world::FrameHistory& history_;
  const WorldChanges* world_changes_ = nullptr;
  std::vector<std::uint8_t> engine_exists_;   // per slot: the engine holds a body there
  std::vector<std::uint16_t> engine_types_;   // per slot: of this type
  std::vector<std::uint8_t> engine_bytes_;    // per slot: a slot_bytes() row, the bytes it was spawned with
  std::vector<BodyIndex> slot_changes_;       // the slots the last apply_world_changes touched
  std::vector<BodyIndex> changed_and_slots_;  // with_slot_changes' result
  const OwnerFrames& owner_frames_;
  const InputLog& inputs_;
  const StateFilter* filter_ = nullptr;
  const world::UserBytesLayout* user_bytes_ = nullptr;
  std::vector<BodyInput> input_scratch_;
  std::vector<ObjectState> state_scratch_;
  std::vector<BodyIndex> filtered_scratch_;     // record_changed_bodies: the bodies it reads
  std::vector<std::uint8_t> changed_scratch_;   // and whether the filter changed each
  std::vector<std::uint8_t> confirmed_scratch_;  // per body: the frame holds its owner's state
  std::vector<std::uint8_t> engine_frozen_;      // per body: the frozen flag the engine holds
  BodySet changes_;  // what last_changes() returns
  BodySet injected_;  // record_changed_bodies: the bodies with an owner frame of its frame
  BodySet stepped_;   // record_changed_bodies: the bodies its step changed
  bool time_steps_ = false;
  std::int64_t straight_step_ns_ = 0, resimulated_step_ns_ = 0;
  // The newest frame's states, as they were before the last resimulate(), of the bodies it
  // could rewrite (was_newest_); every other body held its state of resimulated_from_ there.
  std::vector<ObjectState> newest_before_;
  BodySet was_newest_;
  Frame resimulated_from_ = kNoFrame;
  // Keeps the newest frame's states of the bodies a re-simulation from `from` may rewrite.
  void keep_newest(Frame from, Injection injection);
  // Adds the bodies the history lists as changed at frame f to changes_.
  void gather_changes(Frame f);
};

}  // namespace shoal::sync
