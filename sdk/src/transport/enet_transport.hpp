// SPDX-License-Identifier: MIT
// The ENet implementation of shoal::Transport.
//
// It does not override Transport::poll(event, now_us): ENet's timers (retransmission,
// timeouts) run on ENet's own clock, and so does the conditioner in front of it.
//
// Two shapes; a transport starts in the first and moves to the second, for good, the first
// time it is given conditions that impair anything (at construction or later). One bound to
// every address (0.0.0.0) of a machine with several addresses besides loopback starts in the
// second, with a perfect link: its replies must leave from the address each remote reached,
// which only the conditioner's socket can choose (IP_PKTINFO; ENet's socket calls cannot).
// Binding the address remotes dial keeps such a machine on the direct shape.
// - direct (what a game ships): the ENet host owns the public socket of the config, so a
//   datagram costs one system call each way. An ENet intercept counts each datagram in for
//   its connection's rates, and drops and counts hole-punch datagrams before ENet parses them.
// - conditioned: ENet sends from its own socket and offers no outbound hook, so a
//   ConditionedRelay sits in front of it: the relay takes over the public socket (the address
//   every remote already knows, with whatever is queued in it), ENet gets a new socket on an
//   internal loopback port, every remote is represented to ENet by a loopback pipe socket,
//   and every datagram in or out passes one of the pipe's two conditioners. ENet's peers are
//   re-pointed at their pipes, so connections open at the switch carry on through it.
#pragma once

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "shoal/transport.hpp"
#include "transport/conditioned_relay.hpp"
#include "transport/rate_window.hpp"

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

  /// On a direct transport, conditions that impair nothing change nothing; any others put the
  /// conditioner in front of ENet, for good (see the file comment).
  void set_conditions(const ConditionerConfig& config) override;
  /// Conditions towards one remote only (e.g. block every peer but a relay sharing the socket).
  /// Puts the conditioner in front of ENet, for good, whatever `config` says.
  void set_conditions_for(const Address& remote, const ConditionerConfig& config);
  /// A silence limit for one connection other than the config's timeout_ms.
  void set_timeout(ConnectionId connection, std::uint32_t timeout_ms);
  /// Opens our NAT's mapping towards `remote`: kPunchesPerCall punch datagrams from the public
  /// socket (transport/punch.hpp), unconditioned.
  void punch(const Address& remote);

  /// Moves to the conditioned shape now, with the current conditions, perfect or not (tools
  /// that measure what the conditioner costs); nothing when already there.
  void put_conditioner_in_front();
  /// Whether ENet owns the public socket (no conditioner in front of it).
  bool direct() const { return relay_ == nullptr; }
  /// The conditioner in front of ENet, for tests and tools that inspect what it did; null on
  /// a direct transport.
  const ConditionedRelay* conditioner() const { return relay_.get(); }

  struct Counters {
    std::uint64_t dropped_bad_channel = 0;  ///< received on a channel Shoal does not define
    std::uint64_t punches_sent = 0;         ///< punch datagrams sent, either shape
    std::uint64_t punches_received = 0;     ///< punch datagrams received (and dropped), either shape
    std::uint64_t datagrams_sent = 0;       ///< by ENet (to the pipes, when conditioned)
    std::uint64_t datagrams_received = 0;   ///< by ENet (from the pipes, when conditioned)
  };
  Counters counters() const;

 private:
  struct Connection {
    _ENetPeer* peer = nullptr;
    Endpoint remote;
    bool closing_locally = false;  ///< our disconnect: its completion is not a timeout
    RateWindow traffic;            ///< direct: what crossed the public socket for it
  };

  struct HostDeleter {
    void operator()(_ENetHost* host) const;
  };

  ConnectionId add_connection(_ENetPeer* peer, const Endpoint& remote);
  void remove_connection(ConnectionId connection);
  void configure_peer(_ENetPeer* peer, std::uint32_t timeout_ms) const;
  bool translate(const _ENetEvent& raw, TransportEvent& event);
  const Connection* find(ConnectionId connection) const;
  /// Returns whether any peer has a reliable command awaiting its ack.
  bool bound_retransmission_timers();
  /// After the last event of a poll, and after a flush: takes over ENet's datagram totals and
  /// (direct) closes the connections' rate windows that are due.
  void finish_pass();

  /// Moves to the conditioned shape (see the file comment).
  void put_conditioner_in_front(const ConditionerConfig& conditions);

  // The direct shape's accounting. ENet reports what it sends per host, not per peer, but it
  // stamps a peer's lastSendTime (which it never reads) when it sends to it: each call that
  // can send is bracketed, and its datagrams and bytes are shared among the peers it stamped.
  int service(_ENetEvent* event);  ///< enet_host_service, the intercept aimed at this transport
  void flush_host();               ///< enet_host_flush
  int serve_without_reading(_ENetEvent* event);  ///< ENet's queued events, else a flush
  void mark_before_sending();
  void share_what_was_sent();
  static int intercept(_ENetHost* host, _ENetEvent* event);

  TransportConfig config_;
  std::unique_ptr<_ENetHost, HostDeleter> host_;
  Endpoint public_endpoint_;
  std::unique_ptr<ConditionedRelay> relay_;
  std::unordered_map<ConnectionId, Connection> connections_;
  std::unordered_map<Endpoint, Connection*, EndpointHash> by_remote_;  ///< direct: counts datagrams in
  ConnectionId next_connection_ = 1;
  std::vector<ConnectionId> finished_without_event_;  ///< closed before ENet reported them
  std::vector<std::uint8_t> payload_;  ///< the last message; valid until the next poll
  bool socket_quiet_ = false;  ///< direct: the last wait() found nothing to read (for one poll)
  std::uint32_t send_mark_ = 0;  ///< the lastSendTime every peer had before the current call
  std::uint32_t sent_packets_mark_ = 0, sent_bytes_mark_ = 0;  ///< ENet's totals then
  Counters counters_;  ///< the transport's own (the relay keeps its punches once conditioned)
};

}  // namespace shoal::transport
