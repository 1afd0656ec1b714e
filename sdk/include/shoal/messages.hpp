// SPDX-License-Identifier: MIT
// Game messages: bytes a game sends to one peer or to all (scores, chat, "round over"), beside
// the synchronised world. See docs/messages.md.
#pragma once

#include <cstddef>
#include <cstdint>

namespace shoal {

/// How a game message travels (Peer::send_message).
enum class Delivery : std::uint8_t {
  /// Arrives once, in the order sent (per sender), whatever the network loses; shares the
  /// reliable control stream with Shoal's own control messages.
  reliable,
  /// May be lost or arrive out of order; never waits for a lost one. Travels apart from the
  /// snapshots (not on their sequenced channel), so a stream of these never displaces them.
  unreliable,
};

/// The most bytes one reliable message may carry, whatever MessageConfig says.
inline constexpr std::size_t kMaxReliableMessageBytes = 16384;
/// The most bytes one unreliable message may carry: it must fit one unfragmented datagram.
inline constexpr std::size_t kMaxUnreliableMessageBytes = 1192;

/// Limits of game messages, the same on both sides of a link in a well-behaved match. They
/// bound what this peer sends (Peer::send_message refuses past them) and what it accepts from
/// each other peer (more is dropped and counted, DropReason::oversize or over_limit), so a
/// flood from one peer costs bounded memory and leaves everyone else's traffic alone.
struct MessageConfig {
  /// The most bytes one message may carry, 1..kMaxReliableMessageBytes (an unreliable one at
  /// most kMaxUnreliableMessageBytes whatever this says). Longer ones received are dropped as
  /// oversize.
  std::size_t max_message_bytes = 1024;
  /// Bytes one peer may send per second (to everyone, counted once per message), at least
  /// max_message_bytes. A sender may spend one second's worth at once; a receiver allows two
  /// (network bunching), and drops the rest of a faster stream as over_limit.
  std::size_t max_bytes_per_second = 64 * 1024;
  /// Messages one peer may send per second, 1..100000; past it as for bytes.
  int max_messages_per_second = 600;
  /// Messages received from one peer and not taken by Peer::poll_event yet, 1..4096: past it,
  /// that peer's further messages are dropped as over_limit until the game polls.
  std::size_t max_queued = 1024;
};

}  // namespace shoal
