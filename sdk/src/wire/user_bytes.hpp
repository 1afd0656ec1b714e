// SPDX-License-Identifier: MIT
// A body's user bytes as messages carry them: a fixed-capacity value, so records and baseline
// objects stay plain values without a heap allocation each.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <span>

#include "shoal/simulation.hpp"

namespace shoal::wire {

struct UserBytes {
  std::uint8_t size = 0;  ///< 0..kMaxUserBytes; 0 = the body's type has none
  std::array<std::uint8_t, kMaxUserBytes> data{};

  std::span<const std::uint8_t> view() const { return {data.data(), size}; }
  /// Copies at most kMaxUserBytes bytes (callers hand a size the layout checked).
  void assign(std::span<const std::uint8_t> bytes) {
    size = static_cast<std::uint8_t>(std::min(bytes.size(), kMaxUserBytes));
    std::copy_n(bytes.begin(), size, data.begin());
  }
  bool operator==(const UserBytes& other) const {
    return std::ranges::equal(view(), other.view());
  }
};

}  // namespace shoal::wire
