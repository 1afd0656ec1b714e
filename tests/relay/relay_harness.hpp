// SPDX-License-Identifier: MIT
// An in-process relay and relay clients on loopback, pumped together in bounded loops.
#pragma once

#include <chrono>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "test_credentials.hpp"
#include "peer/match_harness.hpp"
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

/// A transport under test and everything it has reported.
template <class TransportType>
struct Seen {
  std::unique_ptr<TransportType> transport;
  std::vector<ConnectionId> connected, ended;
  std::vector<Received> received;

  /// Polls until empty, the transport reading the clock itself.
  void drain() { drain_at(-1); }
  /// The same at the time given (the caller's clock); now_us < 0: the transport reads the clock.
  void drain_at(std::int64_t now_us) {
    TransportEvent e;
    while (now_us < 0 ? transport->poll(e) : transport->poll(e, now_us)) {
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

/// One relay client and everything it has seen.
using Client = Seen<transport::RelayClient>;

inline RelayClientConfig client_config(const Address& relay, const std::string& session,
                                       std::uint16_t slot = 0) {
  RelayClientConfig c;
  c.relay = relay;
  c.relay.host = "127.0.0.1";
  c.session = session;
  c.token = "token-" + session;
  c.slot = slot;
  c.local = test::secured(c.local);
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

/// Runs a Peer match whose traffic goes through `relay` (anything with poll() and wait(ms)):
/// bots play, every peer updates, until `done` or `seconds` of wall time (iterations bounded).
template <class Relay, class Done>
bool run_peers(Relay& relay, std::vector<Player>& players, double seconds, Done&& done) {
  const auto deadline = Clock::now() + std::chrono::duration<double>(seconds);
  for (long i = 0; i < static_cast<long>(seconds * 2000) && Clock::now() < deadline; ++i) {
    relay.poll();
    for (Player& p : players) {
      if (!p.alive) continue;
      if (p.bot && p.peer->in_match()) p.peer->set_input(p.bot->input(*p.peer, p.ball, p.peer->frame()));
      p.peer->update();
    }
    if (done()) return true;
    relay.wait(1);
  }
  return done();
}

/// Bots play for 2 s, then stop; true once every peer agrees on every object (1 mm, 0.001 rad)
/// within 10 s.
template <class Relay>
bool play_then_settle(Relay& relay, std::vector<Player>& players, const ArenaSpec& spec,
                      std::uint64_t bot_seed) {
  for (std::size_t p = 0; p < players.size(); ++p) players[p].bot.emplace(bot_seed + p, spec.objects);
  run_peers(relay, players, 2, [] { return false; });
  for (Player& p : players) {
    p.bot.reset();
    p.peer->set_input({});
  }
  const auto ids = all_ids(spec);
  return run_peers(relay, players, 10, [&] {
    const Divergence d = divergence(players, ids);
    return d.objects_compared > 0 && d.position_m < 1e-3f && d.rotation_rad < 1e-3f;
  });
}

/// Every live peer is in the match and sees all the others.
inline bool all_connected(const std::vector<Player>& players) {
  for (const Player& p : players) {
    if (p.alive && (!p.peer->in_match() || p.peer->peers().size() != players.size())) return false;
  }
  return true;
}

inline std::vector<std::uint8_t> bytes_of(const std::string& s) { return {s.begin(), s.end()}; }
inline std::string text_of(const std::vector<std::uint8_t>& b) { return {b.begin(), b.end()}; }

}  // namespace shoal::test
