// SPDX-License-Identifier: MIT
// The transport: connections to other peers and byte messages on purpose-built channels.
// Knows peers and bytes, not objects. Two implementations: ENet over UDP (make_enet_transport)
// and an in-process network whose delivery a test controls (shoal/memory_network.hpp).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "shoal/drop_reason.hpp"
#include "shoal/link_conditions.hpp"
#include "shoal/security_config.hpp"

namespace shoal {

/// Channels by purpose.
enum class Channel : std::uint8_t {
  control = 0,  ///< reliable, ordered: membership, ownership, checksums
  state = 1,    ///< unreliable, sequenced (stale packets dropped): snapshots
  time = 2,     ///< unreliable, unsequenced: time-sync pings
};
inline constexpr int kChannelCount = 3;

/// A transport-level connection handle; never reused within one transport's lifetime.
using ConnectionId = std::uint32_t;
inline constexpr ConnectionId kNoConnection = 0;

/// Where a transport listens or connects: a host name or numeric IPv4 address and a UDP port.
struct Address {
  std::string host = "127.0.0.1";  ///< numeric IPv4 address or host name
  std::uint16_t port = 0;  ///< UDP port; 0 = any free one when binding

  bool operator==(const Address&) const = default;  ///< compares host and port
};
std::string to_string(const Address& address);

/// Per-connection statistics, smoothed over roughly the last second.
struct LinkStats {
  float rtt_ms = 0;  ///< round-trip time
  float rtt_variance_ms = 0;  ///< its variation
  float packet_loss = 0;  ///< fraction of reliable packets lost, 0..1
  float packets_out_per_s = 0;  ///< datagrams sent per second
  float packets_in_per_s = 0;  ///< datagrams received per second
  float bytes_out_per_s = 0;  ///< UDP payload bytes, transport headers included
  float bytes_in_per_s = 0;  ///< UDP payload bytes received per second
};

enum class TransportEventKind : std::uint8_t { connected, disconnected, timed_out, message };

/// What Transport::poll reports: a connection up or down, or a message on it.
struct TransportEvent {
  TransportEventKind kind = TransportEventKind::message;  ///< what happened
  ConnectionId connection = kNoConnection;  ///< on which connection
  Channel channel = Channel::control;  ///< message only: the channel it came on
  std::span<const std::uint8_t> payload;  ///< valid until the next call to poll()
};

/// Connections to other peers and byte messages on the three channels: what Peer needs from a
/// network (ENet, the relay, a hybrid of both, or an in-process network).
class Transport {
 public:
  virtual ~Transport() = default;

  /// Starts connecting; a `connected` (or `timed_out`) event follows.
  virtual ConnectionId connect(const Address& remote) = 0;
  /// Starts a graceful disconnect; a `disconnected` event follows.
  virtual void disconnect(ConnectionId connection) = 0;
  /// Queues a message. Returns false (and sends nothing) for an unknown connection or a
  /// message larger than max_message_size().
  virtual bool send(ConnectionId connection, Channel channel,
                    std::span<const std::uint8_t> bytes) = 0;
  /// Sends queued messages and takes the next event, if any, without blocking. A transport
  /// with timers (resends, acks, handshake deadlines) reads the steady clock for them here.
  virtual bool poll(TransportEvent& event) = 0;
  /// The same at the caller's time: `now_us` is the caller's steady clock in microseconds (any
  /// monotonic clock, the same on every call). Transports with timers use it instead of reading
  /// the clock, so that a test can drive them with a fake time; Peer calls this one with its
  /// update's time. The relay and hybrid transports read no clock in connect() and send(): a
  /// new connection's timers start at the next poll's time, a message's resend timer at the
  /// latest one. The default ignores the time and calls poll(event): a transport without timers
  /// of its own need not override it.
  virtual bool poll(TransportEvent& event, std::int64_t now_us) {
    (void)now_us;
    return poll(event);
  }
  /// Sends queued messages now, taking no event. Peer calls it at the end of every update, so
  /// that what an update sent leaves at once rather than at the next update's poll (a render
  /// frame later). A transport whose send() already sends need not override it.
  virtual void flush() {}
  /// Blocks up to timeout_ms for network activity (or a conditioner release), then returns.
  virtual void wait(int timeout_ms) = 0;

  virtual LinkStats stats(ConnectionId connection) const = 0;  ///< the connection's round trip, loss and rates
  virtual Address local_address() const = 0;  ///< where this transport listens
  virtual Address remote_address(ConnectionId connection) const = 0;  ///< where the connection's other end is
  virtual std::size_t max_message_size() const = 0;  ///< the largest message send() accepts

  /// Changes the simulated network at run time (every connection, both directions). Any
  /// transport takes conditions at any time, also one made without them: an ENet transport
  /// then puts its conditioner in front of ENet, for good (see TransportConfig::conditioner),
  /// and its open connections carry on through it.
  virtual void set_conditions(const ConditionerConfig& config) = 0;

  /// What the transport itself dropped before any message reached its caller (forged,
  /// replayed, without a valid join token...), by reason. Peer adds it to PeerStats::dropped.
  virtual DropCounters drops() const { return {}; }
};

/// How an ENet transport binds and behaves (make_enet_transport).
struct TransportConfig {
  std::string bind_host = "127.0.0.1";  ///< the local address to bind
  std::uint16_t port = 0;  ///< 0 = any free port
  std::size_t max_connections = 64;  ///< connections accepted at once
  std::uint32_t timeout_ms = 5000;  ///< silence after which a connection times out
  /// The simulated network (loss, latency...), none by default. Without conditions (what a
  /// game ships) ENet sends and receives on the public socket itself: one system call per
  /// datagram each way. The conditioner is a proxy in front of ENet, on loopback: each datagram
  /// then costs about three system calls and a copy each way. It comes in with the first
  /// conditions that impair anything, here or by set_conditions later, and stays (a perfect
  /// link set afterwards goes on through it). A transport bound to 0.0.0.0 on a machine with
  /// several addresses besides loopback has it from the start, with a perfect link: only its
  /// socket can make a reply leave from the address the remote reached (Linux; bind the
  /// dialled address instead to keep the direct path).
  ConditionerConfig conditioner;
  /// Encryption and join tokens (shoal/security.hpp): on by default, so credentials are needed.
  SecurityConfig security;
};

/// Creates an ENet transport bound to config.bind_host:config.port, whose links are secured
/// (config.security) unless that is disabled.
/// Throws std::invalid_argument for a bad config (security on without credentials too) and std::runtime_error when the port
/// cannot be bound, with a message that says which.
std::unique_ptr<Transport> make_enet_transport(const TransportConfig& config);

}  // namespace shoal
