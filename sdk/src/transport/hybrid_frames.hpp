// SPDX-License-Identifier: MIT
// What two hybrid transports say to each other inside each path (a direct ENet connection or
// a relay link). Every path of one connection starts with a hello naming the connection (its
// opener's random tag), so the acceptor can tell a new connection from a new path of a known
// one. Control messages carry the connection's own sequence numbers (a ResumableStream), so a
// switch of path neither loses nor duplicates them. Punch requests and answers coordinate
// hole punching over the relay path (see hybrid_transport.hpp).
//
//   hello:    [1][u8 answer][u64 tag][u16 relay slot][u16 direct port][u32 public ipv4]
//             [u16 public port][u8 n][n bytes direct host]
//   close:    [2]
//   sequenced:[3][u32 seq][payload]      control channel
//   datagram: [4][payload]               state and time channels
//   ack:      [5][u32 next expected seq] control channel
//   punch:    [6][u8 answer]             control channel, relay path only
// Integers little-endian. The formats are written down in RELAY_SPEC.md beside this file.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "transport/udp_socket.hpp"

namespace shoal::transport {

enum class HybridFrameType : std::uint8_t { hello = 1, close = 2, sequenced = 3, datagram = 4, ack = 5,
                                     punch = 6 };

inline constexpr std::size_t kHybridSequencedOverhead = 5;
inline constexpr std::size_t kMaxHybridHostSize = 255;

struct HybridHello {
  bool answer = false;           ///< the acceptor's reply on the same path
  std::uint64_t tag = 0;         ///< the connection, chosen at random by its opener
  std::uint16_t relay_slot = 0;  ///< the sender's slot on the relay; 0: not joined
  std::uint16_t direct_port = 0;
  std::string direct_host;       ///< the sender's direct address as it knows it
  Endpoint public_endpoint;      ///< the sender's socket as the relay sees it; port 0: unknown
};

struct HybridFrame {
  HybridFrameType type = HybridFrameType::datagram;
  HybridHello hello;
  std::uint32_t seq = 0;                  ///< sequenced and ack
  bool punch_answer = false;              ///< punch: "I have punched" rather than "punch now"
  std::span<const std::uint8_t> payload;  ///< sequenced and datagram: aliases the decoded bytes
};

// Encoders clear `out` first; the payload forms append the payload.
void encode_hybrid_hello(const HybridHello& hello, std::vector<std::uint8_t>& out);
void encode_hybrid_close(std::vector<std::uint8_t>& out);
void encode_hybrid_sequenced(std::uint32_t seq, std::span<const std::uint8_t> payload, std::vector<std::uint8_t>& out);
void encode_hybrid_datagram(std::span<const std::uint8_t> payload, std::vector<std::uint8_t>& out);
void encode_hybrid_ack(std::uint32_t next_expected, std::vector<std::uint8_t>& out);
void encode_hybrid_punch(bool answer, std::vector<std::uint8_t>& out);

/// False for truncated, oversized or unknown input (`out` is then unspecified).
bool decode_hybrid(std::span<const std::uint8_t> bytes, HybridFrame& out);

}  // namespace shoal::transport
