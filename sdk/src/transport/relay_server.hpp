// SPDX-License-Identifier: MIT
// The relay: an ENet server that forwards bytes between the members of a session and never
// across sessions. It decodes only its own small protocol (transport/relay_protocol.hpp),
// never game state. Each client's hop is sealed once it has joined (RELAY_SPEC.md, section 1):
// the relay opens what a member forwards and seals what it delivers, per member, so nothing on
// either path can forge, alter or replay a frame. Runs in-process (tests) or as shoal-relay
// (sdk/tools/relay).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <unordered_set>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/random.hpp"
#include "security/envelope.hpp"
#include "shoal/drop_reason.hpp"
#include "shoal/transport.hpp"
#include "transport/relay_protocol.hpp"

namespace shoal::transport {

struct RateLimit {
  double bytes_per_s = 0;
  double packets_per_s = 0;
};

/// Sees each message one member's transport sends another through the relay (the link
/// protocol's data payload, as the receiving transport delivers it), once per receiver. For
/// a higher layer that watches a session's traffic (the auditor, peer/auditor.hpp) without
/// the relay itself decoding game state. Called from poll().
using RelayObserver = std::function<void(const std::string& session, Slot from, Slot to, Channel channel,
                                         std::span<const std::uint8_t> bytes)>;

struct RelayServerConfig {
  std::string bind_host = "127.0.0.1";
  std::uint16_t port = 0;  ///< 0 = any free port
  std::size_t max_sessions = 64;
  std::size_t max_clients = 512;
  std::size_t max_members_per_session = 64;
  std::uint32_t timeout_ms = 5000;  ///< silence after which a client is dropped
  RateLimit per_peer{512.0 * 1024, 2000};      ///< what one client may send
  RateLimit per_session{2048.0 * 1024, 8000};  ///< what a whole session may send
  std::uint64_t seed = 1;  ///< slot assignment
  RelayObserver observer;  ///< optional
};

/// Per-session counts since the session was created.
struct RelaySessionStats {
  std::string session;
  std::string code;
  std::size_t members = 0;
  std::uint64_t packets_in = 0, bytes_in = 0;    ///< accepted from members
  std::uint64_t packets_out = 0, bytes_out = 0;  ///< delivered to members (fan-out counted)
  std::uint64_t dropped_peer_rate = 0;     ///< over a member's own limit
  std::uint64_t dropped_session_rate = 0;  ///< over the session's limit
  std::uint64_t dropped_unknown_target = 0;  ///< for a slot not in the session
};

struct RelayServerCounters {
  /// undecodable relay messages, by reason; and forged (sealed with other keys, or in the
  /// clear from a joined client) and replayed ones
  DropCounters malformed;
  std::uint64_t dropped_not_joined = 0;  ///< forwards from clients outside any session
  std::uint64_t expelled = 0;            ///< members expelled (expel())
  std::uint64_t dropped_rejoin = 0;      ///< join from a client already in a session
  std::uint64_t joins_accepted = 0, joins_refused = 0;
};

/// One line, e.g. "session=match-7 code=K3QZ9A members=3 in=1200p/96KB out=2400p/190KB
/// dropped: peer_rate=0 session_rate=0 unknown_target=0".
std::string format_stats_line(const RelaySessionStats& stats);

class RelayServer {
 public:
  /// Throws std::invalid_argument for a bad config, std::runtime_error when the port
  /// cannot be bound; the message says which.
  explicit RelayServer(const RelayServerConfig& config);
  ~RelayServer();
  RelayServer(const RelayServer&) = delete;
  RelayServer& operator=(const RelayServer&) = delete;

  /// Handles everything that has arrived, without blocking, at the steady clock's time.
  void poll();
  /// The same at `now_us`, the loop's steady clock in microseconds (the rate limits' buckets
  /// refill by it), so that a loop reads the clock once per round and a test can give a fake one.
  void poll(std::int64_t now_us);
  /// Blocks up to timeout_ms for traffic.
  void wait(int timeout_ms);

  /// Disconnects the member in `slot` of `session` (the others are told it left) and refuses
  /// its slot and its endpoint in that session from then on. False when there is no such member.
  bool expel(const std::string& session, Slot slot);

  Address address() const;
  bool has_session(const std::string& session) const { return sessions_.contains(session); }
  std::vector<RelaySessionStats> session_stats() const;
  const RelayServerCounters& counters() const { return counters_; }

 private:
  struct Bucket {
    double bytes = 0, packets = 0;
    std::int64_t refilled_us = -1;
    bool take(const RateLimit& limit, std::size_t size, std::int64_t now_us);
  };
  struct Client {
    std::string session;  ///< empty until joined
    Slot slot = kNoSlot;
    Endpoint public_endpoint;
    Bucket bucket;
    std::unique_ptr<security::Envelope> hop;  ///< the hop's keys, from its join on
  };
  struct Session {
    std::string token;
    std::string code;
    std::unordered_map<Slot, ConnectionId> members;
    std::unordered_set<Slot> expelled_slots;
    std::unordered_set<Endpoint, EndpointHash> expelled_endpoints;
    Bucket bucket;
    RelaySessionStats stats;
  };

  void on_message(ConnectionId from, Channel channel, std::span<const std::uint8_t> bytes,
                  std::int64_t now_us);
  void on_join(ConnectionId from, Client& client, const JoinMessage& join);
  void on_forward(Client& client, Channel channel, Slot to, std::span<const std::uint8_t> payload,
                  std::int64_t now_us);
  void on_gone(ConnectionId connection);
  void observe(const Client& from, Slot to, Channel channel, std::span<const std::uint8_t> payload);
  void refuse(ConnectionId to, RefusalReason reason);
  /// `message` to a joined client, sealed with its hop's keys.
  bool send_sealed(ConnectionId to, Client& client, Channel channel, std::span<const std::uint8_t> message);
  Slot free_slot(const Session& session);

  RelayServerConfig config_;
  std::unique_ptr<Transport> transport_;
  std::unordered_map<ConnectionId, Client> clients_;
  std::unordered_map<std::string, Session> sessions_;
  core::Random random_;
  std::vector<std::uint8_t> out_;  ///< one encode buffer, reused
  std::vector<std::uint8_t> envelope_, sealed_, opened_;  ///< sealing and opening, reused
  RelayServerCounters counters_;
};

}  // namespace shoal::transport
