// SPDX-License-Identifier: MIT
// Quantised object state: what snapshots carry, and what every peer rounds its own simulation
// to after every step (quantisation on both sides), so that an owner's frame and a receiver's
// frame of the same number can be compared bit for bit.
//
// - position: each axis an unsigned offset from SnapshotConfig::world_min, in units of
//   1/position_units_per_m metres, clamped to world_max;
// - orientation: smallest three (the largest-magnitude component is dropped and made
//   non-negative; the other three lie in [-1/sqrt2, 1/sqrt2] and are sent with
//   orientation_bits each);
// - velocities: each axis an unsigned offset from -max speed, in 1/velocity_units_per_mps;
// - at rest: velocities are zero.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <stdexcept>

#include "shoal/snapshot_config.hpp"
#include "shoal/state.hpp"

namespace shoal::wire {

struct QuantizedState {
  std::array<std::uint32_t, 3> position{};
  std::uint32_t largest = 0;  ///< index (w, x, y, z) of the dropped component
  std::array<std::uint32_t, 3> smallest{};
  std::array<std::uint32_t, 3> linear_velocity{};
  std::array<std::uint32_t, 3> angular_velocity{};
  bool at_rest = false;

  /// Word by word with no branch or call (the defaulted one calls memcmp per array): states
  /// are compared for every acknowledged object and every receiver each frame.
  bool operator==(const QuantizedState& o) const {
    std::uint32_t diff = (largest ^ o.largest) | static_cast<std::uint32_t>(at_rest != o.at_rest);
    for (std::size_t a = 0; a < 3; ++a) {
      diff |= (position[a] ^ o.position[a]) | (smallest[a] ^ o.smallest[a]) |
              (linear_velocity[a] ^ o.linear_velocity[a]) | (angular_velocity[a] ^ o.angular_velocity[a]);
    }
    return diff == 0;
  }
};

/// The largest value of each field (its smallest is 0), which fixes its bit width.
struct QuantizedLimits {
  std::array<std::uint32_t, 3> position{};
  std::uint32_t smallest = 0;
  std::uint32_t linear = 0, angular = 0;
  std::uint32_t linear_zero = 0, angular_zero = 0;  ///< the value that means 0 (half the max)
  std::uint32_t input_bytes = 0;  ///< the most game input bytes a snapshot's input may carry
};

/// settle()'s result with its dequantised state, and whether quantising that state gives the
/// same values again (a fixed point: filtering it again would change nothing).
struct SettledState {
  QuantizedState quantized;
  ObjectState state;
  bool stable = false;
};

class Quantizer {
 public:
  /// Throws std::invalid_argument (naming the field) for a config it cannot honour.
  explicit Quantizer(const SnapshotConfig& config);

  /// Rounds to the nearest representable state; values outside the bounds are clamped and
  /// added to *clamped (one per clamped field) when given.
  QuantizedState quantize(const ObjectState& state, std::uint64_t* clamped = nullptr) const;
  /// When given, *quantizes_back is set when quantising the result surely gives q again (false
  /// says only that it was not sure: see surely_quantizes_back()).
  ObjectState dequantize(const QuantizedState& q, bool* quantizes_back = nullptr) const;

  /// quantize(state), settled so that quantising its dequantised value usually gives it
  /// again. A few orientations near a tie between two largest components never settle (the
  /// choice flips each pass); callers that need the exact value keep the result instead of
  /// quantising the dequantised state again.
  QuantizedState settle(const ObjectState& state, std::uint64_t* clamped = nullptr) const {
    return settle_state(state, clamped).quantized;
  }
  /// The same, with the dequantised state the settling computed anyway.
  SettledState settle_state(const ObjectState& state, std::uint64_t* clamped = nullptr) const;
  /// settle_state() of every one of `states`, into out[0..states.size()) (out may be longer;
  /// std::invalid_argument if shorter): the same results, computed several states at a time.
  void settle_states(std::span<const ObjectState> states, std::span<SettledState> out,
                     std::uint64_t* clamped = nullptr) const;
  /// dequantize(settle(state)): what both sides store after every step.
  ObjectState round_trip(const ObjectState& state, std::uint64_t* clamped = nullptr) const {
    return settle_state(state, clamped).state;
  }

  /// Whether quantising q's dequantised orientation gives q's orientation again, found by
  /// doing it; and the bound settle_state() relies on instead, true for nearly every code
  /// (not near a tie of two components, 16 bits or fewer): it must imply the first.
  bool quantizes_back(const QuantizedState& q) const;
  bool surely_quantizes_back(const QuantizedState& q) const;

  /// True when every field is within its limit (a decoder's check on received values).
  bool in_range(const QuantizedState& q) const;

  const QuantizedLimits& limits() const { return limits_; }
  const SnapshotConfig& config() const { return config_; }

 private:
  void quantize_orientation(const Quat& orientation, QuantizedState& q) const;
  Quat dequantize_orientation(const QuantizedState& q, bool* quantizes_back = nullptr) const;

  SnapshotConfig config_;
  QuantizedLimits limits_;
  // Quantised units per unit of a kept component and back, divided once, not per component
  // of every settled state.
  double units_per_component_ = 0, component_per_unit_ = 0;
  std::uint32_t orientation_zero_ = 0;
  bool fast_check_ = false;  // few enough bits for surely_quantizes_back()'s error bound
  double metres_per_unit_ = 0, speed_per_unit_ = 0;  // divided once, not per dequantised state
};

}  // namespace shoal::wire
