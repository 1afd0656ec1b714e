// SPDX-License-Identifier: MIT
// Two transports of the in-process network, each under the security layer, with a tap between
// the network and the layer of the receiving end: a test can replay, alter or inject what that
// end receives, as an attacker on the path would. Time is the network's, advanced by drive().
#pragma once

#include <doctest/doctest.h>

#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "shoal/forwarding_transport.hpp"
#include "shoal/memory_network.hpp"
#include "shoal/security.hpp"
#include "test_credentials.hpp"
#include "wire/packet_header.hpp"
#include "wire/refusal.hpp"

namespace shoal::test {

/// Between the network and the security layer: hands up what arrives, after `alter` (which may
/// change it), and whatever a test injects as if it had arrived.
class Tap : public ForwardingTransport {
 public:
  using ForwardingTransport::ForwardingTransport;

  struct Injected {
    ConnectionId connection;
    Channel channel;
    std::vector<std::uint8_t> bytes;
  };
  std::deque<Injected> injected;
  std::function<void(Channel, std::vector<std::uint8_t>&)> alter;
  std::vector<std::vector<std::uint8_t>> seen;  ///< every message that arrived, as it arrived
  ConnectionId first_connection = kNoConnection;

  bool poll(TransportEvent& event) override {
    if (!injected.empty()) {
      held_ = std::move(injected.front().bytes);
      event = {};
      event.kind = TransportEventKind::message;
      event.connection = injected.front().connection;
      event.channel = injected.front().channel;
      event.payload = held_;
      injected.pop_front();
      return true;
    }
    if (!inner().poll(event)) return false;
    if (event.kind == TransportEventKind::connected && first_connection == kNoConnection) {
      first_connection = event.connection;
    }
    if (event.kind == TransportEventKind::message) {
      held_.assign(event.payload.begin(), event.payload.end());
      seen.push_back(held_);
      if (alter) alter(event.channel, held_);
      event.payload = held_;
    }
    return true;
  }

 private:
  std::vector<std::uint8_t> held_;
};

/// One end: the layer above sees `transport`; `tap` is what sits under its security layer.
struct End {
  Tap* tap = nullptr;
  std::unique_ptr<Transport> transport;
  std::vector<TransportEventKind> events;
  std::vector<std::string> texts;  ///< messages received, as text
  /// What the security layer itself told this end (wire/dismissal.hpp): link notices, and the
  /// dismissal or refusal that ended a link it opened.
  std::vector<std::vector<std::uint8_t>> told;
  ConnectionId connection = kNoConnection;

  void drain() {
    TransportEvent e;
    for (int i = 0; i < 10'000 && transport->poll(e); ++i) {
      events.push_back(e.kind);
      if (e.kind == TransportEventKind::connected) connection = e.connection;
      if (e.kind != TransportEventKind::message) continue;
      const int kind = wire::kind_of_any_version(e.payload);
      if (kind == static_cast<int>(wire::MessageKind::link_notice) || kind == static_cast<int>(wire::MessageKind::dismissal) ||
          kind == static_cast<int>(wire::MessageKind::refusal)) {
        told.emplace_back(e.payload.begin(), e.payload.end());
      } else {
        texts.emplace_back(e.payload.begin(), e.payload.end());
      }
    }
  }
  bool saw(TransportEventKind kind) const {
    for (const auto k : events) if (k == kind) return true;
    return false;
  }
  bool send(Channel channel, const std::string& text) {
    return transport->send(connection, channel, {reinterpret_cast<const std::uint8_t*>(text.data()), text.size()});
  }
  std::uint64_t dropped(DropReason reason) const { return transport->drops()[reason]; }
};

inline End make_end(MemoryNetwork& net, std::uint16_t port, const Credentials& credentials,
                    std::uint32_t grace_ms = 2000) {
  End end;
  auto tap = std::make_unique<Tap>(net.create_endpoint(port, 2000));
  end.tap = tap.get();
  SecurityConfig security;
  security.credentials = credentials;
  security.token_grace_ms = grace_ms;
  end.transport = make_secure_transport(std::move(tap), security);
  return end;
}

/// Advances the network by 1 ms steps, draining both ends, until `done` (at most `ms` steps).
inline bool drive(MemoryNetwork& net, End& a, End& b, const std::function<bool()>& done, int ms = 2000) {
  for (int i = 0; i < ms; ++i) {
    net.set_time_us(net.time_us() + 1000);
    a.drain();
    b.drain();
    if (done()) return true;
  }
  return done();
}

}  // namespace shoal::test
