// SPDX-License-Identifier: MIT
// The peer's part that decides what the game draws, apart from what is simulated.
// Owns: the visual smoother (blend and warp rules per body type and control mode), each body's
// control mode, and which bodies changed since the visuals were last refreshed. Nothing else
// writes them; the tick hands it corrections and the bodies a step or catch-up touched.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "peer/touched_bodies.hpp"
#include "present/visual_smoother.hpp"
#include "shoal/peer.hpp"

namespace shoal {

class Presentation {
 public:
  Presentation(std::size_t bodies, const SmoothingRules& rules, std::vector<std::uint16_t> body_types, float frame_s);

  /// A body's simulated state jumped from `was` to `now` (a catch-up, a snap): the jump is
  /// blended out on screen rather than shown.
  void corrected(BodyIndex body, const ObjectState& was, const ObjectState& now) {
    smoother_.on_correction(body, was, now);
  }
  void touched(std::span<const BodyIndex> bodies) { touched_.add(bodies); }
  void touch_all() { touched_.all = true; }
  void set_control(BodyIndex body, ControlMode mode) { control_modes_[body] = mode; }

  /// Brings the visual states of the touched bodies (or all) up to the newest frame, `alpha`
  /// of the way to the next, after `dt_s` seconds of wall time.
  void refresh(float dt_s, std::span<const ObjectState> previous, std::span<const ObjectState> current, float alpha);

  const VisualState& visual(BodyIndex body) const { return smoother_.visual(body); }
  const present::SmootherStats& smoothing_stats() const { return smoother_.stats(); }

  /// Its invariants (the test build checks them every frame); throws std::logic_error.
  void validate() const;

 private:
  present::VisualSmoother smoother_;
  std::vector<std::uint16_t> body_types_;
  std::vector<ControlMode> control_modes_;
  TouchedBodies touched_;
};

}  // namespace shoal
