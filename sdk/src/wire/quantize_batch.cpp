// SPDX-License-Identifier: MIT
// Quantizer::settle_states: settle_state() for many states at once, with the same results.
//
// Every moving body's state is settled after every step, so this one is settled four at a
// time: each field of four states in one vector, each step of the arithmetic one branch-free
// vector operation (built for AVX2 too, picked at load time: core/vector_clones.hpp). The
// arithmetic is settle_state()'s (SPEC.md's) operation for operation, in the same precisions
// and order, so IEEE rounding makes every lane give what the scalar code gives. Where the scalar
// code truncates through int64, values are first clamped into int32's range, which changes no
// result: they are clamped to far narrower limits right after. The few states the quick check
// cannot vouch for (a near tie of orientation components) are settled again by settle_state().
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>

#if defined(__SSE__)
#include <xmmintrin.h>
#endif

#include "core/vector_clones.hpp"
#include "wire/quantize.hpp"

namespace shoal::wire {
namespace {

constexpr int kLanes = 4;

// Four lanes of each type, in GCC's and Clang's vector extensions: every operation below is the
// scalar one applied to each lane, in the same precision (so rounded alike: IEEE), which the
// compiler emits as vector instructions. A comparison gives -1 in the lanes where it holds.
// Vectors of doubles are 32 bytes: no function here takes or returns one by value, which
// would mean another calling convention with AVX than without (Clang refuses it; GCC warns).
using F4 = float __attribute__((vector_size(16)));
using I4 = std::int32_t __attribute__((vector_size(16)));
using D4 = double __attribute__((vector_size(32)));
using L4 = std::int64_t __attribute__((vector_size(32)));  // a mask for D4

[[gnu::always_inline]] inline F4 to_float(const D4& v) { return __builtin_convertvector(v, F4); }
[[gnu::always_inline]] inline I4 truncated(const D4& v) { return __builtin_convertvector(v, I4); }  // |v| < 2^31
constexpr F4 all(float x) { return F4{x, x, x, x}; }
constexpr I4 all(std::int32_t x) { return I4{x, x, x, x}; }

[[gnu::always_inline]] inline F4 sqrt4(F4 v) {
#if defined(__SSE__)
  return reinterpret_cast<F4>(_mm_sqrt_ps(reinterpret_cast<__m128>(v)));
#else
  return F4{std::sqrt(v[0]), std::sqrt(v[1]), std::sqrt(v[2]), std::sqrt(v[3])};
#endif
}
[[gnu::always_inline]] inline F4 fabs4(F4 v) { return reinterpret_cast<F4>(reinterpret_cast<I4>(v) & all(0x7fffffff)); }

// Into int32's range, past every limit the result is clamped to after (so that converting it
// is defined); NaN becomes 0, callers having taken note of it.
[[gnu::always_inline]] inline void narrow(D4& x) {
  constexpr double kBound = 1073741824.0;  // 2^30
  x = x < -kBound ? D4{} - kBound : x;
  x = x > kBound ? D4{} + kBound : x;
  x = x == x ? x : D4{};
}

// Half away from zero (quantize.cpp's rounded()), of a narrowed value.
[[gnu::always_inline]] inline void round_half_away(D4& x) {
  const D4 whole = __builtin_convertvector(truncated(x), D4);
  const D4 rest = x - whole;
  const D4 one = D4{} + 1.0;
  x = whole + (rest >= 0.5 ? one : D4{}) - (rest <= -0.5 ? one : D4{});
}

// quantize.cpp's clamp_count(): NaN (where `nan`) and negatives to 0, values above `limit` to
// it, each counted into `clamped`.
[[gnu::always_inline]] inline I4 clamp_count(const D4& value, const L4& nan, double limit, L4& clamped) {
  const L4 low = nan | (value < 0.0);
  const L4 high = ~nan & (value > limit);
  clamped -= low + high;
  return truncated(low ? D4{} : high ? D4{} + limit : value);
}

// The quantiser's constants, as plain numbers.
struct Constants {
  double world_min[3];
  double position_units_per_m;
  double position_limit[3];
  double metres_per_unit;
  double units_per_component, component_per_unit;
  double orientation_zero;
  double orientation_limit;
  double velocity_units_per_mps, speed_per_unit;
  double linear_zero, angular_zero, linear_limit, angular_limit;
  std::int32_t fast_check;  // -1 or 0
};

// Four states, one vector per field, and what settling them gives.
struct Lanes {
  F4 position[3];
  F4 orientation[4];  // w, x, y, z
  F4 linear[3];
  F4 angular[3];
  I4 at_rest;  // -1 where at rest

  I4 q_position[3];
  I4 largest;
  I4 q_smallest[3];
  I4 q_linear[3];
  I4 q_angular[3];
  L4 clamped;  // counted in 64-bit lanes, as the masks of doubles come

  F4 out_position[3];
  F4 out_orientation[4];
  F4 out_linear[3];
  F4 out_angular[3];
  I4 at_once;  // -1 where the result surely quantises back
};

// normalized(): each component over the length, or Quat{} where the length is not positive.
[[gnu::always_inline]] inline void normalize(const F4 (&in)[4], F4 (&out)[4]) {
  const F4 len = sqrt4(in[0] * in[0] + in[1] * in[1] + in[2] * in[2] + in[3] * in[3]);
  const I4 ok = len > all(0.0f);
  out[0] = ok ? in[0] / len : all(1.0f);
  for (int j = 1; j < 4; ++j) out[j] = ok ? in[j] / len : all(0.0f);
}

// Velocity codes toward zero, or `zero` at rest (uncounted there).
[[gnu::always_inline]] inline I4 velocity_code(const Constants& k, F4 v, I4 at_rest, const L4& resting,
                                               double zero, double limit, L4& clamped) {
  const D4 units = __builtin_convertvector(v, D4) * k.velocity_units_per_mps;
  const D4 on_unit = D4{} + 1.0 / 1024;
  D4 nudged = units + (units < 0.0 ? -on_unit : on_unit);
  narrow(nudged);
  L4 counted{};
  const I4 code = clamp_count(__builtin_convertvector(truncated(nudged), D4) + zero, units != units, limit, counted);
  clamped += resting != 0 ? L4{} : counted;
  return at_rest != 0 ? all(static_cast<std::int32_t>(zero)) : code;
}

SHOAL_VECTOR_CLONES void settle_lanes(const Constants& k, Lanes& l) {
  l.clamped = L4{};
  for (int a = 0; a < 3; ++a) {
    const D4 units = (__builtin_convertvector(l.position[a], D4) - k.world_min[a]) * k.position_units_per_m;
    D4 rounded = units;
    narrow(rounded);
    round_half_away(rounded);
    l.q_position[a] = clamp_count(rounded, units != units, k.position_limit[a], l.clamped);
  }

  // Smallest three: the first largest magnitude dropped, the others signed to make it positive.
  F4 c[4];
  normalize(l.orientation, c);
  I4 largest = all(0);
  F4 most = fabs4(c[0]);
  for (std::int32_t j = 1; j < 4; ++j) {
    const F4 magnitude = fabs4(c[j]);
    largest = magnitude > most ? all(j) : largest;
    most = most < magnitude ? magnitude : most;
  }
  l.largest = largest;
  const F4 at_largest = largest == all(0) ? c[0] : largest == all(1) ? c[1] : largest == all(2) ? c[2] : c[3];
  const F4 sign = at_largest < all(0.0f) ? all(-1.0f) : all(1.0f);
  const F4 kept[3] = {largest == all(0) ? c[1] : c[0], largest <= all(1) ? c[2] : c[1],
                      largest <= all(2) ? c[3] : c[2]};
  for (int j = 0; j < 3; ++j) {
    const D4 scaled = __builtin_convertvector(sign * kept[j], D4) * k.units_per_component;
    D4 units = scaled;
    narrow(units);
    round_half_away(units);
    units += k.orientation_zero;
    // std::min(std::max(0.0, units), limit); std::max(0.0, NaN) is 0.
    const D4 low = 0.0 < units ? units : D4{};
    const D4 kept_units = k.orientation_limit < low ? D4{} + k.orientation_limit : low;
    l.q_smallest[j] = truncated(scaled != scaled ? D4{} : kept_units);
  }

  const L4 resting = __builtin_convertvector(l.at_rest, L4);
  for (int a = 0; a < 3; ++a) {
    l.q_linear[a] = velocity_code(k, l.linear[a], l.at_rest, resting, k.linear_zero, k.linear_limit, l.clamped);
    l.q_angular[a] = velocity_code(k, l.angular[a], l.at_rest, resting, k.angular_zero, k.angular_limit, l.clamped);
  }

  // Dequantised, as dequantize() does it.
  for (int a = 0; a < 3; ++a) {
    l.out_position[a] = to_float(k.world_min[a] + __builtin_convertvector(l.q_position[a], D4) * k.metres_per_unit);
    l.out_linear[a] = to_float((__builtin_convertvector(l.q_linear[a], D4) - k.linear_zero) * k.speed_per_unit);
    l.out_angular[a] = to_float((__builtin_convertvector(l.q_angular[a], D4) - k.angular_zero) * k.speed_per_unit);
  }
  F4 value[3];
  F4 sum = all(0.0f), most_kept = all(0.0f);
  for (int j = 0; j < 3; ++j) {
    value[j] = to_float((__builtin_convertvector(l.q_smallest[j], D4) - k.orientation_zero) * k.component_per_unit);
    sum += value[j] * value[j];
    const F4 magnitude = fabs4(value[j]);
    most_kept = most_kept < magnitude ? magnitude : most_kept;
  }
  const F4 rest = all(1.0f) - sum;
  const F4 dropped = sqrt4(all(0.0f) < rest ? rest : all(0.0f));
  const F4 whole[4] = {
      largest == all(0) ? dropped : value[0],
      largest == all(0) ? value[0] : largest == all(1) ? dropped : value[1],
      largest <= all(1) ? value[1] : largest == all(2) ? dropped : value[2],
      largest == all(3) ? dropped : value[2],
  };
  l.at_once = all(k.fast_check) & (sum < all(1.0f)) & (dropped > most_kept * all(1.0f + 1.0f / 65536));
  normalize(whole, l.out_orientation);
}
}  // namespace

void Quantizer::settle_states(std::span<const ObjectState> states, std::span<SettledState> out,
                              std::uint64_t* clamped) const {
  if (out.size() < states.size()) {
    throw std::invalid_argument("Quantizer::settle_states: " + std::to_string(out.size()) +
                                " results for " + std::to_string(states.size()) + " states");
  }
  Constants k{};
  const float mins[3] = {config_.world_min.x, config_.world_min.y, config_.world_min.z};
  for (int a = 0; a < 3; ++a) {
    k.world_min[a] = mins[a];
    k.position_limit[a] = limits_.position[static_cast<std::size_t>(a)];
  }
  k.position_units_per_m = config_.position_units_per_m;
  k.metres_per_unit = metres_per_unit_;
  k.units_per_component = units_per_component_;
  k.component_per_unit = component_per_unit_;
  k.orientation_zero = orientation_zero_;
  k.orientation_limit = limits_.smallest;
  k.velocity_units_per_mps = config_.velocity_units_per_mps;
  k.speed_per_unit = speed_per_unit_;
  k.linear_zero = limits_.linear_zero;
  k.angular_zero = limits_.angular_zero;
  k.linear_limit = limits_.linear;
  k.angular_limit = limits_.angular;
  k.fast_check = fast_check_ ? -1 : 0;

  Lanes l;
  for (std::size_t first = 0; first < states.size(); first += kLanes) {
    const std::size_t count = std::min<std::size_t>(kLanes, states.size() - first);
    for (std::size_t i = 0; i < kLanes; ++i) {
      // A short last group repeats its first state in the lanes it does not fill.
      const ObjectState& s = states[first + (i < count ? i : 0)];
      const float p[3] = {s.position.x, s.position.y, s.position.z};
      const float v[3] = {s.linear_velocity.x, s.linear_velocity.y, s.linear_velocity.z};
      const float w[3] = {s.angular_velocity.x, s.angular_velocity.y, s.angular_velocity.z};
      for (int a = 0; a < 3; ++a) {
        l.position[a][i] = p[a];
        l.linear[a][i] = v[a];
        l.angular[a][i] = w[a];
      }
      l.orientation[0][i] = s.orientation.w;
      l.orientation[1][i] = s.orientation.x;
      l.orientation[2][i] = s.orientation.y;
      l.orientation[3][i] = s.orientation.z;
      l.at_rest[i] = s.at_rest ? -1 : 0;
    }
    settle_lanes(k, l);
    for (std::size_t i = 0; i < count; ++i) {
      SettledState& r = out[first + i];
      if (l.at_once[i] == 0) {  // near a tie: the passes of settle_state() decide
        r = settle_state(states[first + i], clamped);
        continue;
      }
      if (clamped != nullptr) *clamped += static_cast<std::uint64_t>(l.clamped[i]);
      QuantizedState& q = r.quantized;
      for (std::size_t a = 0; a < 3; ++a) {
        q.position[a] = static_cast<std::uint32_t>(l.q_position[a][i]);
        q.smallest[a] = static_cast<std::uint32_t>(l.q_smallest[a][i]);
        q.linear_velocity[a] = static_cast<std::uint32_t>(l.q_linear[a][i]);
        q.angular_velocity[a] = static_cast<std::uint32_t>(l.q_angular[a][i]);
      }
      q.largest = static_cast<std::uint32_t>(l.largest[i]);
      q.at_rest = l.at_rest[i] != 0;
      ObjectState& s = r.state;
      s.position = {l.out_position[0][i], l.out_position[1][i], l.out_position[2][i]};
      s.orientation = {l.out_orientation[0][i], l.out_orientation[1][i], l.out_orientation[2][i],
                       l.out_orientation[3][i]};
      s.linear_velocity = {l.out_linear[0][i], l.out_linear[1][i], l.out_linear[2][i]};
      s.angular_velocity = {l.out_angular[0][i], l.out_angular[1][i], l.out_angular[2][i]};
      s.at_rest = q.at_rest;
      r.stable = true;
    }
  }
}

}  // namespace shoal::wire
