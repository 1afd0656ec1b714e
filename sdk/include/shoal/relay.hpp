// SPDX-License-Identifier: MIT
// Playing across the Internet through a relay (shoal-relay): a Transport whose connections
// go through the relay, and the lobby calls to find a session on a relay.
//
// A peer reached through the relay has a virtual address: host "relay", port = its slot in
// the session. The match host asks for kRelayHostSlot, so every joiner knows where it is:
//
//   shoal::RelayClientConfig relay;
//   relay.relay = {"relay.example.com", 40100};
//   relay.session = "friday-night";  relay.token = "secret";   // or relay.code = "K3QZ9A"
//   relay.slot = hosting ? shoal::kRelayHostSlot : 0;
//   shoal::Peer peer(config, physics, shoal::make_relay_transport(relay));
//   hosting ? peer.host() : peer.join(shoal::relay_host_address());
//
// The connections survive a relay restart: the client rejoins with its old slot and resends
// what the restart lost; control messages stay reliable, ordered and exactly-once end to end.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "shoal/transport.hpp"

namespace shoal {

inline constexpr std::uint16_t kRelayHostSlot = 1;
inline constexpr const char* kRelayVirtualHost = "relay";

/// The virtual address of the member in `slot` of the session.
inline Address relay_peer_address(std::uint16_t slot) { return {kRelayVirtualHost, slot}; }
/// The virtual address of the match host (the member that asked for kRelayHostSlot).
inline Address relay_host_address() { return relay_peer_address(kRelayHostSlot); }

/// How a relay client reaches its relay and which session it joins.
struct RelayClientConfig {
  Address relay;             ///< the relay server
  std::string session;       ///< session id (created by its first member); or empty and...
  std::string code;          ///< ...the short code of a running session (see list_relay_sessions)
  std::string token;         ///< must equal the token the session was created with
  std::uint16_t slot = 0;    ///< 0: any free slot; kRelayHostSlot for the match host
  TransportConfig local;     ///< the local ENet socket (bind address, port, conditioner)
  /// How long a connection outlives the relay (or its remote's absence from it) before it
  /// times out: a relay restart shorter than this is survived.
  std::uint32_t resume_timeout_ms = 8000;
  /// Silence on the link to the relay after which it counts as lost and is rejoined.
  std::uint32_t relay_timeout_ms = 2000;
};

/// A relay client's standing with its relay.
struct RelayStatus {
  bool joined = false;  ///< in a session on the relay now
  std::uint16_t slot = 0;  ///< this client's slot in the session (0 until joined)
  std::string session;  ///< the session's id
  std::string code;         ///< the short code others can join by
  Address public_address;   ///< where the relay sees us come from (behind NAT: the NAT's mapping); port 0 until joined
  std::uint64_t rejoins = 0;  ///< times the client came back after losing the relay
  std::string error;        ///< why the relay refused us; the transport then stays idle
};

/// A Transport through a relay, with its relay-side status.
class RelayTransport : public Transport {
 public:
  virtual RelayStatus status() const = 0;  ///< the client's standing with its relay
};

/// Joins asynchronously (poll drives it); connect() may be called at once and completes after
/// the join. Throws std::invalid_argument for a bad config (no session or code, oversized id
/// or token, unresolvable relay host) and std::runtime_error when the local port cannot be bound.
std::unique_ptr<RelayTransport> make_relay_transport(const RelayClientConfig& config);

/// One session running on a relay (list_relay_sessions).
struct RelaySessionInfo {
  std::string session;  ///< its id
  std::string code;  ///< its short code
  std::size_t members = 0;  ///< members in it now
};

/// Lobby: the sessions running on a relay. Blocks up to timeout_ms; throws std::runtime_error
/// when the relay does not answer in time.
std::vector<RelaySessionInfo> list_relay_sessions(const Address& relay, int timeout_ms = 2000);

/// The short code a session id gets on every relay (6 characters, no look-alike letters).
std::string relay_session_code(const std::string& session);

// ---- Mixed paths: direct where possible, the relay where not ----
//
// A hybrid transport reaches each remote directly (ENet) when it can and through the relay
// when it cannot: it tries direct first, opens a relay link when no direct connection comes up
// within direct_timeout_ms, keeps trying direct and moves back when one opens. A connection
// keeps one ConnectionId whatever its path, and control messages stay reliable, ordered and
// exactly-once across every switch.
//
// Its addresses name both paths: host "<direct host>/<relay slot>", port = the direct port,
// so a peer's address from Welcome reaches it either way:
//
//   shoal::HybridConfig hybrid;
//   hybrid.relay = relay;                        // a RelayClientConfig, as above
//   hybrid.direct.bind_host = "0.0.0.0";  hybrid.direct.port = 40000;
//   shoal::Peer peer(config, physics, shoal::make_hybrid_transport(hybrid));
//   hosting ? peer.host() : peer.join(shoal::hybrid_address({"203.0.113.7", 40000}, shoal::kRelayHostSlot));

/// Which way a hybrid connection's messages go right now.
enum class Path : std::uint8_t { none, direct, relay };
const char* to_string(Path path);

/// A hybrid transport: direct ENet where possible, the relay where not.
struct HybridConfig {
  /// The fallback. The relay link shares the direct socket (relay.local is unused), so the
  /// relay learns our public endpoint and the peers punch holes through NAT towards it.
  RelayClientConfig relay;
  TransportConfig direct;    ///< the one socket; its timeout_ms also ends a connection with no path
  std::uint32_t direct_timeout_ms = 1000;  ///< no direct connection within this: use the relay
  std::uint32_t direct_retry_ms = 2000;    ///< while on the relay, try direct again this often
};

/// The hybrid address of a peer: its direct address and its slot on the relay (0: none known).
Address hybrid_address(const Address& direct, std::uint16_t relay_slot);

/// A Transport that reaches each remote directly when it can and through a relay when not, keeping
/// one ConnectionId across path switches.
class HybridTransport : public Transport {
 public:
  /// The path a connection uses now; Path::none for an unknown one or one between paths.
  virtual Path path(ConnectionId connection) const = 0;
  virtual RelayStatus relay_status() const = 0;  ///< the relay link's standing
};

/// Throws std::invalid_argument for a bad config (zero timeouts, or as make_relay_transport and
/// make_enet_transport) and std::runtime_error when a local port cannot be bound.
std::unique_ptr<HybridTransport> make_hybrid_transport(const HybridConfig& config);

}  // namespace shoal
