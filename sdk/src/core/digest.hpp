// SPDX-License-Identifier: MIT
// A quick running 64-bit digest of values, for telling two runs apart (recordings and their
// replays): equal inputs give equal digests on every platform. Not for security, and not for
// sending: the desync checksums peers exchange are sync/checksum.hpp's.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <span>

#include "shoal/state.hpp"

namespace shoal::core {

class Digest {
 public:
  void add(std::uint64_t word) {
    // One multiply-rotate round per word (as in xxHash's inner loop).
    value_ = std::rotl(value_ ^ (word * kPrime2), 31) * kPrime1;
  }
  void add(std::span<const std::uint8_t> bytes) {
    add(bytes.size());
    std::size_t i = 0;
    for (; i + 8 <= bytes.size(); i += 8) {
      std::uint64_t word = 0;
      std::memcpy(&word, bytes.data() + i, 8);
      add(word);
    }
    std::uint64_t tail = 0;
    if (i < bytes.size()) std::memcpy(&tail, bytes.data() + i, bytes.size() - i);
    add(tail);
  }
  /// The state's fields bit for bit (never its padding).
  void add(const ObjectState& s) {
    add(pair(s.position.x, s.position.y));
    add(pair(s.position.z, s.orientation.w));
    add(pair(s.orientation.x, s.orientation.y));
    add(pair(s.orientation.z, s.linear_velocity.x));
    add(pair(s.linear_velocity.y, s.linear_velocity.z));
    add(pair(s.angular_velocity.x, s.angular_velocity.y));
    add(pair(s.angular_velocity.z, s.at_rest ? 1.0f : 0.0f));
  }
  std::uint64_t value() const { return value_; }

 private:
  static constexpr std::uint64_t kPrime1 = 0x9E3779B185EBCA87ULL;
  static constexpr std::uint64_t kPrime2 = 0xC2B2AE3D27D4EB4FULL;
  static std::uint64_t pair(float a, float b) {
    return std::uint64_t{std::bit_cast<std::uint32_t>(a)} | (std::uint64_t{std::bit_cast<std::uint32_t>(b)} << 32);
  }
  std::uint64_t value_ = 0x27D4EB2F165667C5ULL;
};

}  // namespace shoal::core
