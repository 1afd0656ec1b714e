// SPDX-License-Identifier: MIT
#include "present/visual_smoother.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <string>

#include "core/prefetch_ahead.hpp"

namespace shoal::present {
namespace {

// Render interpolation between two consecutive frames, for every turning body every render
// frame. Turns under 0.2 rad a frame (12 rad/s at 60 Hz) are interpolated by normalised lerp,
// within 3.3e-5 rad of slerp and without its acos and three sines; faster spins take slerp.
Quat between_frames(Quat a, Quat b, float t) {
  if (dot(a, b) < 0) b = {-b.w, -b.x, -b.y, -b.z};
  if (dot(a, b) <= 0.995f) return slerp(a, b, t);
  return normalized(Quat{a.w + (b.w - a.w) * t, a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t,
                         a.z + (b.z - a.z) * t});
}

/// The rules express blending as a fraction removed per 1/30 s (a rate tuned at 30 Hz reads
/// the same whatever the frame rate).
constexpr float kRuleRateHz = 30.0f;

/// Size of an error after dt seconds of closing at max(k * e, floor) while e is above
/// `floor_only_below`, and at `floor` under it. Integrated exactly (an exponential phase, then
/// a linear one), so splitting dt into more, shorter updates gives the same result.
float close_error(float e, float dt, float k, float floor, float floor_only_below) {
  const float boundary = std::max(floor_only_below, floor / k);
  if (e > boundary) {
    const float time_to_boundary = std::log(e / boundary) / k;
    if (dt <= time_to_boundary) return e * std::exp(-k * dt);
    e = boundary;
    dt -= time_to_boundary;
  }
  return std::max(0.0f, e - floor * dt);
}

float rotation_angle(Quat q) {
  const float w = std::min(1.0f, std::fabs(q.w));
  return 2.0f * std::acos(w);
}

void require_size(std::size_t actual, std::size_t expected, const char* what) {
  if (actual == expected) return;
  throw std::invalid_argument(std::string("VisualSmoother::update: ") + what + " holds " +
                              std::to_string(actual) + " entries, expected one per body (" +
                              std::to_string(expected) + ")");
}

// dt and alpha as update() uses them: negative or non-finite dt counts as 0, alpha is clamped.
struct Inputs {
  float dt;
  float alpha;
};

Inputs checked_inputs(float dt_seconds, float alpha) {
  return {std::isfinite(dt_seconds) && dt_seconds > 0 ? dt_seconds : 0.0f,
          std::isfinite(alpha) ? std::clamp(alpha, 0.0f, 1.0f) : 1.0f};
}

}  // namespace

VisualSmoother::VisualSmoother(std::size_t body_count, const SmoothingRules& rules, float frame_s)
    : rules_(rules), bodies_(body_count), frame_s_(frame_s) {
  changing_.reserve(body_count);
  next_changing_.reserve(body_count);
}

void VisualSmoother::on_correction(BodyIndex body, const ObjectState& before,
                                   const ObjectState& after) {
  Offset& offset = bodies_.at(body).offset;
  offset.position += before.position - after.position;
  // Keep rotation * orientation unchanged: new = old * before * after^-1.
  offset.rotation =
      normalized(offset.rotation * before.orientation * conjugate(after.orientation));
  ++stats_.corrections;
}

float VisualSmoother::angle_error(BodyIndex body) const {
  return rotation_angle(bodies_.at(body).offset.rotation);
}

void VisualSmoother::close_offset(Offset& offset, const SmoothingRule& rule, float speed,
                                  float dt) {
  const float position_error = length(offset.position);
  const float angle = rotation_angle(offset.rotation);
  stats_.max_position_error_m = std::max(stats_.max_position_error_m, position_error);
  stats_.max_angle_error_rad = std::max(stats_.max_angle_error_rad, angle);
  if (position_error > rule.warp_distance_m || angle > rule.warp_angle_rad) {
    offset = Offset{};
    ++stats_.warps;
    stats_.moved_mm.add(position_error * 1e3f);  // the drawn pose jumps
    return;
  }
  if (position_error == 0 && angle == 0) return;

  const float t = std::clamp((speed - rule.low_speed) / (rule.high_speed - rule.low_speed), 0.0f, 1.0f);
  const float rate = rule.blend_rate_low_speed + (rule.blend_rate_high_speed - rule.blend_rate_low_speed) * t;
  const float k = -std::log(1.0f - rate) * kRuleRateHz;  // per-second decay constant
  const bool slow = speed < rule.slow_speed;

  if (position_error > 0) {
    const float floor =
        rule.min_closing_speed_low + (rule.min_closing_speed_high - rule.min_closing_speed_low) * t;
    const float threshold = slow ? rule.slow_blend_threshold_m : rule.blend_threshold_m;
    const float remaining = close_error(position_error, dt, k, floor, threshold);
    offset.position *= remaining / position_error;
    // What the game sees move on top of the motion: the offset's closing, per frame.
    if (dt > 0) stats_.moved_mm.add((position_error - remaining) * 1e3f * frame_s_ / dt);
  }
  if (angle > 0) {
    const float floor = rule.min_closing_angular_speed_low +
                        (rule.min_closing_angular_speed_high - rule.min_closing_angular_speed_low) * t;
    const float threshold = slow ? rule.slow_blend_threshold_rad : rule.blend_threshold_rad;
    const float remaining = close_error(angle, dt, k, floor, threshold);
    offset.rotation = remaining > 0 ? slerp(Quat{}, offset.rotation, remaining / angle) : Quat{};
  }
}

void VisualSmoother::visit(BodyIndex body, const ObjectState& prev, const ObjectState& cur,
                           float alpha, float dt, std::uint16_t type, ControlMode mode) {
  Body& entry = bodies_[body];
  Offset& offset = entry.offset;
  // Most bodies carry no error: nothing to close (close_offset would leave it as it is).
  const bool no_offset = offset.position == Vec3{} && offset.rotation == Quat{};
  if (!no_offset) close_offset(offset, rules_.find(type, mode), length(cur.linear_velocity), dt);
  entry.visual.position = lerp(prev.position, cur.position, alpha) + offset.position;
  // Resting bodies (most of a large world) have nothing to interpolate or offset.
  const bool turning = !(prev.orientation == cur.orientation);
  const Quat turned = turning ? between_frames(prev.orientation, cur.orientation, alpha) : cur.orientation;
  entry.visual.orientation =
      offset.rotation == Quat{} ? turned : normalized(offset.rotation * turned);
  const bool still = !turning && prev.position == cur.position && offset.position == Vec3{} &&
                     offset.rotation == Quat{};
  if (!still) next_changing_.push_back(body);
}

void VisualSmoother::check_sizes(std::span<const ObjectState> previous_frame,
                                 std::span<const ObjectState> current_frame,
                                 std::span<const std::uint16_t> types,
                                 std::span<const ControlMode> modes) const {
  const std::size_t n = bodies_.size();
  require_size(previous_frame.size(), n, "previous_frame");
  require_size(current_frame.size(), n, "current_frame");
  require_size(types.size(), n, "types");
  require_size(modes.size(), n, "modes");
}

void VisualSmoother::update(float dt_seconds, std::span<const ObjectState> previous_frame,
                            std::span<const ObjectState> current_frame, float alpha,
                            std::span<const std::uint16_t> types,
                            std::span<const ControlMode> modes) {
  const std::size_t n = bodies_.size();
  check_sizes(previous_frame, current_frame, types, modes);
  const Inputs in = checked_inputs(dt_seconds, alpha);
  next_changing_.clear();
  for (BodyIndex i = 0; i < n; ++i) {
    visit(i, previous_frame[i], current_frame[i], in.alpha, in.dt, types[i], modes[i]);
  }
  std::swap(changing_, next_changing_);
}

void VisualSmoother::update_touched(float dt_seconds, std::span<const ObjectState> previous_frame,
                                    std::span<const ObjectState> current_frame, float alpha,
                                    std::span<const std::uint16_t> types,
                                    std::span<const ControlMode> modes,
                                    std::span<const BodyIndex> touched) {
  const std::size_t n = bodies_.size();
  check_sizes(previous_frame, current_frame, types, modes);
  const Inputs in = checked_inputs(dt_seconds, alpha);
  if (++pass_ == 0) {  // the stamps wrapped: forget them all
    for (Body& b : bodies_) b.visited = 0;
    pass_ = 1;
  }
  next_changing_.clear();
  auto visit_once = [&](BodyIndex i) {
    if (i >= n || bodies_[i].visited == pass_) return;
    bodies_[i].visited = pass_;
    visit(i, previous_frame[i], current_frame[i], in.alpha, in.dt, types[i], modes[i]);
  };
  // The bodies are scattered over tables the rest of the frame has pushed out of the caches.
  const std::size_t total = changing_.size() + touched.size();
  auto nth = [&](std::size_t k) { return k < changing_.size() ? changing_[k] : touched[k - changing_.size()]; };
  constexpr std::size_t kAhead = 6;
  core::visit_prefetching_ahead(
      total, kAhead,
      [&](std::size_t k) -> std::array<const void*, 3> {
        const BodyIndex i = nth(k);
        if (i >= n) return {};
        return {&bodies_[i], &previous_frame[i], &current_frame[i]};
      },
      [&](std::size_t k) { visit_once(nth(k)); });
  std::swap(changing_, next_changing_);
}

}  // namespace shoal::present
