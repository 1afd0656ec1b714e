// SPDX-License-Identifier: MIT
// A game's own message (Peer::send_message): a frame tag and the game's bytes, on the control
// channel (reliable) or the time channel (unreliable). Layout in sdk/src/wire/SPEC.md.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "shoal/types.hpp"
#include "wire/packet_header.hpp"

namespace shoal::wire {

/// What a game message datagram says; `bytes` views the datagram it was decoded from.
struct GameMessage {
  Frame frame = kNoFrame;  ///< the sender's tag, kNoFrame or a frame >= 0
  std::span<const std::uint8_t> bytes;
};

/// Writes a game_message (reliable) or game_datagram (unreliable) datagram into `out`. Returns
/// false, leaving `out` empty, when it would exceed the kind's datagram limit or the frame is
/// below kNoFrame.
[[nodiscard]] bool encode(const GameMessage& message, bool reliable, std::vector<std::uint8_t>& out);

/// Decodes a game_message or game_datagram datagram (header included); `message.bytes` then
/// views `datagram`. Fails with unknown_kind for any other kind, truncated without a whole
/// frame tag, malformed for a tag below kNoFrame.
DecodeStatus decode(std::span<const std::uint8_t> datagram, GameMessage& message);

}  // namespace shoal::wire
