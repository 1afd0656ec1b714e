// SPDX-License-Identifier: MIT
// Visual states of the simulated bodies: what the game draws, kept apart from what is simulated.
//
// The drawn pose is the render interpolation between the last two simulated frames plus an
// error offset. A correction of the simulated state (override, catch-up) does not move the
// drawn pose: the jump goes into the offset, which then closes according to the object's
// SmoothingRule (see shoal/smoothing.hpp). The closing is integrated exactly over each update,
// so the remaining error after a given time does not depend on the render rate.
// The smoother only reads simulation state: it takes const spans and owns its own outputs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "shoal/histogram.hpp"
#include "shoal/simulation.hpp"
#include "shoal/smoothing.hpp"
#include "shoal/state.hpp"

namespace shoal::present {

struct SmootherStats {
  std::uint64_t corrections = 0;
  std::uint64_t warps = 0;              ///< offsets dropped because they passed the warp limit
  float max_position_error_m = 0;       ///< largest position offset seen
  float max_angle_error_rad = 0;        ///< largest rotation offset seen
  /// Per visit of a body carrying an offset: how far closing it moved the drawn position, per
  /// frame of `frame_s` (a warp: the whole offset), in mm.
  Histogram moved_mm{0.25f};
};

class VisualSmoother {
 public:
  /// `frame_s`: the simulation's frame, the unit of time of stats().moved_mm.
  VisualSmoother(std::size_t body_count, const SmoothingRules& rules, float frame_s = 1.0f / 60.0f);

  /// The simulation replaced `before` by `after` for this body's current frame. The drawn pose
  /// stays where it was; the difference is closed over the following updates.
  /// Throws std::out_of_range for a body index outside the table.
  void on_correction(BodyIndex body, const ObjectState& before, const ObjectState& after);

  /// Advances the offsets by dt_seconds (negative or non-finite counts as 0) and computes the
  /// visual states at `alpha` (0..1, clamped) between previous_frame and current_frame. All
  /// spans hold one entry per body. Throws std::invalid_argument when a span has another size.
  void update(float dt_seconds, std::span<const ObjectState> previous_frame,
              std::span<const ObjectState> current_frame, float alpha,
              std::span<const std::uint16_t> types, std::span<const ControlMode> modes);
  /// The same result, visiting only the bodies that can change: those in `touched` and those
  /// that at the last update still moved between their two frames or carried an offset. Every
  /// body whose previous or current frame changed since the last update must be in `touched`
  /// (duplicates are fine); a body that rests in both frames with no offset draws as it is.
  void update_touched(float dt_seconds, std::span<const ObjectState> previous_frame,
                      std::span<const ObjectState> current_frame, float alpha,
                      std::span<const std::uint16_t> types, std::span<const ControlMode> modes,
                      std::span<const BodyIndex> touched);

  const VisualState& visual(BodyIndex body) const { return bodies_.at(body).visual; }
  /// The current offset of the drawn pose from the interpolated simulation pose.
  Vec3 position_error(BodyIndex body) const { return bodies_.at(body).offset.position; }
  float angle_error(BodyIndex body) const;
  const SmootherStats& stats() const { return stats_; }
  std::size_t body_count() const { return bodies_.size(); }

 private:
  struct Offset {
    Vec3 position;
    Quat rotation;  ///< drawn orientation = rotation * interpolated orientation
  };

  void close_offset(Offset& offset, const SmoothingRule& rule, float speed, float dt);
  // Throws std::invalid_argument when a span does not hold one entry per body.
  void check_sizes(std::span<const ObjectState> previous_frame, std::span<const ObjectState> current_frame,
                   std::span<const std::uint16_t> types, std::span<const ControlMode> modes) const;
  // One body's offset closed by dt and its visual state at alpha; remembers it as still
  // changing (for update_touched) unless it rests in both frames with no offset.
  void visit(BodyIndex body, const ObjectState& previous, const ObjectState& current, float alpha,
             float dt, std::uint16_t type, ControlMode mode);

  // Everything a visit reads and writes of one body, in one cache line.
  struct alignas(64) Body {
    Offset offset;
    VisualState visual;
    std::uint32_t visited = 0;  // the pass_ that last visited it
  };

  SmoothingRules rules_;
  std::vector<Body> bodies_;
  // Bodies that moved between their two frames or carried an offset at the last update, to
  // visit at the next; the visit stamp skips duplicates.
  std::vector<BodyIndex> changing_, next_changing_;
  std::uint32_t pass_ = 0;
  SmootherStats stats_;
  float frame_s_;
};

}  // namespace shoal::present
