// SPDX-License-Identifier: MIT
#include "wire/packet_header.hpp"

namespace shoal::wire {

bool is_known_kind(std::uint8_t value) {
  switch (static_cast<MessageKind>(value)) {
    case MessageKind::join_request:
    case MessageKind::welcome:
    case MessageKind::hello:
    case MessageKind::peer_left:
    case MessageKind::ownership:
    case MessageKind::checksum:
    case MessageKind::baseline_request:
    case MessageKind::baseline:
    case MessageKind::world_changes:
    case MessageKind::game_message:
    case MessageKind::dismissal:
    case MessageKind::link_notice:
    case MessageKind::refusal:
    case MessageKind::ping:
    case MessageKind::pong:
    case MessageKind::game_datagram:
    case MessageKind::snapshot:
    case MessageKind::snapshot_ack:
      return true;
  }
  return false;
}

Channel channel_of(MessageKind kind) {
  switch (kind) {
    case MessageKind::ping:
    case MessageKind::pong:
    // Unsequenced, unlike the state channel, whose sequence a message would share: a snapshot
    // overtaken by a later message there would be dropped as stale.
    case MessageKind::game_datagram:
      return Channel::time;
    case MessageKind::snapshot:
    case MessageKind::snapshot_ack:
      return Channel::state;
    default:
      return Channel::control;
  }
}

std::size_t max_datagram_size(MessageKind kind) {
  return channel_of(kind) == Channel::control ? kMaxControlDatagram : kMaxUnreliableDatagram;
}

void write_header(MessageKind kind, std::vector<std::uint8_t>& out) {
  out.clear();
  out.push_back(static_cast<std::uint8_t>(kProtocolMagic & 0xFF));
  out.push_back(static_cast<std::uint8_t>(kProtocolMagic >> 8));
  out.push_back(kProtocolVersion);
  out.push_back(static_cast<std::uint8_t>(kind));
}

DecodeStatus read_header(std::span<const std::uint8_t> datagram, MessageKind& kind) {
  if (datagram.size() < kHeaderSize) return DropReason::truncated;
  const auto magic = static_cast<std::uint16_t>(datagram[0] | (datagram[1] << 8));
  if (magic != kProtocolMagic) return DropReason::bad_magic;
  if (datagram[2] != kProtocolVersion) return DropReason::unsupported_version;
  if (!is_known_kind(datagram[3])) return DropReason::unknown_kind;
  const auto parsed = static_cast<MessageKind>(datagram[3]);
  if (datagram.size() > max_datagram_size(parsed)) return DropReason::oversize;
  kind = parsed;
  return DecodeStatus::success();
}

DecodeStatus expect_header(std::span<const std::uint8_t> datagram, MessageKind expected) {
  MessageKind kind{};
  const DecodeStatus status = read_header(datagram, kind);
  if (!status) return status;
  if (kind != expected) return DropReason::unknown_kind;
  return DecodeStatus::success();
}

}  // namespace shoal::wire
