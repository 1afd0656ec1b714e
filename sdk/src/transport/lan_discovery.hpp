// SPDX-License-Identifier: MIT
// The LAN discovery announcement on the wire, as pure functions on bytes (fuzzable, no
// sockets). Layout, all integers big-endian:
//   "SHLD"  magic, 4 bytes
//   u8      protocol version of the announcing build
//   u16     port of the announced address (1..65535)
//   u8 n, n bytes   host of the announced address (printable ASCII, 1..64);
//                   "0.0.0.0" means "the address this datagram came from"
//   u8 m, m bytes   session name (printable ASCII, 1..64)
// Nothing may follow. Version is checked before the rest, so a future layout still reads as
// "unsupported version" rather than as garbage.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "shoal/lan_discovery.hpp"

namespace shoal::transport {

inline constexpr std::size_t kMaxAnnouncementSize =
    4 + 1 + 2 + 1 + kMaxSessionNameLength + 1 + kMaxAnnouncedHostLength;

/// Whether a name fits an announcement: 1..max_length printable ASCII characters.
bool is_announceable(std::string_view text, std::size_t max_length);

/// Throws std::invalid_argument when the session name or the host does not fit.
std::vector<std::uint8_t> encode_announcement(const LanSession& announcement);

struct DecodedAnnouncement {
  bool ok = false;
  DropReason reason = DropReason::malformed;  ///< when !ok
  LanSession session;                          ///< when ok
};

/// Decodes one datagram; rejects anything that is not exactly one valid announcement of this
/// build's protocol version, with the reason.
DecodedAnnouncement decode_announcement(std::span<const std::uint8_t> datagram);

}  // namespace shoal::transport
