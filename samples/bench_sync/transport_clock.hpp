// SPDX-License-Identifier: MIT
// Times the calls a peer makes into its transport: put one above a transport's security layer
// and one below it, and the difference is what securing the links costs (shoal-bench-sync's
// security figures).
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>

#include "shoal/forwarding_transport.hpp"

namespace shoal::bench {

class TransportClock final : public ForwardingTransport {
 public:
  using ForwardingTransport::ForwardingTransport;

  bool send(ConnectionId connection, Channel channel, std::span<const std::uint8_t> bytes) override {
    const auto start = std::chrono::steady_clock::now();
    const bool sent = inner().send(connection, channel, bytes);
    add(start);
    ++messages;
    return sent;
  }
  bool poll(TransportEvent& event) override {
    const auto start = std::chrono::steady_clock::now();
    const bool polled = inner().poll(event);
    add(start);
    if (polled && event.kind == TransportEventKind::message) ++messages;
    return polled;
  }
  void flush() override {
    const auto start = std::chrono::steady_clock::now();
    inner().flush();
    add(start);
  }

  std::int64_t ns = 0;         ///< spent in send, poll and flush
  std::uint64_t messages = 0;  ///< sent and received

 private:
  void add(std::chrono::steady_clock::time_point start) {
    ns += std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count();
  }
};

}  // namespace shoal::bench
