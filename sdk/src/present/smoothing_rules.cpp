// SPDX-License-Identifier: MIT
// The public rules table (shoal/smoothing.hpp).
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "shoal/smoothing.hpp"

namespace shoal {
namespace {

std::uint32_t key_of(std::uint16_t object_type, ControlMode mode) {
  return (std::uint32_t{object_type} << 8) | static_cast<std::uint32_t>(mode);
}

void require(bool ok, const char* field, float value, const char* expected) {
  if (ok) return;
  throw std::invalid_argument(std::string("SmoothingRule.") + field + " = " +
                              std::to_string(value) + ": expected " + expected);
}

bool finite_non_negative(float v) { return std::isfinite(v) && v >= 0; }
bool open_unit(float v) { return std::isfinite(v) && v > 0 && v < 1; }

}  // namespace

void validate(const SmoothingRule& r) {
  require(finite_non_negative(r.slow_blend_threshold_m), "slow_blend_threshold_m",
          r.slow_blend_threshold_m, "a finite value >= 0");
  require(std::isfinite(r.blend_threshold_m) && r.blend_threshold_m >= r.slow_blend_threshold_m,
          "blend_threshold_m", r.blend_threshold_m, ">= slow_blend_threshold_m");
  require(std::isfinite(r.warp_distance_m) && r.warp_distance_m > r.blend_threshold_m,
          "warp_distance_m", r.warp_distance_m, "a finite value > blend_threshold_m");
  require(finite_non_negative(r.slow_blend_threshold_rad), "slow_blend_threshold_rad",
          r.slow_blend_threshold_rad, "a finite value >= 0");
  require(std::isfinite(r.blend_threshold_rad) &&
              r.blend_threshold_rad >= r.slow_blend_threshold_rad,
          "blend_threshold_rad", r.blend_threshold_rad, ">= slow_blend_threshold_rad");
  require(std::isfinite(r.warp_angle_rad) && r.warp_angle_rad > r.blend_threshold_rad &&
              r.warp_angle_rad <= 3.1416f,
          "warp_angle_rad", r.warp_angle_rad, "a value > blend_threshold_rad and <= pi");
  require(finite_non_negative(r.slow_speed), "slow_speed", r.slow_speed, "a finite value >= 0");
  require(finite_non_negative(r.low_speed), "low_speed", r.low_speed, "a finite value >= 0");
  require(std::isfinite(r.high_speed) && r.high_speed > r.low_speed, "high_speed", r.high_speed,
          "a finite value > low_speed");
  require(open_unit(r.blend_rate_low_speed), "blend_rate_low_speed", r.blend_rate_low_speed,
          "a fraction per 1/30 s in (0, 1)");
  require(open_unit(r.blend_rate_high_speed), "blend_rate_high_speed", r.blend_rate_high_speed,
          "a fraction per 1/30 s in (0, 1)");
  // A positive floor is what makes every error reach exactly zero in finite time.
  require(std::isfinite(r.min_closing_speed_low) && r.min_closing_speed_low > 0,
          "min_closing_speed_low", r.min_closing_speed_low, "a finite speed > 0 (m/s)");
  require(std::isfinite(r.min_closing_speed_high) && r.min_closing_speed_high > 0,
          "min_closing_speed_high", r.min_closing_speed_high, "a finite speed > 0 (m/s)");
  require(std::isfinite(r.min_closing_angular_speed_low) && r.min_closing_angular_speed_low > 0,
          "min_closing_angular_speed_low", r.min_closing_angular_speed_low,
          "a finite angular speed > 0 (rad/s)");
  require(std::isfinite(r.min_closing_angular_speed_high) && r.min_closing_angular_speed_high > 0,
          "min_closing_angular_speed_high", r.min_closing_angular_speed_high,
          "a finite angular speed > 0 (rad/s)");
}

SmoothingRules::SmoothingRules(SmoothingRule default_rule) : default_rule_(default_rule) {
  validate(default_rule);
}

void SmoothingRules::set(std::uint16_t object_type, ControlMode mode, const SmoothingRule& rule) {
  validate(rule);
  const std::uint32_t key = key_of(object_type, mode);
  const auto it = std::lower_bound(entries_.begin(), entries_.end(), key,
                                   [](const Entry& e, std::uint32_t k) { return e.key < k; });
  if (it != entries_.end() && it->key == key) {
    it->rule = rule;
  } else {
    entries_.insert(it, Entry{key, rule});
  }
}

const SmoothingRule& SmoothingRules::find(std::uint16_t object_type, ControlMode mode) const {
  const std::uint32_t key = key_of(object_type, mode);
  const auto it = std::lower_bound(entries_.begin(), entries_.end(), key,
                                   [](const Entry& e, std::uint32_t k) { return e.key < k; });
  return it != entries_.end() && it->key == key ? it->rule : default_rule_;
}

}  // namespace shoal
