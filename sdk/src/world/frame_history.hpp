// SPDX-License-Identifier: MIT
// Per-object frame history: the last `depth` frames of every body, kept for comparing with
// owners' frames and for restoring before a catch-up.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "shoal/simulation.hpp"
#include "shoal/state.hpp"

namespace shoal::world {

/// A window of the newest `depth` frames. Each frame holds every body's state, a per-body
/// `confirmed` flag (the entry holds its owner's data), a per-body `frozen` flag (the step that
/// made the frame left the body out) and optional fixed-size user bytes per body.
///
/// States are kept by change, not by frame: most bodies of a large world rest, and a frame
/// differs from the one before only in the few that moved. Each body keeps a ring of the
/// states it took at the frames it changed (its own, so one body's frames share cache lines),
/// with one bit per frame saying which hold a change; a frame it did not change at reads the
/// latest change before it. Starting a frame copies nothing. The newest frame and the one
/// before are also kept whole, as rows the per-frame passes read in place.
class FrameHistory {
 public:
  /// Throws std::invalid_argument unless depth >= 1.
  explicit FrameHistory(std::size_t body_count, int depth = 64,
                        std::size_t user_bytes_per_body = 0);

  /// Records frame f whole: either the next frame (newest() + 1, or any frame >= 0 when
  /// empty), which drops the oldest frame once the window is full and starts with confirmed
  /// and frozen flags cleared and user bytes zeroed; or a frame already held, whose states are
  /// set() while its flags and user bytes are kept. Throws std::invalid_argument for any other
  /// frame or a span of the wrong length.
  void record(Frame f, std::span<const ObjectState> states);
  /// Starts frame newest() + 1 with every body's state carried over from newest() (flags
  /// cleared, user bytes zeroed, the oldest frame dropped once the window is full): the caller
  /// then set()s what changed. Nothing is copied. Throws std::logic_error when empty.
  void advance();

  bool has(Frame f) const;
  bool empty() const { return newest_ == kNoFrame; }
  /// kNoFrame when empty.
  Frame newest() const { return newest_; }
  Frame oldest() const { return oldest_; }

  /// Body's state at a held frame (f and body must be in range: has(f), body < body_count()).
  /// The reference is valid until the history next changes.
  const ObjectState& state(Frame f, BodyIndex body) const;
  /// Sets body's state at held frame f, and at the frames after f that held the same as f, up
  /// to body's next change (a frame where set() put another state). Frames are written in
  /// order, by a step or a catch-up that rewrites them: each later one gets its own after.
  void set(Frame f, BodyIndex body, const ObjectState& state);
  /// Body did not change at held frame f: its state there becomes its state at f - 1, and so
  /// do the frames after f that followed f (as set() does). At the oldest frame, the state
  /// before the window is the one carried.
  void carry(Frame f, BodyIndex body);
  /// The newest frame's states, and those of the frame before it (the newest's when that is
  /// not held): whole rows, one entry per body. Empty when the history is.
  std::span<const ObjectState> newest_states() const;
  std::span<const ObjectState> previous_states() const;
  /// The bodies whose state at held frame f may differ from f - 1: each body set() there since
  /// the frame began (once; some may have been carried back since). Empty for a frame not held.
  std::span<const BodyIndex> changed_at(Frame f) const;
  /// Every body's state at held frame f, into out (one entry per body).
  void copy_states(Frame f, std::span<ObjectState> out) const;
  /// A hint that state(f, body) follows soon. Only a hint.
  void prefetch(Frame f, BodyIndex body) const;
  /// A hint that advance() follows soon: the oldest frame's changes, which it may drop, are
  /// asked for (they are a window old, so far from the cache). Only a hint.
  void prefetch_advance() const;

  bool confirmed(Frame f, BodyIndex body) const;
  void set_confirmed(Frame f, BodyIndex body, bool value);
  /// Every body's confirmed flag of frame f (1 = confirmed), for whole-frame updates; empty
  /// for a frame not held.
  std::span<std::uint8_t> confirmed_flags(Frame f);
  /// Every body's frozen flag of frame f (1 = not simulated by the step that made f); empty
  /// for a frame not held.
  std::span<std::uint8_t> frozen_flags(Frame f);
  std::span<std::uint8_t> user_bytes(Frame f, BodyIndex body);
  std::span<const std::uint8_t> user_bytes(Frame f, BodyIndex body) const;

  /// Spawn slots (Simulation::spawn_slot_count): bodies first..first+count-1 get, per frame,
  /// whether the slot holds a body, of which type and with which spawn bytes (at most
  /// `max_spawn_bytes` of them), so that restoring a frame restores which bodies exist. A new
  /// frame starts with the frame before's; the first frame with every slot empty. Call before
  /// recording a frame (it forgets the rows); count 0: no slots.
  void set_spawn_slots(BodyIndex first, std::size_t count, std::size_t max_spawn_bytes = 0);
  BodyIndex first_spawn_slot() const { return first_slot_; }
  std::size_t spawn_slot_count() const { return slot_count_; }
  /// Per slot of held frame f (index 0 = first_spawn_slot()): 1 when it holds a body; empty
  /// for a frame not held.
  std::span<std::uint8_t> slot_exists(Frame f);
  std::span<const std::uint8_t> slot_exists(Frame f) const;
  /// Per slot of held frame f: the type of the body it holds (0 when empty).
  std::span<std::uint16_t> slot_types(Frame f);
  std::span<const std::uint16_t> slot_types(Frame f) const;
  /// Slot k's spawn bytes at held frame f: a row of 1 + max_spawn_bytes bytes, the first the
  /// count of those that follow (0 when empty). Empty for a frame not held, or without bytes.
  std::span<std::uint8_t> slot_bytes(Frame f, std::size_t k);
  std::span<const std::uint8_t> slot_bytes(Frame f, std::size_t k) const;
  /// The size of one slot_bytes() row: 1 + max_spawn_bytes, or 0 without spawn bytes.
  std::size_t slot_bytes_stride() const { return slot_stride_; }

  /// Forgets every frame, e.g. before starting again at another frame.
  void clear();

  std::size_t body_count() const { return body_count_; }
  int depth() const { return depth_; }
  std::size_t user_bytes_per_body() const { return user_bytes_per_body_; }

 private:
  std::size_t slot(Frame f) const { return static_cast<std::size_t>(f % depth_); }  // f >= 0
  bool holds(Frame f, BodyIndex body) const { return has(f) && body < body_count_; }
  std::uint64_t* bits(std::vector<std::uint64_t>& set, BodyIndex body) { return set.data() + body * words_; }
  const std::uint64_t* bits(const std::vector<std::uint64_t>& set, BodyIndex body) const {
    return set.data() + body * words_;
  }
  bool marked(BodyIndex body, std::size_t s) const;
  // The newest frame <= f at which body changed, kNoFrame when none in the window.
  Frame latest_change(BodyIndex body, Frame f) const;
  // Keeps `state` as body's change at frame f.
  void mark(BodyIndex body, Frame f, const ObjectState& state);
  void unmark(BodyIndex body, Frame f);
  const ObjectState& change_or_before(BodyIndex body, Frame change) const;
  // After body's change at f was made or removed: the rows of the newest two frames take its
  // state at f where no later change hides it.
  void follow_rows(BodyIndex body, Frame f);
  void start_frame(Frame f, bool first);  // first: the history's first frame
  void drop_oldest();

  std::size_t body_count_;
  int depth_;
  std::size_t words_;  // 64-bit words of one body's bit set: one bit per frame of the window
  std::size_t user_bytes_per_body_;
  Frame newest_ = kNoFrame;
  Frame oldest_ = kNoFrame;
  std::vector<ObjectState> changes_;      // body x depth: body's state at the frames it changed
  std::vector<std::uint64_t> changed_;    // body x words_: which frames hold a change
  std::vector<std::uint64_t> listed_;     // body x words_: which frames list the body (below)
  std::vector<std::vector<BodyIndex>> listed_bodies_;  // per frame: the bodies that changed there
  std::vector<ObjectState> before_;       // per body: its state before the window
  std::vector<ObjectState> newest_row_;   // per body: its state at the newest frame
  std::vector<ObjectState> previous_row_;  // ... and at the one before (the newest's if none)
  std::vector<std::uint8_t> confirmed_;   // depth x body_count
  std::vector<std::uint8_t> frozen_;      // depth x body_count
  std::vector<std::uint8_t> user_bytes_;  // depth x body_count x user_bytes_per_body
  BodyIndex first_slot_ = 0;
  std::size_t slot_count_ = 0;
  std::vector<std::uint8_t> slot_exists_;  // depth x slot_count_
  std::vector<std::uint16_t> slot_types_;  // depth x slot_count_
  std::size_t slot_stride_ = 0;            // 1 + max spawn bytes, or 0
  std::vector<std::uint8_t> slot_bytes_;   // depth x slot_count_ x slot_stride_
};

}  // namespace shoal::world
