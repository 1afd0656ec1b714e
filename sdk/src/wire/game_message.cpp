// SPDX-License-Identifier: MIT
// Written by hand rather than with Cereal: the body is a fixed tag and the rest of the
// datagram, and decoding it must only view the bytes (a flood of messages is decoded too).
#include "wire/game_message.hpp"

namespace shoal::wire {
namespace {
constexpr std::size_t kFrameBytes = 4;
}

bool encode(const GameMessage& message, bool reliable, std::vector<std::uint8_t>& out) {
  const MessageKind kind = reliable ? MessageKind::game_message : MessageKind::game_datagram;
  out.clear();
  if (message.frame < kNoFrame || kHeaderSize + kFrameBytes + message.bytes.size() > max_datagram_size(kind)) return false;
  write_header(kind, out);
  const auto tag = static_cast<std::uint32_t>(message.frame);
  for (int shift = 0; shift < 32; shift += 8) out.push_back(static_cast<std::uint8_t>(tag >> shift));
  out.insert(out.end(), message.bytes.begin(), message.bytes.end());
  return true;
}

DecodeStatus decode(std::span<const std::uint8_t> datagram, GameMessage& message) {
  MessageKind kind{};
  if (const DecodeStatus header = read_header(datagram, kind); !header) return header;
  if (kind != MessageKind::game_message && kind != MessageKind::game_datagram) return DropReason::unknown_kind;
  if (datagram.size() < kHeaderSize + kFrameBytes) return DropReason::truncated;
  std::uint32_t tag = 0;
  for (std::size_t i = 0; i < kFrameBytes; ++i) tag |= static_cast<std::uint32_t>(datagram[kHeaderSize + i]) << (8 * i);
  message.frame = static_cast<Frame>(tag);
  if (message.frame < kNoFrame) return DropReason::malformed;
  message.bytes = datagram.subspan(kHeaderSize + kFrameBytes);
  return DecodeStatus::success();
}

}  // namespace shoal::wire
