// SPDX-License-Identifier: MIT
// How corrections of remote objects are hidden from the player: the rules table.
//
// When an override or catch-up moves an object's simulated state, the difference becomes an
// error offset added to what is drawn, which then closes over time. The rules say how fast,
// per object type and control mode:
// - above the warp distance (or angle) the offset is dropped: the object visibly snaps, which
//   beats sliding across the world;
// - above the blend threshold the offset closes by a speed-dependent fraction per 1/30 s
//   (interpolated between low_speed and high_speed), never slower than the minimum closing
//   speed;
// - below the blend threshold (the tighter slow threshold for objects moving slower than
//   slow_speed) only the minimum closing speed applies, so the last of the error glides out at
//   a steady, barely visible pace and the object comes to rest exactly on its simulated state.
// Defaults follow the example tables of Bungie's presentation patent (1 world unit ~ 2.5 m).
#pragma once

#include <cstdint>
#include <vector>

#include "shoal/math.hpp"

namespace shoal {

/// Whether an object is currently driven by a player or bot ("controlled") or only by physics.
enum class ControlMode : std::uint8_t { uncontrolled, controlled };

/// How corrections of one body type are blended into what is drawn: snap past a warp distance,
/// blend faster when the error is large or the body fast.
struct SmoothingRule {
  float warp_distance_m = 7.5f;            ///< 3 WU
  float warp_angle_rad = 3.14159f;         ///< 180 degrees: rotation alone never warps
  float blend_threshold_m = 1.25f;         ///< 0.5 WU
  float blend_threshold_rad = 0.785398f;   ///< 45 degrees
  float slow_speed = 0.25f;                ///< m/s (0.1 WU/s): below it the tighter thresholds apply
  float slow_blend_threshold_m = 0.075f;   ///< 0.03 WU
  float slow_blend_threshold_rad = 0.0698132f;  ///< 4 degrees
  float low_speed = 0.0f;                  ///< m/s
  float high_speed = 25.0f;                ///< m/s (10 WU/s)
  /// Fraction of the error removed per 1/30 s at or below low_speed and at or above
  /// high_speed; applied frame-rate independently. In (0, 1).
  float blend_rate_low_speed = 0.05f;
  float blend_rate_high_speed = 0.03f;  ///< blend rate per frame above the speed threshold
  /// The error never closes slower than this (m/s), at low_speed and at high_speed.
  float min_closing_speed_low = 2.5f;    ///< 1 WU/s
  float min_closing_speed_high = 1.25f;  ///< 0.5 WU/s
  /// The same floor for the rotation error (rad/s).
  float min_closing_angular_speed_low = 0.244346f;  ///< 14 degrees/s
  float min_closing_angular_speed_high = 1.48353f;  ///< 85 degrees/s

  bool operator==(const SmoothingRule&) const = default;  ///< compares every field
};

/// Throws std::invalid_argument, naming the field and the accepted range, when a rule is
/// unusable (non-finite or negative values, thresholds out of order, rates outside (0, 1)).
void validate(const SmoothingRule& rule);

/// The rules table, keyed by (object type, control mode), with a default for everything else.
class SmoothingRules {
 public:
  /// Rules that give every body type `default_rule` until set() says otherwise.
  explicit SmoothingRules(SmoothingRule default_rule = {});

  /// Adds or replaces the rule of one (type, mode). Validates it first.
  void set(std::uint16_t object_type, ControlMode mode, const SmoothingRule& rule);
  /// The rule of (type, mode), or the default rule when none was set.
  const SmoothingRule& find(std::uint16_t object_type, ControlMode mode) const;
  /// the rule of types without one of their own
  const SmoothingRule& default_rule() const { return default_rule_; }

 private:
  struct Entry {
    std::uint32_t key = 0;
    SmoothingRule rule;
  };
  std::vector<Entry> entries_;  ///< sorted by key
  SmoothingRule default_rule_;
};

/// What the game draws for an object.
struct VisualState {
  Vec3 position;  ///< where to draw the body
  Quat orientation;  ///< how to draw it turned

  bool operator==(const VisualState&) const = default;  ///< compares every field exactly
};

}  // namespace shoal
