// SPDX-License-Identifier: MIT
// The input of the stateful `relay_client` target: a script of what the relay says to one relay
// client over its connection, what the game asks of the client, and when it polls. The target
// plays the relay with a key pair of its own and reads the client's from its join, so it can
// seal what the script gives in the clear exactly as the relay would, and the fuzzer's mutations
// reach everything behind the hop's seal: links opened, accepted, closed, resent, acknowledged.
//
// Script: operations, each an op byte (taken mod 10) and its fields:
//   0 update        u8 milliseconds: time advances that much, then the client is polled dry
//   1 connected     the connection to the relay comes up (the client then sends its join)
//   2 lost          the connection to the relay ends
//   3 joined        u16 slot, u8 count (mod 5), that many u16 member slots: the relay's answer,
//                   with its key (the hop's keys are agreed from here on)
//   4 sealed        u8 channel (mod 3), u16 length, that many bytes: a relay message, sealed
//   5 raw           u8 channel (mod 3), u16 length, that many bytes: as they are, unsealed
//   6 open_link     u16 slot: the game connects to that slot
//   7 send          u8 link (mod links), u8 channel (mod 3), u16 length, bytes: the game sends
//   8 close_link    u8 link (mod links): the game disconnects it
//   9 link_frame    u8 link (mod links), u16 from, u8 channel (mod 3), u8 type (1..5), u32
//                   sequence, u16 length, bytes: a link frame with that link's tag, delivered
//                   sealed as if from `from` (the fuzzer cannot guess a tag the client drew)
// "links" are the connections the client has reported or been asked to open, in that order.
#pragma once

#include <cstdint>
#include <vector>

namespace shoal::fuzz {

enum class RelayOp : std::uint8_t {
  update = 0,
  connected = 1,
  lost = 2,
  joined = 3,
  sealed = 4,
  raw = 5,
  open_link = 6,
  send = 7,
  close_link = 8,
  link_frame = 9,
};
inline constexpr std::uint8_t kRelayOps = 10;

/// Appends an op byte; the fields follow with the appenders below.
inline void put_op(std::vector<std::uint8_t>& out, RelayOp op) { out.push_back(static_cast<std::uint8_t>(op)); }
inline void put_u16(std::vector<std::uint8_t>& out, std::uint16_t v) {
  out.push_back(static_cast<std::uint8_t>(v & 0xFF));
  out.push_back(static_cast<std::uint8_t>(v >> 8));
}
inline void put_u32(std::vector<std::uint8_t>& out, std::uint32_t v) {
  put_u16(out, static_cast<std::uint16_t>(v & 0xFFFF));
  put_u16(out, static_cast<std::uint16_t>(v >> 16));
}

}  // namespace shoal::fuzz
