// SPDX-License-Identifier: MIT
// A short run of bytes held by value: up to N bytes and their count, with no heap allocation,
// so that messages, timelines and per-slot tables carrying them stay plain values.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

namespace shoal {

template <std::size_t N>
struct FixedBytes {
  static_assert(N <= 255, "the count is one byte");
  static constexpr std::size_t capacity = N;

  std::uint8_t size = 0;  ///< 0..N
  std::array<std::uint8_t, N> data{};

  std::span<const std::uint8_t> view() const { return {data.data(), size}; }
  /// Copies at most N bytes (callers hand a size they checked); only view() counts.
  void assign(std::span<const std::uint8_t> bytes) {
    size = static_cast<std::uint8_t>(std::min(bytes.size(), N));
    std::copy_n(bytes.begin(), size, data.begin());
  }
  bool operator==(const FixedBytes& other) const { return std::ranges::equal(view(), other.view()); }
};

}  // namespace shoal
