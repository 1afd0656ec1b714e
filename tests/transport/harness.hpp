// SPDX-License-Identifier: MIT
// Drives real ENet transports on 127.0.0.1 until a condition holds or a deadline passes.
#pragma once

#include <doctest/doctest.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "shoal/security.hpp"
#include "shoal/transport.hpp"
#include "test_credentials.hpp"
#include "transport/enet_transport.hpp"

namespace shoal::test {

struct Received {
  TransportEventKind kind;
  ConnectionId connection;
  Channel channel;
  std::vector<std::uint8_t> payload;
};

struct TestPeer {
  /// As make_enet_transport builds it (secured unless config turns it off), keeping a view of
  /// the ENet transport under the security layer for the tests that inspect it.
  explicit TestPeer(TransportConfig config = {}) {
    config = secured(config);
    auto inner = std::make_unique<transport::EnetTransport>(config);
    enet = inner.get();
    transport = make_secure_transport(std::move(inner), config.security);
  }

  void drain() {
    TransportEvent event;
    for (int i = 0; i < 10'000 && transport->poll(event); ++i) {
      events.push_back({event.kind, event.connection, event.channel,
                        {event.payload.begin(), event.payload.end()}});
    }
  }
  bool saw(TransportEventKind kind, ConnectionId connection = kNoConnection) const {
    for (const auto& e : events) {
      if (e.kind == kind && (connection == kNoConnection || e.connection == connection)) return true;
    }
    return false;
  }
  ConnectionId first(TransportEventKind kind) const {
    for (const auto& e : events) {
      if (e.kind == kind) return e.connection;
    }
    return kNoConnection;
  }
  std::vector<std::string> texts_from(ConnectionId connection, Channel channel) const {
    std::vector<std::string> texts;
    for (const auto& e : events) {
      if (e.kind == TransportEventKind::message && e.connection == connection && e.channel == channel) {
        texts.emplace_back(e.payload.begin(), e.payload.end());
      }
    }
    return texts;
  }
  bool send_text(ConnectionId connection, Channel channel, const std::string& text) {
    return transport->send(connection, channel,
                           {reinterpret_cast<const std::uint8_t*>(text.data()), text.size()});
  }
  Address address() const { return transport->local_address(); }

  std::unique_ptr<Transport> transport;
  transport::EnetTransport* enet = nullptr;  ///< under `transport`'s security layer, if any
  std::vector<Received> events;
};

/// Services every peer (wait a little, then drain) until `done` or the deadline; returns done().
/// Bounded in time and iterations.
inline bool service_until(const std::vector<TestPeer*>& peers, const std::function<bool()>& done,
                          std::chrono::milliseconds deadline = std::chrono::seconds(10),
                          const std::function<void()>& each_round = {}) {
  const auto until = std::chrono::steady_clock::now() + deadline;
  for (int round = 0; round < 100'000 && std::chrono::steady_clock::now() < until; ++round) {
    for (TestPeer* peer : peers) {
      peer->transport->wait(1);
      peer->drain();
    }
    if (done()) return true;
    if (each_round) each_round();
  }
  return done();
}

}  // namespace shoal::test
