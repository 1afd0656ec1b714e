// SPDX-License-Identifier: MIT
// Hole-punch datagrams (RELAY_SPEC.md, "Hole punching"): 12 bytes sent from the socket that
// carries ENet's traffic, so that a NAT in front of us opens a mapping towards a remote. They
// start with a byte pair ENet never sends (0x7E: its "compressed" header flag, and no
// compressor is configured), and every receiver counts and drops them before ENet sees them.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

namespace shoal::transport {

inline constexpr std::size_t kPunchDatagramSize = 12;
inline constexpr std::size_t kPunchesPerCall = 3;
/// Then "SPN", then the sender's running punch count (tells the punches of a capture apart).
inline constexpr std::array<std::uint8_t, 4> kPunchMagic{0x7E, 'S', 'P', 'N'};

inline bool is_punch(std::span<const std::uint8_t> datagram) {
  return datagram.size() == kPunchDatagramSize && std::equal(kPunchMagic.begin(), kPunchMagic.end(), datagram.begin());
}

/// The punch datagram numbered `count`.
inline std::array<std::uint8_t, kPunchDatagramSize> punch_datagram(std::uint64_t count) {
  std::array<std::uint8_t, kPunchDatagramSize> datagram{};
  std::copy(kPunchMagic.begin(), kPunchMagic.end(), datagram.begin());
  for (std::size_t b = 0; b < 8; ++b) datagram[kPunchMagic.size() + b] = static_cast<std::uint8_t>(count >> (8 * b));
  return datagram;
}

}  // namespace shoal::transport
