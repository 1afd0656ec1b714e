// SPDX-License-Identifier: MIT
// Transport events waiting to be polled: what every Transport implementation that produces its
// own events (relay client, hybrid, in-process network) keeps between polls.
#pragma once

#include <deque>
#include <span>
#include <vector>

#include "shoal/transport.hpp"

namespace shoal::transport {

class EventQueue {
 public:
  void push(TransportEventKind kind, ConnectionId connection, Channel channel = Channel::control,
            std::span<const std::uint8_t> payload = {}) {
    queue_.push_back({kind, connection, channel, {payload.begin(), payload.end()}});
  }
  bool empty() const { return queue_.empty(); }

  /// Takes the oldest event; its payload stays valid until the next pop.
  bool pop(TransportEvent& event) {
    if (queue_.empty()) return false;
    Pending& next = queue_.front();
    current_.swap(next.payload);
    event = {};
    event.kind = next.kind;
    event.connection = next.connection;
    event.channel = next.channel;
    event.payload = current_;
    queue_.pop_front();
    return true;
  }

 private:
  struct Pending {
    TransportEventKind kind;
    ConnectionId connection;
    Channel channel;
    std::vector<std::uint8_t> payload;
  };
  std::deque<Pending> queue_;
  std::vector<std::uint8_t> current_;
};

}  // namespace shoal::transport
