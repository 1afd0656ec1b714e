// SPDX-License-Identifier: MIT
// The 4-byte header that starts every Shoal datagram, message kinds, size limits, and the
// status every decoder returns. Format: sdk/src/wire/SPEC.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "shoal/drop_reason.hpp"
#include "shoal/transport.hpp"

namespace shoal::wire {

/// Bytes 'S' 'H' on the wire (read as a little-endian 16-bit value: 0x4853).
inline constexpr std::uint16_t kProtocolMagic = 0x4853;
/// Version 14: the dismissal and the link notice (wire/dismissal.hpp); SPEC.md has the history.
inline constexpr std::uint8_t kProtocolVersion = 14;
inline constexpr std::size_t kHeaderSize = 4;

/// Unreliable datagrams (state, time) stay under the common path MTU so IP never fragments
/// them: 1280 (IPv6 minimum) minus IP, UDP and ENet headers, with room to spare.
inline constexpr std::size_t kMaxUnreliableDatagram = 1200;
/// Control messages are reliable and ENet fragments them, so they may be larger; the cap
/// bounds what one hostile message can make a peer parse and allocate.
inline constexpr std::size_t kMaxControlDatagram = 32 * 1024;

enum class MessageKind : std::uint8_t {
  // control channel
  join_request = 1,
  welcome = 2,
  hello = 3,
  peer_left = 4,
  ownership = 5,
  checksum = 6,
  baseline_request = 7,
  baseline = 8,
  world_changes = 9,  ///< objects spawned and removed during play (version 10)
  game_message = 10,  ///< a game's own reliable message (version 12): wire/game_message.hpp
  dismissal = 11,     ///< why a peer is not admitted (version 14): wire/dismissal.hpp
  link_notice = 12,   ///< from a secured transport to its own peer only (version 14): wire/dismissal.hpp
  refusal = 15,  ///< frozen layout in every version from 8 on: wire/refusal.hpp
  // time channel
  ping = 16,
  pong = 17,
  game_datagram = 18,  ///< a game's own unreliable message (version 12): apart from snapshots
  // state channel
  snapshot = 32,
  snapshot_ack = 33,
};

/// True when `value` is one of the MessageKind enumerators.
bool is_known_kind(std::uint8_t value);
/// The channel a kind travels on (its delivery guarantees follow from it).
Channel channel_of(MessageKind kind);
/// Largest datagram, header included, accepted or produced for this kind.
std::size_t max_datagram_size(MessageKind kind);

/// The outcome of a decode: ok, or the reason the input was dropped. Implicitly built from a
/// DropReason so decoders can `return DropReason::truncated;`.
class [[nodiscard]] DecodeStatus {
 public:
  static constexpr DecodeStatus success() { return DecodeStatus(); }
  constexpr DecodeStatus(DropReason reason) : ok_(false), reason_(reason) {}  // implicit on purpose

  constexpr bool ok() const { return ok_; }
  constexpr explicit operator bool() const { return ok_; }
  /// Meaningful only when !ok().
  constexpr DropReason reason() const { return reason_; }

 private:
  constexpr DecodeStatus() = default;
  bool ok_ = true;
  DropReason reason_ = DropReason::count;
};

/// Replaces `out` with the header of a `kind` datagram; the body is appended after it.
void write_header(MessageKind kind, std::vector<std::uint8_t>& out);

/// Checks the header of a datagram and its size against the kind's limit; on success `kind`
/// is the datagram's kind.
DecodeStatus read_header(std::span<const std::uint8_t> datagram, MessageKind& kind);

/// read_header, and additionally fails with unknown_kind unless the kind is `expected`.
DecodeStatus expect_header(std::span<const std::uint8_t> datagram, MessageKind expected);

}  // namespace shoal::wire
