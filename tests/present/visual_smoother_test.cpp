// SPDX-License-Identifier: MIT
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "core/random.hpp"
#include "present/visual_smoother.hpp"

using shoal::ControlMode;
using shoal::ObjectState;
using shoal::Quat;
using shoal::SmoothingRule;
using shoal::SmoothingRules;
using shoal::Vec3;
using shoal::present::VisualSmoother;

namespace {

/// One body moving at constant velocity, simulated at 60 Hz and drawn at `render_hz`.
/// A correction of `jump` is applied at t = 0; returns the position error at each checkpoint.
std::vector<float> error_after_correction(float render_hz, Vec3 velocity, Vec3 jump,
                                          const std::vector<float>& checkpoints_s,
                                          const SmoothingRules& rules = SmoothingRules{}) {
  VisualSmoother smoother(1, rules);
  ObjectState state;
  state.linear_velocity = velocity;
  const std::array<std::uint16_t, 1> types{0};
  const std::array<ControlMode, 1> modes{ControlMode::uncontrolled};
  ObjectState corrected = state;
  corrected.position += jump;
  smoother.on_correction(0, state, corrected);
  state = corrected;

  std::vector<float> errors;
  const float dt = 1.0f / render_hz;
  float t = 0;
  std::size_t next = 0;
  for (int frame = 0; frame < 100'000 && next < checkpoints_s.size(); ++frame) {
    ObjectState previous = state;
    state.position += state.linear_velocity * dt;
    smoother.update(dt, std::span(&previous, 1), std::span(&state, 1), 1.0f, types, modes);
    t += dt;
    if (t >= checkpoints_s[next] - dt * 0.5f) {
      errors.push_back(shoal::length(smoother.position_error(0)));
      ++next;
    }
  }
  return errors;
}

}  // namespace

TEST_CASE("error offset decays to zero at the same pace at 30, 60 and 144 Hz") {
  // Checkpoints on multiples of 1/6 s, which all three rates hit exactly.
  const std::vector<float> checkpoints{1.0f / 6, 2.0f / 6, 3.0f / 6, 4.0f / 6, 1.0f, 2.0f, 4.0f};
  const Vec3 velocity{3, 0, 0};
  const Vec3 jump{4.0f, -2.0f, 1.0f};  // 4.6 m: above the blend threshold, below the warp
  const auto at30 = error_after_correction(30, velocity, jump, checkpoints);
  const auto at60 = error_after_correction(60, velocity, jump, checkpoints);
  const auto at144 = error_after_correction(144, velocity, jump, checkpoints);
  REQUIRE(at30.size() == checkpoints.size());
  REQUIRE(at60.size() == checkpoints.size());
  REQUIRE(at144.size() == checkpoints.size());
  float worst_difference = 0;
  for (std::size_t i = 0; i < checkpoints.size(); ++i) {
    CAPTURE(checkpoints[i]);
    worst_difference = std::max({worst_difference, std::fabs(at60[i] - at30[i]),
                                 std::fabs(at144[i] - at30[i])});
    CHECK(at60[i] == doctest::Approx(at30[i]).epsilon(0.01).scale(0.01));
    CHECK(at144[i] == doctest::Approx(at30[i]).epsilon(0.01).scale(0.01));
    if (i > 0) CHECK(at60[i] < at60[i - 1] + 1e-6f);
  }
  MESSAGE("error after 1/6 s: " << at30[0] << " m at 30 Hz, " << at60[0] << " m at 60 Hz, "
                                 << at144[0] << " m at 144 Hz; worst difference "
                                 << worst_difference << " m");
  CHECK(at60[0] > 1.0f);      // still visibly closing after 1/6 s
  CHECK(at60.back() == 0.0f);  // and exactly gone after 4 s
}

TEST_CASE("a correction below the warp limit never pops: per-frame change obeys the closing rule") {
  const SmoothingRule rule;  // the defaults
  VisualSmoother smoother(1, SmoothingRules{rule});
  ObjectState state;
  state.linear_velocity = {10, 0, 0};
  const std::array<std::uint16_t, 1> types{0};
  const std::array<ControlMode, 1> modes{ControlMode::controlled};
  const float dt = 1.0f / 60;

  ObjectState previous = state;
  smoother.update(dt, std::span(&previous, 1), std::span(&state, 1), 1.0f, types, modes);
  Vec3 last_visual = smoother.visual(0).position;

  ObjectState corrected = state;
  corrected.position += Vec3{0, 6.0f, 0};  // 6 m, under the 7.5 m warp distance
  smoother.on_correction(0, state, corrected);
  state = corrected;

  // The fastest the rule can close: max(k * e, fastest floor), k from the larger blend rate.
  const float k = -std::log(1.0f - std::max(rule.blend_rate_low_speed, rule.blend_rate_high_speed)) * 30.0f;
  const float floor = std::max(rule.min_closing_speed_low, rule.min_closing_speed_high);
  float error = 6.0f;
  for (int frame = 0; frame < 600; ++frame) {
    previous = state;
    state.position += state.linear_velocity * dt;
    smoother.update(dt, std::span(&previous, 1), std::span(&state, 1), 1.0f, types, modes);
    const Vec3 visual = smoother.visual(0).position;
    const Vec3 sim_step = state.position - previous.position;
    const float offset_step = shoal::length((visual - last_visual) - sim_step);
    CHECK(offset_step <= std::max(k * error, floor) * dt + 1e-4f);
    error = shoal::length(smoother.position_error(0));
    last_visual = visual;
  }
  CHECK(smoother.stats().warps == 0);
  CHECK(smoother.stats().max_position_error_m == doctest::Approx(6.0f));
  CHECK(error == 0.0f);
}

TEST_CASE("the smoother counts how far it moves each drawn pose beyond its motion, per frame, at any render rate") {
  // At rest the rule closes a small offset at its floor, 2.5 m/s: 41.7 mm per 1/60 s frame,
  // whether the game draws at 60 or 240 Hz; a warp counts its whole jump.
  const SmoothingRule rule;
  const std::array<std::uint16_t, 1> types{0};
  const std::array<ControlMode, 1> modes{ControlMode::uncontrolled};
  const float per_frame_mm = rule.min_closing_speed_low * 1000.0f / 60.0f;
  for (const int render_hz : {60, 240}) {
    CAPTURE(render_hz);
    VisualSmoother smoother(1, SmoothingRules{rule}, 1.0f / 60.0f);
    ObjectState state, corrected;
    corrected.position = {0.5f, 0, 0};  // under the blend threshold: the floor closes it
    smoother.on_correction(0, state, corrected);
    const float dt = 1.0f / static_cast<float>(render_hz);
    for (int i = 0; i < render_hz; ++i) smoother.update(dt, std::span(&corrected, 1), std::span(&corrected, 1), 1.0f, types, modes);
    const shoal::Histogram& moved = smoother.stats().moved_mm;
    // 0.5 m at 2.5 m/s: 0.2 s of updates with an offset (and a last one for what rounding left).
    const auto closing_updates = static_cast<std::uint64_t>(render_hz / 5);
    CHECK(moved.total >= closing_updates);
    CHECK(moved.total <= closing_updates + 1);
    CHECK(moved.max == doctest::Approx(per_frame_mm).epsilon(0.01));
    CHECK(moved.percentile(0.5) >= per_frame_mm - moved.width);
    CHECK(moved.percentile(0.5) <= per_frame_mm + moved.width);
    CHECK(shoal::length(smoother.position_error(0)) == 0.0f);
  }
  VisualSmoother warped(1, SmoothingRules{rule});
  ObjectState state, far;
  far.position = {10, 0, 0};  // past the 7.5 m warp distance
  warped.on_correction(0, state, far);
  warped.update(1.0f / 60, std::span(&far, 1), std::span(&far, 1), 1.0f, types, modes);
  CHECK(warped.stats().moved_mm.max == doctest::Approx(10000.0f));
}

TEST_CASE("a correction above the warp limit snaps to the simulated state") {
  VisualSmoother smoother(1, SmoothingRules{});
  ObjectState state;
  const std::array<std::uint16_t, 1> types{0};
  const std::array<ControlMode, 1> modes{ControlMode::uncontrolled};
  ObjectState corrected = state;
  corrected.position = {10, 0, 0};  // beyond 7.5 m
  smoother.on_correction(0, state, corrected);
  smoother.update(1.0f / 60, std::span(&corrected, 1), std::span(&corrected, 1), 0.5f, types, modes);
  CHECK(smoother.stats().warps == 1);
  CHECK(smoother.visual(0).position == corrected.position);
  CHECK(shoal::length(smoother.position_error(0)) == 0.0f);
}

TEST_CASE("a small correction of a resting object glides out and the visual comes to rest") {
  VisualSmoother smoother(1, SmoothingRules{});
  ObjectState state;
  state.at_rest = true;
  const std::array<std::uint16_t, 1> types{0};
  const std::array<ControlMode, 1> modes{ControlMode::uncontrolled};
  ObjectState corrected = state;
  corrected.position = {0.05f, 0, 0};  // below the slow blend threshold
  corrected.orientation = shoal::axis_angle({0, 0, 1}, 0.03f);
  smoother.on_correction(0, state, corrected);
  CHECK(smoother.angle_error(0) == doctest::Approx(0.03f).epsilon(0.01));

  shoal::VisualState last{};
  int still_frames = 0;
  for (int frame = 0; frame < 300; ++frame) {
    smoother.update(1.0f / 60, std::span(&corrected, 1), std::span(&corrected, 1), 1.0f, types, modes);
    still_frames = smoother.visual(0) == last ? still_frames + 1 : 0;
    last = smoother.visual(0);
  }
  CHECK(smoother.stats().warps == 0);
  CHECK(smoother.visual(0).position == corrected.position);  // exactly, not asymptotically
  CHECK(smoother.angle_error(0) == 0.0f);
  CHECK(still_frames > 200);  // settled early and has not moved since
}

TEST_CASE("speed sets the blend rate: with a faster high-speed rate, fast objects close faster") {
  SmoothingRule rule;
  rule.blend_rate_low_speed = 0.05f;
  rule.blend_rate_high_speed = 0.3f;
  rule.min_closing_speed_low = 0.1f;
  rule.min_closing_speed_high = 0.1f;
  rule.blend_threshold_m = 0.1f;  // keep the fast object in the blending regime throughout
  const SmoothingRules rules{rule};
  const Vec3 jump{5, 0, 0};
  const std::vector<float> checkpoints{0.25f, 0.5f};
  const auto slow = error_after_correction(60, {0, 0, 0}, jump, checkpoints, rules);
  const auto medium = error_after_correction(60, {0, 0, rule.high_speed / 2}, jump, checkpoints, rules);
  const auto fast = error_after_correction(60, {0, 0, rule.high_speed}, jump, checkpoints, rules);
  REQUIRE(slow.size() == 2);
  CHECK(fast[0] < medium[0]);
  CHECK(medium[0] < slow[0]);
  // At or above high_speed the rate is the high one: 0.3 per 1/30 s over 0.25 s.
  CHECK(fast[0] == doctest::Approx(5.0 * std::pow(0.7, 7.5)).epsilon(0.01));
  CHECK(slow[0] == doctest::Approx(5.0 * std::pow(0.95, 7.5)).epsilon(0.01));
}

TEST_CASE("render interpolation between the last two frames at alpha 0, 0.5 and 1") {
  VisualSmoother smoother(1, SmoothingRules{});
  ObjectState a;
  ObjectState b;
  b.position = {2, 4, 0};
  b.orientation = shoal::axis_angle({0, 0, 1}, 1.5707964f);
  const std::array<std::uint16_t, 1> types{0};
  const std::array<ControlMode, 1> modes{ControlMode::uncontrolled};
  auto at = [&](float alpha) {
    smoother.update(1.0f / 60, std::span(&a, 1), std::span(&b, 1), alpha, types, modes);
    return smoother.visual(0);
  };
  const auto v0 = at(0.0f);
  CHECK(v0.position == a.position);
  CHECK(shoal::angle_between(v0.orientation, a.orientation) < 1e-3f);
  const auto v_half = at(0.5f);
  CHECK(v_half.position.x == doctest::Approx(1.0f));
  CHECK(v_half.position.y == doctest::Approx(2.0f));
  CHECK(shoal::angle_between(v_half.orientation, a.orientation) == doctest::Approx(0.785398f).epsilon(0.001));
  const auto v1 = at(1.0f);
  CHECK(v1.position == b.position);
  CHECK(shoal::angle_between(v1.orientation, b.orientation) < 1e-3f);
}

TEST_CASE("the smoother leaves the simulation state untouched and checks span sizes") {
  VisualSmoother smoother(2, SmoothingRules{});
  std::vector<ObjectState> previous(2);
  std::vector<ObjectState> current(2);
  current[0].position = {1, 2, 3};
  current[0].linear_velocity = {5, 0, 0};
  current[1].orientation = shoal::axis_angle({1, 0, 0}, 0.5f);
  const std::vector<ObjectState> previous_copy = previous;
  const std::vector<ObjectState> current_copy = current;
  ObjectState before = current[0];  // the simulation had the body 3 m higher
  before.position.y += 3.0f;
  smoother.on_correction(0, before, current[0]);
  const std::vector<std::uint16_t> types{0, 1};
  const std::vector<ControlMode> modes{ControlMode::controlled, ControlMode::uncontrolled};
  for (int i = 0; i < 30; ++i) smoother.update(1.0f / 60, previous, current, 0.5f, types, modes);
  CHECK(previous == previous_copy);
  CHECK(current == current_copy);
  // The offset lives only in the visual state: drawn = interpolated simulation + offset.
  CHECK(smoother.position_error(0).y > 0.5f);
  CHECK(smoother.visual(0).position.y == doctest::Approx(1.0f + smoother.position_error(0).y));

  const std::vector<std::uint16_t> short_types{0};
  CHECK_THROWS_WITH_AS(smoother.update(0.01f, previous, current, 0.5f, short_types, modes),
                       doctest::Contains("types"), std::invalid_argument);
  CHECK_THROWS_AS(smoother.on_correction(2, before, before), std::out_of_range);
}

TEST_CASE("rules table: lookup by type and mode, default otherwise, validation with messages") {
  SmoothingRules rules;
  CHECK(rules.find(7, ControlMode::controlled) == SmoothingRule{});
  SmoothingRule vehicle;
  vehicle.warp_distance_m = 12.0f;
  SmoothingRule driven_vehicle = vehicle;
  driven_vehicle.blend_rate_high_speed = 0.2f;
  rules.set(7, ControlMode::uncontrolled, vehicle);
  rules.set(7, ControlMode::controlled, driven_vehicle);
  rules.set(3, ControlMode::controlled, SmoothingRule{});
  CHECK(rules.find(7, ControlMode::uncontrolled) == vehicle);
  CHECK(rules.find(7, ControlMode::controlled) == driven_vehicle);
  CHECK(rules.find(8, ControlMode::controlled) == rules.default_rule());
  rules.set(7, ControlMode::controlled, vehicle);  // replaces
  CHECK(rules.find(7, ControlMode::controlled) == vehicle);

  SmoothingRule bad;
  bad.warp_distance_m = 1.0f;  // below the blend threshold
  CHECK_THROWS_WITH_AS(rules.set(1, ControlMode::controlled, bad), doctest::Contains("warp_distance_m"),
                       std::invalid_argument);
  CHECK(rules.find(1, ControlMode::controlled) == rules.default_rule());  // nothing stored
  bad = {};
  bad.blend_rate_low_speed = 1.0f;
  CHECK_THROWS_WITH_AS(SmoothingRules{bad}, doctest::Contains("blend_rate_low_speed"),
                       std::invalid_argument);
  bad = {};
  bad.min_closing_speed_high = 0.0f;
  CHECK_THROWS_WITH_AS(SmoothingRules{bad}, doctest::Contains("min_closing_speed_high"),
                       std::invalid_argument);
  bad = {};
  bad.high_speed = std::nanf("");
  CHECK_THROWS_WITH_AS(shoal::validate(bad), doctest::Contains("high_speed"), std::invalid_argument);
  bad = {};
  bad.slow_blend_threshold_m = 2.0f;  // above blend_threshold_m
  CHECK_THROWS_AS(shoal::validate(bad), std::invalid_argument);
}

TEST_CASE("visiting only the touched bodies draws exactly what a full update draws") {
  // A world of mostly resting bodies, a few moving, stopping and being corrected, drawn at a
  // varying rate (several updates per simulated frame). The test names as touched exactly the
  // bodies whose previous or current frame changed since the last update.
  constexpr std::size_t kBodies = 300;
  VisualSmoother full(kBodies, SmoothingRules{}), touched_only(kBodies, SmoothingRules{});
  std::vector<ObjectState> previous(kBodies), current(kBodies);
  for (std::size_t i = 0; i < kBodies; ++i) {
    current[i].position = {static_cast<float>(i % 20), 0.5f, static_cast<float>(i / 20)};
    current[i].at_rest = true;
  }
  previous = current;
  std::vector<ObjectState> drawn_previous = previous, drawn_current = current;
  const std::vector<std::uint16_t> types(kBodies, 0);
  const std::vector<ControlMode> modes(kBodies, ControlMode::uncontrolled);
  std::vector<shoal::BodyIndex> touched;
  shoal::core::Random random(12345);
  auto next = [&] { return random.next_u64(); };
  int moving_draws = 0, corrections = 0;
  full.update(0, previous, current, 1, types, modes);
  touched_only.update(0, previous, current, 1, types, modes);
  for (int frame = 0; frame < 400; ++frame) {
    // One simulated frame: a few bodies start, keep or stop moving; some are corrected.
    previous = current;
    for (std::size_t i = 0; i < kBodies; ++i) {
      ObjectState& s = current[i];
      if (next() % 50 == 0) s.linear_velocity = {static_cast<float>(next() % 5) - 2.0f, 0, 1};
      if (next() % 40 == 0) s.linear_velocity = {};
      s.position += s.linear_velocity * (1.0f / 60);
      if (!(s.linear_velocity == Vec3{})) s.orientation = shoal::integrate(s.orientation, {0, 2, 0}, 1.0f / 60);
    }
    if (next() % 3 == 0) {
      const std::size_t b = next() % kBodies;
      ObjectState corrected = current[b];
      corrected.position.x += 0.2f;
      full.on_correction(static_cast<shoal::BodyIndex>(b), current[b], corrected);
      touched_only.on_correction(static_cast<shoal::BodyIndex>(b), current[b], corrected);
      current[b] = corrected;
      ++corrections;
    }
    const int draws = 1 + static_cast<int>(next() % 3);
    for (int d = 0; d < draws; ++d) {
      touched.clear();
      for (std::size_t i = 0; i < kBodies; ++i) {
        if (!(previous[i] == drawn_previous[i]) || !(current[i] == drawn_current[i])) {
          touched.push_back(static_cast<shoal::BodyIndex>(i));
        }
      }
      drawn_previous = previous;
      drawn_current = current;
      const float alpha = static_cast<float>(d + 1) / static_cast<float>(draws);
      const float dt = 1.0f / (60.0f * static_cast<float>(draws));
      full.update(dt, previous, current, alpha, types, modes);
      touched_only.update_touched(dt, previous, current, alpha, types, modes, touched);
      for (shoal::BodyIndex i = 0; i < kBodies; ++i) {
        CAPTURE(frame);
        CAPTURE(i);
        REQUIRE(full.visual(i) == touched_only.visual(i));
        moving_draws += full.visual(i).position == current[i].position ? 0 : 1;
      }
    }
  }
  CHECK(moving_draws > 1000);
  CHECK(corrections > 100);
}

TEST_CASE("render interpolation of a turning body stays within 1e-4 rad of slerp at any spin") {
  // Slow turns are interpolated by normalised lerp (no acos, no sines), fast ones by slerp:
  // either way the drawn pose between two frames is where slerp puts it, to the eye.
  const std::array<std::uint16_t, 1> types{0};
  const std::array<ControlMode, 1> modes{ControlMode::uncontrolled};
  float worst = 0;
  for (const float spin_radps : {0.5f, 3.0f, 9.0f, 11.9f, 12.1f, 20.0f, 60.0f}) {
    for (const float alpha : {0.1f, 0.25f, 0.5f, 0.8f}) {
      VisualSmoother smoother(1, SmoothingRules{});
      ObjectState previous, current;
      previous.orientation = shoal::axis_angle(Vec3{0.3f, 1, 0.2f}, 0.7f);
      current.orientation = shoal::axis_angle(Vec3{0.3f, 1, 0.2f}, 0.7f + spin_radps / 60);
      smoother.update(1.0f / 60, std::span(&previous, 1), std::span(&current, 1), alpha, types, modes);
      const Quat expected = shoal::slerp(previous.orientation, current.orientation, alpha);
      worst = std::max(worst, shoal::angle_between(smoother.visual(0).orientation, expected));
    }
  }
  CHECK(worst < 1e-4f);
}
