// An in-process relay and relay clients on loopback, pumped together in bounded loops.
#pragma once

#include <chrono>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "shoal/relay.hpp"
#include "transport/relay_client.hpp"
#include "transport/relay_server.hpp"

namespace shoal::test {

using Clock = std::chrono::steady_clock;

struct Received {
  ConnectionId connection = kNoConnection;
  Channel channel = Channel::control;
  std::vector<std::uint8_t> bytes;
};

/// One client and everything it has seen.
struct Client {
  std::unique_ptr<transport::RelayClient> transport;
  std::vector<ConnectionId> connected, ended;
  std::vector<Received> received;

  void drain() {
    TransportEvent e;
    while (transport->poll(e)) {
      switch (e.kind) {
        case TransportEventKind::connected: connected.push_back(e.connection); break;
        case TransportEventKind::disconnected:
        case TransportEventKind::timed_out: ended.push_back(e.connection); break;
        case TransportEventKind::message:
          received.push_back({e.connection, e.channel, {e.payload.begin(), e.payload.end()}});
          break;
      }
    }
  }
};

inline RelayClientConfig client_config(const Address& relay, const std::string& session,
                                       std::uint16_t slot = 0) {
  RelayClientConfig c;
  c.relay = relay;
  c.relay.host = "127.0.0.1";
  c.session = session;
  c.token = "token-" + session;
  c.slot = slot;
  return c;
}

inline Client make_client(const RelayClientConfig& config) {
  return Client{std::make_unique<transport::RelayClient>(config), {}, {}, {}};
}

/// Pumps the relay (if any) and the clients until `done` or `seconds` pass (iterations bounded).
template <class Done>
bool pump(transport::RelayServer* relay, std::vector<Client*> clients, double seconds, Done&& done) {
  const auto deadline = Clock::now() + std::chrono::duration<double>(seconds);
  for (long i = 0; i < static_cast<long>(seconds * 4000) && Clock::now() < deadline; ++i) {
    if (relay != nullptr) relay->poll();
    for (Client* c : clients) c->drain();
    if (done()) return true;
    if (relay != nullptr) relay->wait(1);
    else clients.front()->transport->wait(1);
  }
  return done();
}

inline std::vector<std::uint8_t> bytes_of(const std::string& s) { return {s.begin(), s.end()}; }
inline std::string text_of(const std::vector<std::uint8_t>& b) { return {b.begin(), b.end()}; }

}  // namespace shoal::test
