// SPDX-License-Identifier: MIT
// Peers that misbehave on purpose, for the robustness tests: an owner that lies about its
// objects, and a connection that sends whatever a test encodes.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "shoal/forwarding_transport.hpp"
#include "wire/control_messages.hpp"
#include "wire/snapshot_codec.hpp"

namespace shoal::test {

/// An owner that lies: the moving objects it sends are `lift_units` quantisation steps (1/4096 m
/// each) higher than what it simulated, as an absolute value or on top of a difference.
class LyingTransport final : public ForwardingTransport {
 public:
  LyingTransport(std::unique_ptr<Transport> inner, std::int32_t lift_units)
      : ForwardingTransport(std::move(inner)), lift_(lift_units) {}
  bool send(ConnectionId c, Channel channel, std::span<const std::uint8_t> bytes) override {
    if (channel == Channel::state && wire::decode(bytes, quantizer_.limits(), snapshot_)) {
      for (wire::ObjectRecord& r : snapshot_.objects) {
        if (r.at_rest) continue;
        if (r.position.coding == wire::Coding::unchanged) r.position = {wire::Coding::delta, {}};
        r.position.value[1] += lift_;
      }
      if (wire::encode(snapshot_, quantizer_.limits(), buffer_)) return inner().send(c, channel, buffer_);
    }
    return inner().send(c, channel, bytes);
  }

 private:
  std::int32_t lift_;
  wire::Quantizer quantizer_{SnapshotConfig{}};
  wire::Snapshot snapshot_;
  std::vector<std::uint8_t> buffer_;
};

/// Sends whatever a test wants, on a connection of its own, to a peer.
struct Intruder {
  std::unique_ptr<Transport> transport;
  ConnectionId connection = kNoConnection;

  void send(Channel channel, std::span<const std::uint8_t> bytes) {
    transport->send(connection, channel, bytes);
  }
  void drain() {
    TransportEvent e;
    for (int i = 0; i < 10'000 && transport->poll(e); ++i) {}
  }
};

template <class Message>
std::vector<std::uint8_t> encoded(const Message& m) {
  std::vector<std::uint8_t> out;
  if (!wire::encode(m, out)) out.clear();
  return out;
}

/// A snapshot as peers with the default SnapshotConfig encode it.
inline std::vector<std::uint8_t> encoded(const wire::Snapshot& m) {
  std::vector<std::uint8_t> out;
  if (!wire::encode(m, wire::Quantizer(SnapshotConfig{}).limits(), out)) out.clear();
  return out;
}

}  // namespace shoal::test
