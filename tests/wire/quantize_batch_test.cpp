// SPDX-License-Identifier: MIT
// Settling many states at once (Quantizer::settle_states, four lanes at a time) must give what
// settling each on its own gives, bit for bit: codes, states, stability and clamp counts. Every
// peer depends on it. The states are drawn to reach every edge of the arithmetic: rounding ties,
// whole velocity steps, near ties of orientation components, clamps, NaN and infinities.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include "core/bitwise_equal.hpp"
#include "core/random.hpp"
#include "wire/quantize.hpp"

using namespace shoal;
using namespace shoal::wire;

namespace {

constexpr float kNan = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

float pick(core::Random& r, std::initializer_list<float> values) {
  return *(values.begin() + r.next_u64() % values.size());
}

// A coordinate: anywhere, on a rounding tie or a whole step of `units_per`, out of bounds, or
// not a number.
float coordinate(core::Random& r, float low, float high, float units_per) {
  switch (r.next_u64() % 8) {
    case 0: return (std::floor(static_cast<float>(r.uniform(low, high)) * units_per) + 0.5f) / units_per;
    case 1: return std::floor(static_cast<float>(r.uniform(low, high)) * units_per) / units_per;
    case 2: return static_cast<float>(r.uniform(low, high)) * 3.0f;  // partly out of bounds
    case 3: return pick(r, {kNan, kInf, -kInf, 0.0f, -0.0f, 1e-40f, -1e30f, 1e30f});
    default: return static_cast<float>(r.uniform(low, high));
  }
}

// A velocity component: anywhere within twice the limit, on a whole step or a hair either side
// of one (toward zero counts 1/1024 of a step as on it), or special.
float velocity(core::Random& r, float limit, float units_per) {
  const float whole = std::floor(static_cast<float>(r.uniform(-limit, limit)) * units_per);
  switch (r.next_u64() % 8) {
    case 0: return whole / units_per;
    case 1: return (whole + pick(r, {1.0f / 1024, -1.0f / 1024, 1.0f / 1010, -1.0f / 1010, 1.0f / 1040, -1.0f / 1040})) / units_per;
    case 2: return pick(r, {kNan, kInf, -kInf, -0.0f, 1e-40f});
    default: return static_cast<float>(r.uniform(-2 * limit, 2 * limit));
  }
}

// An orientation: random, or with two or three components of (nearly) equal magnitude, the
// case where which one is dropped flips; or degenerate.
Quat orientation(core::Random& r) {
  auto u = [&] { return static_cast<float>(r.uniform(-1, 1)); };
  switch (r.next_u64() % 8) {
    case 0: {
      const float a = u();
      const float b = std::nextafter(a, pick(r, {2.0f, -2.0f})) * pick(r, {1.0f, -1.0f});
      return Quat{a, b, u() * 0.5f, u() * 0.5f};
    }
    case 1: {
      const float a = u();
      return Quat{u() * 0.3f, a, -a, a};
    }
    case 2: return pick(r, {0.0f, 1.0f}) == 0.0f ? Quat{0, 0, 0, 0} : Quat{1e30f, 1e30f, u(), u()};
    case 3: return Quat{u(), pick(r, {kNan, kInf, -kInf}), u(), u()};
    case 4: return Quat{u(), u(), u(), u()};  // not normalised
    default: return normalized(Quat{u(), u(), u(), u()});
  }
}

ObjectState random_state(core::Random& r, const SnapshotConfig& c) {
  ObjectState s;
  s.position = {coordinate(r, c.world_min.x, c.world_max.x, c.position_units_per_m),
                coordinate(r, c.world_min.y, c.world_max.y, c.position_units_per_m),
                coordinate(r, c.world_min.z, c.world_max.z, c.position_units_per_m)};
  s.orientation = orientation(r);
  const float v = c.max_linear_speed_mps, w = c.max_angular_speed_radps, units = c.velocity_units_per_mps;
  s.linear_velocity = {velocity(r, v, units), velocity(r, v, units), velocity(r, v, units)};
  s.angular_velocity = {velocity(r, w, units), velocity(r, w, units), velocity(r, w, units)};
  s.at_rest = r.next_u64() % 4 == 0;
  return s;
}

struct Comparison {
  int states = 0, differ = 0, unstable = 0;
  std::uint64_t clamped_alone = 0, clamped_together = 0;
};

// Settles `states` both ways; counts the states whose results differ.
void compare(const Quantizer& quantizer, const std::vector<ObjectState>& states, Comparison& out) {
  std::vector<SettledState> together(states.size() + 3);  // longer than needed is allowed
  quantizer.settle_states(states, together, &out.clamped_together);
  for (std::size_t i = 0; i < states.size(); ++i) {
    const SettledState alone = quantizer.settle_state(states[i], &out.clamped_alone);
    const SettledState& t = together[i];
    const bool same = alone.quantized == t.quantized && core::bitwise_equal(alone.state, t.state) &&
                      alone.stable == t.stable;
    out.differ += same ? 0 : 1;
    out.unstable += alone.stable ? 0 : 1;
    ++out.states;
  }
}

}  // namespace

TEST_CASE("quantize batch: settling states together gives what settling each alone gives, bit for bit") {
  SnapshotConfig coarse;
  coarse.orientation_bits = 9;
  coarse.position_units_per_m = 64;
  coarse.velocity_units_per_mps = 16;
  SnapshotConfig fine;
  fine.orientation_bits = 16;
  fine.world_min = {-2000, -50, -2000};
  fine.world_max = {2000, 500, 2000};
  fine.position_units_per_m = 1000;
  SnapshotConfig deep;  // past 16 bits the quick check is off: every state takes the passes
  deep.orientation_bits = 20;
  for (const SnapshotConfig& config : {SnapshotConfig{}, coarse, fine, deep}) {
    CAPTURE(config.orientation_bits);
    const Quantizer quantizer(config);
    core::Random random(2024 + static_cast<std::uint64_t>(config.orientation_bits));
    Comparison c;
    // Batches of every length around the four lanes, and long ones.
    for (std::size_t length : {1, 2, 3, 4, 5, 7, 8, 9, 1000}) {
      for (int round = 0; round < (length < 100 ? 400 : 20); ++round) {
        std::vector<ObjectState> states(length);
        for (ObjectState& s : states) s = random_state(random, config);
        compare(quantizer, states, c);
      }
    }
    CAPTURE(c.states);
    CHECK(c.differ == 0);
    CHECK(c.clamped_together == c.clamped_alone);
    // The draw reached the edges it was meant to: clamps and states that never settle.
    CHECK(c.clamped_alone > 1000);
    CHECK(c.unstable > 0);
  }
}

TEST_CASE("quantize batch: fewer results than states is refused, naming both counts") {
  const Quantizer quantizer{SnapshotConfig{}};
  std::vector<ObjectState> states(5);
  std::vector<SettledState> out(4);
  CHECK_THROWS_WITH_AS(quantizer.settle_states(states, out), "Quantizer::settle_states: 4 results for 5 states",
                       std::invalid_argument);
  std::vector<SettledState> none;
  quantizer.settle_states({}, none);  // nothing to settle: nothing written
  CHECK(none.empty());
}
