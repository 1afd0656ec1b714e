// SPDX-License-Identifier: MIT
// A tiny seeded pseudo-random generator for everything Shoal must replay exactly
// (link conditioning, test scenarios, bots). Not for cryptography.
#pragma once

#include <cstdint>

namespace shoal::core {

/// SplitMix64 (Steele, Lea, Flood 2014): one 64-bit word of state, passes BigCrush, and
/// any seed (zero included) is fine. The same seed always yields the same sequence on
/// every platform, which is the whole point: impairments and tests become replayable.
class Random {
 public:
  explicit constexpr Random(std::uint64_t seed) : state_(seed) {}

  constexpr std::uint64_t next_u64() {
    state_ += 0x9E3779B97F4A7C15ULL;
    std::uint64_t z = state_;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }

  /// Uniform in [0, 1), from the top 53 bits so every double step is equally likely.
  constexpr double next_unit() { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }

  /// Uniform in [low, high).
  constexpr double uniform(double low, double high) { return low + (high - low) * next_unit(); }

  /// True with the given probability (<= 0 never, >= 1 always).
  constexpr bool chance(double probability) { return next_unit() < probability; }

  /// Derives an independent stream, e.g. one per link, from a base seed and a stream index.
  static constexpr std::uint64_t derive_seed(std::uint64_t seed, std::uint64_t stream) {
    Random mixer(seed ^ (stream * 0xD1B54A32D192ED03ULL));
    return mixer.next_u64();
  }

 private:
  std::uint64_t state_;
};

}  // namespace shoal::core
