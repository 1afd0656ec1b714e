// Per-object frame history: the last `depth` frames of every body, kept for comparing with
// owners' frames and for restoring before a catch-up.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "shoal/simulation.hpp"
#include "shoal/state.hpp"

namespace shoal::world {

/// A ring of frames, stored frame-major: each frame is one contiguous array of ObjectState
/// (recording a frame is one tight copy), plus optional fixed-size user bytes per body, a
/// per-body `confirmed` flag that says the entry holds its owner's data and a per-body
/// `frozen` flag that says the step which made the frame left the body out.
class FrameHistory {
 public:
  /// Throws std::invalid_argument unless depth >= 1.
  explicit FrameHistory(std::size_t body_count, int depth = 64,
                        std::size_t user_bytes_per_body = 0);

  /// Records frame f: either the next frame (newest() + 1, or any frame >= 0 when empty), which
  /// drops the oldest frame once the ring is full and starts with confirmed and frozen flags
  /// cleared and user bytes zeroed; or a frame already held, whose states are overwritten while its flags
  /// and user bytes are kept (catch-up rewrites predictions, the caller decides what is owned).
  /// Throws std::invalid_argument for any other frame or a states span of the wrong length.
  void record(Frame f, std::span<const ObjectState> states);

  bool has(Frame f) const;
  bool empty() const { return newest_ == kNoFrame; }
  /// kNoFrame when empty.
  Frame newest() const { return newest_; }
  Frame oldest() const { return oldest_; }

  /// Empty spans (and false) for a frame not held or a body out of range.
  std::span<ObjectState> states(Frame f);
  std::span<const ObjectState> states(Frame f) const;
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

  /// Forgets every frame, e.g. before snapping to a frame beyond the window.
  void clear();

  std::size_t body_count() const { return body_count_; }
  int depth() const { return depth_; }
  std::size_t user_bytes_per_body() const { return user_bytes_per_body_; }

 private:
  std::size_t slot(Frame f) const;
  bool holds(Frame f, BodyIndex body) const { return has(f) && body < body_count_; }

  std::size_t body_count_;
  int depth_;
  std::size_t user_bytes_per_body_;
  Frame newest_ = kNoFrame;
  Frame oldest_ = kNoFrame;
  std::vector<ObjectState> states_;      // depth x body_count
  std::vector<std::uint8_t> confirmed_;  // depth x body_count
  std::vector<std::uint8_t> frozen_;     // depth x body_count
  std::vector<std::uint8_t> user_bytes_;  // depth x body_count x user_bytes_per_body
};

}  // namespace shoal::world
