// SPDX-License-Identifier: MIT
// The lobby query: one short ENet connection to the relay that asks for its session list.
#include <chrono>
#include <stdexcept>

#include <fmt/format.h>

#include "shoal/relay.hpp"
#include "transport/enet_transport.hpp"
#include "transport/relay_protocol.hpp"

namespace shoal {

std::vector<RelaySessionInfo> list_relay_sessions(const Address& relay, int timeout_ms) {
  using Clock = std::chrono::steady_clock;
  TransportConfig config;
  config.bind_host = "0.0.0.0";
  config.timeout_ms = static_cast<std::uint32_t>(std::max(timeout_ms, 1));
  transport::EnetTransport enet(config);
  const ConnectionId connection = enet.connect(relay);
  if (connection == kNoConnection) {
    throw std::runtime_error(fmt::format("lobby: cannot open a connection to {}", to_string(relay)));
  }
  std::vector<std::uint8_t> request;
  transport::encode_list_sessions(request);
  const auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
  while (Clock::now() < deadline) {
    TransportEvent event;
    while (enet.poll(event)) {
      if (event.kind == TransportEventKind::connected) enet.send(connection, Channel::control, request);
      if (event.kind != TransportEventKind::message) continue;
      transport::RelayMessage message;
      DropReason why{};
      if (!transport::decode_relay(event.payload, message, why) ||
          message.kind != transport::RelayKind::session_list) {
        continue;
      }
      std::vector<RelaySessionInfo> sessions;
      for (const auto& s : message.sessions) sessions.push_back({s.session, s.code, s.members});
      enet.disconnect(connection);
      enet.poll(event);  // sends the goodbye
      return sessions;
    }
    enet.wait(10);
  }
  throw std::runtime_error(fmt::format("lobby: the relay at {} did not answer within {} ms",
                                       to_string(relay), timeout_ms));
}

}  // namespace shoal
