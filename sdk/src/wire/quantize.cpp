// SPDX-License-Identifier: MIT
#include "wire/quantize.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace shoal::wire {
namespace {

constexpr double kSqrtHalf = 0.70710678118654752440;
// Positions are held in floats: beyond 2^22 units from the origin a float can no longer
// tell neighbouring quantised values apart, and quantising would not settle.
constexpr double kMaxPositionUnits = 4194304.0;
constexpr double kMaxVelocityUnits = 1048576.0;

// Velocities go toward zero (see quantize()). A value within this much of a whole unit counts
// as on it: a dequantised velocity is that unit up to float rounding and must quantise to it
// again. Far below any sleep threshold, so it never keeps a body from slowing down.
constexpr double kOnUnit = 1.0 / 1024;

// Every state of every step goes through here, several roundings each: libm's round, floor
// and ceil are calls on the baseline x86-64 target, so the two below do the same with a
// truncating conversion (exact for |x| < 2^52; larger values are whole already, and NaN
// passes through). Their results equal std::trunc's and std::round's but for the sign of a
// zero, which no caller can see: every result becomes an unsigned count.
constexpr double kWholeAbove = 4503599627370496.0;  // 2^52

double truncated(double x) {
  if (!(std::fabs(x) < kWholeAbove)) return x;
  return static_cast<double>(static_cast<std::int64_t>(x));
}

// Half away from zero, as std::round.
double rounded(double x) {
  const double whole = truncated(x);
  const double rest = x - whole;  // exact
  // Written as arithmetic on the comparisons: the compiler would branch on each, and which way
  // they go is as random as the values are.
  return whole + static_cast<double>(rest >= 0.5) - static_cast<double>(rest <= -0.5);
}

// floor(units + kOnUnit) for units >= 0, else ceil(units - kOnUnit): both are the truncation
// of the nudged value, whose sign is the sign of units.
// (copysign, not a branch on the sign, which is as random as the velocities are.)
double toward_zero(double units) { return truncated(units + std::copysign(kOnUnit, units)); }

void require(bool ok, const std::string& what) {
  if (!ok) throw std::invalid_argument("shoal::SnapshotConfig: " + what);
}

std::uint32_t clamp_count(double value, std::uint32_t max, std::uint64_t* clamped) {
  if (!(value >= 0)) {  // also NaN
    if (clamped) ++*clamped;
    return 0;
  }
  if (value > max) {
    if (clamped) ++*clamped;
    return max;
  }
  return static_cast<std::uint32_t>(value);
}

// For each dropped component (w, x, y, z), the three that are sent, in order.
constexpr std::uint32_t kOthers[4][3] = {{1, 2, 3}, {0, 2, 3}, {0, 1, 3}, {0, 1, 2}};

}  // namespace

Quantizer::Quantizer(const SnapshotConfig& c) : config_(c) {
  const float mins[3] = {c.world_min.x, c.world_min.y, c.world_min.z};
  const float maxs[3] = {c.world_max.x, c.world_max.y, c.world_max.z};
  require(std::isfinite(c.position_units_per_m) && c.position_units_per_m > 0,
          "position_units_per_m must be a positive number");
  for (int a = 0; a < 3; ++a) {
    const std::string axis(1, "xyz"[a]);
    require(std::isfinite(mins[a]) && std::isfinite(maxs[a]) && maxs[a] > mins[a],
            "world_max." + axis + " must be greater than world_min." + axis + " (both finite)");
    const double far = std::max(std::fabs(mins[a]), std::fabs(maxs[a]));
    require(far * c.position_units_per_m <= kMaxPositionUnits,
            "world bounds on " + axis + " times position_units_per_m exceed 2^22 units: " +
                "shrink the world or coarsen the resolution");
    limits_.position[a] = static_cast<std::uint32_t>(
        std::llround((static_cast<double>(maxs[a]) - mins[a]) * c.position_units_per_m));
  }
  require(c.orientation_bits >= 8 && c.orientation_bits <= 20,
          "orientation_bits is " + std::to_string(c.orientation_bits) + ", expected 8..20");
  orientation_zero_ = (1u << (c.orientation_bits - 1)) - 1;
  const auto orientation_half = static_cast<float>(orientation_zero_);  // quantised 1/sqrt2
  units_per_component_ = orientation_half / kSqrtHalf;
  component_per_unit_ = kSqrtHalf / orientation_half;
  fast_check_ = c.orientation_bits <= 16;
  limits_.smallest = 2 * orientation_zero_;
  require(std::isfinite(c.velocity_units_per_mps) && c.velocity_units_per_mps > 0,
          "velocity_units_per_mps must be a positive number");
  require(std::isfinite(c.max_linear_speed_mps) && c.max_linear_speed_mps > 0 &&
              std::isfinite(c.max_angular_speed_radps) && c.max_angular_speed_radps > 0,
          "max_linear_speed_mps and max_angular_speed_radps must be positive numbers");
  const double linear = std::round(static_cast<double>(c.max_linear_speed_mps) * c.velocity_units_per_mps);
  const double angular = std::round(static_cast<double>(c.max_angular_speed_radps) * c.velocity_units_per_mps);
  require(linear >= 1 && angular >= 1 && linear <= kMaxVelocityUnits && angular <= kMaxVelocityUnits,
          "max speeds times velocity_units_per_mps must be 1..2^20 units");
  limits_.linear_zero = static_cast<std::uint32_t>(linear);
  limits_.angular_zero = static_cast<std::uint32_t>(angular);
  metres_per_unit_ = 1.0 / c.position_units_per_m;
  speed_per_unit_ = 1.0 / c.velocity_units_per_mps;
  limits_.linear = 2 * limits_.linear_zero;
  limits_.angular = 2 * limits_.angular_zero;
  require(c.max_baseline_age_frames >= 1 && c.max_baseline_age_frames <= 1056,
          "max_baseline_age_frames is " + std::to_string(c.max_baseline_age_frames) +
              ", expected 1..1056");
  require(c.input_bytes >= 0 && c.input_bytes <= static_cast<int>(kMaxInputBytes),
          "input_bytes is " + std::to_string(c.input_bytes) + ", expected 0.." + std::to_string(kMaxInputBytes));
  limits_.input_bytes = static_cast<std::uint32_t>(c.input_bytes);
}

QuantizedState Quantizer::quantize(const ObjectState& s, std::uint64_t* clamped) const {
  QuantizedState q;
  const float p[3] = {s.position.x, s.position.y, s.position.z};
  const float mins[3] = {config_.world_min.x, config_.world_min.y, config_.world_min.z};
  for (int a = 0; a < 3; ++a) {
    const double units = rounded((static_cast<double>(p[a]) - mins[a]) * config_.position_units_per_m);
    q.position[static_cast<std::size_t>(a)] = clamp_count(units, limits_.position[static_cast<std::size_t>(a)], clamped);
  }

  quantize_orientation(s.orientation, q);
  if (!s.at_rest) {
    const float v[3] = {s.linear_velocity.x, s.linear_velocity.y, s.linear_velocity.z};
    const float w[3] = {s.angular_velocity.x, s.angular_velocity.y, s.angular_velocity.z};
    // Toward zero, not to the nearest: every step's state is quantised, and rounding to the
    // nearest would give back a slow body the little that damping took from it each frame, so
    // that it rolled on at a few cm/s forever instead of falling asleep.
    for (std::size_t a = 0; a < 3; ++a) {
      q.linear_velocity[a] = clamp_count(toward_zero(static_cast<double>(v[a]) * config_.velocity_units_per_mps) + limits_.linear_zero,
                                         limits_.linear, clamped);
      q.angular_velocity[a] = clamp_count(toward_zero(static_cast<double>(w[a]) * config_.velocity_units_per_mps) + limits_.angular_zero,
                                          limits_.angular, clamped);
    }
  } else {
    q.linear_velocity.fill(limits_.linear_zero);
    q.angular_velocity.fill(limits_.angular_zero);
  }
  q.at_rest = s.at_rest;
  return q;
}

void Quantizer::quantize_orientation(const Quat& orientation, QuantizedState& q) const {
  // Smallest three: drop the largest-magnitude component (the first of equals), sign-flip
  // the quaternion so the dropped one is non-negative. Every stepped state of every body comes
  // through here, so it is written without branches on the values (which component is the
  // largest, and its sign, differ from body to body); the arithmetic is SPEC.md's, exactly.
  const Quat o = normalized(orientation);
  const float c[4] = {o.w, o.x, o.y, o.z};
  std::uint32_t largest = 0;
  float most = std::fabs(c[0]);
  for (std::uint32_t i = 1; i < 4; ++i) {
    const float magnitude = std::fabs(c[i]);
    largest = magnitude > most ? i : largest;
    most = std::max(most, magnitude);
  }
  const float sign = static_cast<float>(1 - 2 * static_cast<int>(c[largest] < 0));
  q.largest = largest;
  const std::uint32_t* others = kOthers[largest];
  for (std::size_t k = 0; k < 3; ++k) {
    // Rounding can push a value a hair past 1/sqrt2: that is not a clamp worth counting.
    const double units = rounded(sign * c[others[k]] * units_per_component_) + orientation_zero_;
    // (std::max(0.0, x) is 0 for a NaN, left by an infinite component.)
    q.smallest[k] = static_cast<std::uint32_t>(std::min(std::max(0.0, units), static_cast<double>(limits_.smallest)));
  }
}

ObjectState Quantizer::dequantize(const QuantizedState& q, bool* quantizes_back) const {
  ObjectState s;
  const double inv = metres_per_unit_;
  s.position = {static_cast<float>(config_.world_min.x + q.position[0] * inv),
                static_cast<float>(config_.world_min.y + q.position[1] * inv),
                static_cast<float>(config_.world_min.z + q.position[2] * inv)};
  s.orientation = dequantize_orientation(q, quantizes_back);

  const double vinv = speed_per_unit_;
  auto linear = [&](std::uint32_t v) {
    return static_cast<float>((static_cast<double>(v) - limits_.linear_zero) * vinv);
  };
  auto angular = [&](std::uint32_t v) {
    return static_cast<float>((static_cast<double>(v) - limits_.angular_zero) * vinv);
  };
  s.linear_velocity = {linear(q.linear_velocity[0]), linear(q.linear_velocity[1]), linear(q.linear_velocity[2])};
  s.angular_velocity = {angular(q.angular_velocity[0]), angular(q.angular_velocity[1]), angular(q.angular_velocity[2])};
  s.at_rest = q.at_rest;
  return s;
}

Quat Quantizer::dequantize_orientation(const QuantizedState& q, bool* quantizes_back) const {
  float c[4];
  const std::uint32_t* others = kOthers[q.largest & 3];  // in_range() guarantees < 4
  float sum = 0;
  float most = 0;  // the largest kept component's magnitude
  for (std::size_t k = 0; k < 3; ++k) {
    const auto value = static_cast<float>((static_cast<double>(q.smallest[k]) - orientation_zero_) * component_per_unit_);
    c[others[k]] = value;
    sum += value * value;
    most = std::max(most, std::fabs(value));
  }
  const float dropped = std::sqrt(std::max(0.0f, 1.0f - sum));
  c[q.largest & 3] = dropped;
  if (quantizes_back != nullptr) {
    // Whether quantising the result gives q again, without doing it. Both normalisations
    // (here and in quantize_orientation) scale every component alike, up to a relative error
    // below 2^-19 when the kept three sum to less than 1 (the dropped one is then nearly
    // 1 - sum exactly). So (a) with the dropped component clearly the largest (a margin of
    // 2^-16, far above the 2^-21 that per-component rounding can take from it) it stays the
    // largest and non-negative, and (b) each kept one comes back within |q - zero| * 2^-19
    // units of where it was, under 0.1 of a unit up to 2^16 units per side: it rounds to itself.
    // Near a tie (or at 17 and more bits) the caller quantises again to find out.
    *quantizes_back = fast_check_ && sum < 1.0f && dropped > most * (1.0f + 1.0f / 65536);
  }
  return normalized(Quat{c[0], c[1], c[2], c[3]});
}

bool Quantizer::quantizes_back(const QuantizedState& q) const {
  QuantizedState again = q;
  quantize_orientation(dequantize_orientation(q), again);
  return again.largest == q.largest && again.smallest == q.smallest;
}

bool Quantizer::surely_quantizes_back(const QuantizedState& q) const {
  bool surely = false;
  dequantize_orientation(q, &surely);
  return surely;
}

SettledState Quantizer::settle_state(const ObjectState& state, std::uint64_t* clamped) const {
  SettledState r;
  r.quantized = quantize(state, clamped);
  // Renormalising the orientation can move a component across a rounding boundary (or make
  // another the largest); a few passes settle it, identically on every peer.
  constexpr int kMaxPasses = 4;
  // Only the orientation needs checking: dequantised positions and velocities quantise to
  // themselves (velocities are exact in a float; a position's float is within a quarter unit of
  // the value, which the constructor's 2^22-unit bound guarantees), and the test suite checks it.
  bool at_once = false;
  r.state = dequantize(r.quantized, &at_once);
  if (at_once) {  // the usual case: no tie anywhere near, nothing to check
    r.stable = true;
    return r;
  }
  for (int pass = 0; pass < kMaxPasses; ++pass) {
    QuantizedState again = r.quantized;
    quantize_orientation(r.state.orientation, again);
    if (again.largest == r.quantized.largest && again.smallest == r.quantized.smallest) {
      r.stable = true;
      return r;
    }
    r.quantized = again;
    r.state.orientation = dequantize_orientation(r.quantized);
  }
  return r;
}

bool Quantizer::in_range(const QuantizedState& q) const {
  for (std::size_t a = 0; a < 3; ++a) {
    if (q.position[a] > limits_.position[a] || q.smallest[a] > limits_.smallest ||
        q.linear_velocity[a] > limits_.linear || q.angular_velocity[a] > limits_.angular) {
      return false;
    }
  }
  return q.largest < 4;
}

}  // namespace shoal::wire
