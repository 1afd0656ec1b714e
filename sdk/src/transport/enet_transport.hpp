// SPDX-License-Identifier: MIT
// The ENet implementation of shoal::Transport, with the link conditioner on both directions.
//
// It does not override Transport::poll(event, now_us): ENet's timers (retransmission,
// timeouts) run on ENet's own clock, and so does the conditioner in front of it.
//
// ENet sends from its own socket and offers no outbound hook, so the transport puts a
// ConditionedRelay in front of it: the ENet host listens on an internal loopback port, the
// relay owns the public socket of the config, and every remote is represented to ENet by a
// loopback pipe socket. ENet never touches the network itself; every datagram in or out
// passes one of the pipe's two conditioners.
#pragma once

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "shoal/transport.hpp"
#include "transport/conditioned_relay.hpp"

struct _ENetHost;
struct _ENetPeer;
struct _ENetEvent;

namespace shoal::transport {

class EnetTransport final : public Transport {
 public:
  /// Throws std::invalid_argument (bad values, unresolvable host) or std::runtime_error
  /// (a port that cannot be bound), saying which.
  explicit EnetTransport(const TransportConfig& config);
  /// Says goodbye to every connected peer (best effort: a datagram the conditioner holds back
  /// at this moment is lost and that peer times out instead).
  ~EnetTransport() override;
  EnetTransport(const EnetTransport&) = delete;
  EnetTransport& operator=(const EnetTransport&) = delete;

  ConnectionId connect(const Address& remote) override;
  void disconnect(ConnectionId connection) override;
  bool send(ConnectionId connection, Channel channel, std::span<const std::uint8_t> bytes) override;
  bool poll(TransportEvent& event) override;
  void flush() override;
  void wait(int timeout_ms) override;

  LinkStats stats(ConnectionId connection) const override;
  Address local_address() const override;
  Address remote_address(ConnectionId connection) const override;
  std::size_t max_message_size() const override;

  void set_conditions(const ConditionerConfig& config) override;
  /// Conditions towards one remote only (e.g. block every peer but a relay sharing the socket).
  void set_conditions_for(const Address& remote, const ConditionerConfig& config);
  /// A silence limit for one connection other than the config's timeout_ms.
  void set_timeout(ConnectionId connection, std::uint32_t timeout_ms);
  /// Opens our NAT's mapping towards `remote` (see ConditionedRelay::punch).
  void punch(const Address& remote) { relay_->punch(resolve(remote)); }

  /// The proxy in front of ENet, for tests and tools that inspect what the conditioners did.
  const ConditionedRelay& relay() const { return *relay_; }

  struct Counters {
    std::uint64_t dropped_bad_channel = 0;  ///< received on a channel Shoal does not define
  };
  const Counters& counters() const { return counters_; }

 private:
  struct Connection {
    _ENetPeer* peer = nullptr;
    Endpoint remote;
    bool closing_locally = false;  ///< our disconnect: its completion is not a timeout
  };

  struct HostDeleter {
    void operator()(_ENetHost* host) const;
  };

  ConnectionId add_connection(_ENetPeer* peer, const Endpoint& remote);
  void configure_peer(_ENetPeer* peer, std::uint32_t timeout_ms) const;
  bool translate(const _ENetEvent& raw, TransportEvent& event);
  const Connection* find(ConnectionId connection) const;
  void bound_retransmission_timers();

  TransportConfig config_;
  std::unique_ptr<_ENetHost, HostDeleter> host_;
  std::unique_ptr<ConditionedRelay> relay_;
  std::unordered_map<ConnectionId, Connection> connections_;
  ConnectionId next_connection_ = 1;
  std::vector<ConnectionId> finished_without_event_;  ///< closed before ENet reported them
  std::vector<std::uint8_t> payload_;  ///< the last message; valid until the next poll
  Counters counters_;
};

}  // namespace shoal::transport
