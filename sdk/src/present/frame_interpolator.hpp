// SPDX-License-Identifier: MIT
// Fills frames of an object that the owner did not send (received 1, 3, 5: interpolates 2
// and 4), and extrapolates a little past the newest received frame.
#pragma once

#include <optional>
#include <span>

#include "shoal/state.hpp"

namespace shoal::present {

struct InterpolatorConfig {
  float tick_seconds = 1.0f / 60.0f;
  /// Extrapolation past the newest frame stops here: beyond it, guessing does more harm than
  /// holding still until the next frame arrives.
  float max_extrapolation_seconds = 0.25f;
};

class FrameInterpolator {
 public:
  /// Throws std::invalid_argument when the config is unusable.
  explicit FrameInterpolator(const InterpolatorConfig& config = {});

  /// The state at frame `at`, a.frame <= at <= b.frame, a.frame < b.frame: position by cubic
  /// Hermite through both positions and velocities (exact for constant acceleration),
  /// orientation by slerp, velocities by lerp. Throws std::invalid_argument otherwise.
  ObjectState interpolate(const FrameData& a, const FrameData& b, Frame at) const;

  /// `newest` moved on by `seconds` (clamped to 0..max_extrapolation_seconds): position along
  /// the linear velocity, orientation turned by the angular velocity. Bodies at rest stay.
  ObjectState extrapolate(const ObjectState& newest, float seconds) const;

  /// The state at frame `at` from frames sorted oldest first: a received frame as is, a gap
  /// interpolated, a frame after the newest extrapolated (bounded). Nothing before the oldest.
  std::optional<ObjectState> sample(std::span<const FrameData> frames, Frame at) const;

  const InterpolatorConfig& config() const { return config_; }

 private:
  InterpolatorConfig config_;
};

}  // namespace shoal::present
