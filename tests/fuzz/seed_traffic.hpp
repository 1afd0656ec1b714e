// SPDX-License-Identifier: MIT
// What shoal-fuzz-record-seeds (record_seeds.cpp) builds its seeds from: the datagrams peers
// received in a real match (TrafficTap), and the seeds of the protocols below the peer (relay,
// relay links, hybrid paths, LAN discovery), written by their own encoders around such a
// datagram.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "shoal/forwarding_transport.hpp"
#include "wire/packet_header.hpp"

namespace shoal::fuzz {

using MessageKindOf = std::optional<wire::MessageKind>;

/// One message a peer's transport handed it.
struct TappedMessage {
  int receiver = 0;
  ConnectionId connection = 0;
  std::vector<std::uint8_t> bytes;
};

/// Around a peer's transport: keeps a copy of every message it receives.
class TrafficTap final : public ForwardingTransport {
 public:
  TrafficTap(std::unique_ptr<Transport> inner, int receiver, std::vector<TappedMessage>& out)
      : ForwardingTransport(std::move(inner)), receiver_(receiver), out_(out) {}
  bool poll(TransportEvent& event) override;

 private:
  int receiver_;
  std::vector<TappedMessage>& out_;
};

/// Appends a u16 little-endian length and the bytes (InputCursor::chunk reads it back).
void append_chunk(std::span<const std::uint8_t> bytes, std::vector<std::uint8_t>& out);

/// Seeds by target (relay_protocol, relay_link, hybrid_frames, lan_discovery), by file name;
/// `payload` is a real datagram, carried where those protocols carry one.
using NamedSeeds = std::map<std::string, std::map<std::string, std::vector<std::uint8_t>>>;
NamedSeeds protocol_seeds(std::span<const std::uint8_t> payload);

}  // namespace shoal::fuzz
