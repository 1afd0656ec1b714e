// SPDX-License-Identifier: MIT
// The hybrid transport: one direct ENet transport and one relay client side by side, and a
// connection (a "route") on top that uses whichever path works, direct preferred.
//
// The opener of a route drives it: it dials direct at once, opens a relay link when direct
// has not come up within direct_timeout_ms (or as soon as a direct path is lost), and redials
// direct every direct_retry_ms while it is without one. Each path starts with a hello carrying
// the route's tag, so the acceptor attaches it to the right route. A route's control messages
// go through its own ResumableStream: on every switch of path the unacked ones are sent again
// on the new path and the receiver drops what it already has.
//
// NAT traversal: the relay link shares the direct socket, so the public endpoint the relay
// reports for us is where direct packets to us must go; each hello carries it. While a route
// is on the relay, the opener's redials alternate between the address it was given and a
// hole punch: it asks the acceptor (over the relay) to punch, punches the acceptor's public
// endpoint itself, and when the acceptor answers that it has punched, punches once more and
// dials the acceptor's public endpoint. Both NATs then hold a mapping for the pair of public
// endpoints, and the dial (ENet retransmits it) passes both.
#pragma once

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "core/random.hpp"
#include "shoal/relay.hpp"
#include "transport/event_queue.hpp"
#include "transport/enet_transport.hpp"
#include "transport/hybrid_frames.hpp"
#include "transport/relay_client.hpp"
#include "transport/resumable_stream.hpp"

namespace shoal::transport {

class Hybrid final : public HybridTransport {
 public:
  explicit Hybrid(const HybridConfig& config);
  ~Hybrid() override;
  Hybrid(const Hybrid&) = delete;
  Hybrid& operator=(const Hybrid&) = delete;

  ConnectionId connect(const Address& remote) override;
  void disconnect(ConnectionId connection) override;
  bool send(ConnectionId connection, Channel channel, std::span<const std::uint8_t> bytes) override;
  /// Reads the steady clock: poll(event, now).
  bool poll(TransportEvent& event) override;
  /// Runs the timers (dials, relay links, hellos, acks, resends, expiry) at `now_us`.
  bool poll(TransportEvent& event, std::int64_t now_us) override;
  void flush() override;
  void wait(int timeout_ms) override;
  LinkStats stats(ConnectionId connection) const override;
  Address local_address() const override;
  Address remote_address(ConnectionId connection) const override;
  std::size_t max_message_size() const override;
  void set_conditions(const ConditionerConfig& config) override;
  Path path(ConnectionId connection) const override;
  RelayStatus relay_status() const override { return relay_->status(); }

  /// The direct side (whose socket the relay link shares), so tests can block or open the
  /// direct path and read its punch counters.
  EnetTransport& direct_transport() { return *direct_; }

  struct Counters {
    std::uint64_t dropped_bad_frame = 0;  ///< undecodable, or not allowed where it came
    std::uint64_t dropped_unbound = 0;    ///< on a path no hello has attached to a route
    std::uint64_t duplicates = 0;         ///< control messages seen twice (resent on a switch)
    std::uint64_t gaps = 0;               ///< control messages past a gap (come again)
    std::uint64_t resends = 0;            ///< control messages sent again
    std::uint64_t path_switches = 0;      ///< a route moved to another path (or back to one)
    std::uint64_t punch_rounds = 0;       ///< hole punches taken part in (asked for or answered)
  };
  const Counters& counters() const { return counters_; }

 private:
  enum Side : std::uint8_t { kDirect = 0, kRelay = 1 };
  struct PathState {
    ConnectionId id = kNoConnection;  ///< on the direct transport or the relay client
    bool connected = false;           ///< the underlying connection is up
    bool hello_sent = false;
    bool ready = false;               ///< hellos exchanged: usable
    std::int64_t started_us = 0;
  };
  struct Route {
    bool opener = false;
    bool open = false;  ///< `connected` reported
    bool timers_pending = false;  ///< connect()ed since the last poll: its timers start at the next
    std::uint64_t tag = 0;
    Address remote_direct;       ///< where the remote's direct socket is
    Endpoint remote_public;      ///< the remote's socket as the relay sees it; port 0: unknown
    std::uint16_t remote_slot = 0;
    PathState paths[2];
    Path active = Path::none;
    Path last_path = Path::none;  ///< the last path used, across a gap without any
    std::int64_t pathless_since_us = 0;  ///< -1 while a path is ready
    std::int64_t next_direct_us = 0;     ///< opener: when to dial direct next
    std::int64_t relay_after_us = 0;     ///< opener: open a relay link from then on
    std::int64_t punch_asked_us = -1;    ///< opener: a punch request is out since then
    bool punch_next = true;              ///< opener: the next redial punches (else: the given address)
    std::int64_t progress_us = 0;        ///< last ack progress or (re)transmission
    std::int64_t ack_sent_us = -1;
    bool ack_due = false;
    ResumableStream stream;
  };
  struct Unbound {
    std::int64_t since_us = 0;
  };
  Transport& side(Side s) const { return s == kDirect ? static_cast<Transport&>(*direct_) : *relay_; }
  void on_event(Side s, const TransportEvent& event, std::int64_t now);
  void on_frame(Side s, ConnectionId underlying, Channel channel, std::span<const std::uint8_t> bytes,
                std::int64_t now);
  void on_hello(Side s, ConnectionId underlying, const HybridHello& hello, std::int64_t now);
  void on_punch(ConnectionId route_id, Route& route, bool answer, std::int64_t now);
  void dial_direct(ConnectionId route_id, Route& route, const Address& remote, std::int64_t now);
  void punch(Route& route);
  void on_path_lost(Side s, ConnectionId underlying, std::int64_t now);
  void attach(ConnectionId route_id, Route& route, Side s, ConnectionId underlying, std::int64_t now);
  void drop_path(Route& route, Side s, bool close_underlying);
  void service(std::int64_t now);
  void start_opener(Route& route, std::int64_t now);
  void drive_opener(ConnectionId id, Route& route, std::int64_t now);
  void update_active(Route& route, std::int64_t now);
  void send_hello(Route& route, Side s, bool answer);
  bool may_send_hello(std::int64_t now) const;
  void transmit(const Route& route, Channel channel);  ///< frame_ on the active path
  void send_sequenced(const Route& route, const ResumableStream::Pending& message);
  void end_route(ConnectionId id, TransportEventKind kind);
  ConnectionId route_of(Side s, ConnectionId underlying) const;
  HybridHello own_hello(const Route& route, bool answer) const;

  HybridConfig config_;
  std::unique_ptr<EnetTransport> direct_;
  std::unique_ptr<RelayClient> relay_;
  std::int64_t created_us_ = -1;  ///< the first poll's time (the hellos' wait for the relay counts from it)
  std::int64_t now_us_ = 0;  ///< the latest poll's time: send() stamps with it (it needs an open route, so a poll came first)
  std::unordered_map<ConnectionId, Route> routes_;
  std::unordered_map<ConnectionId, ConnectionId> bound_[2];  ///< underlying -> route
  std::unordered_map<ConnectionId, Unbound> unbound_[2];    ///< incoming, before their hello
  ConnectionId next_route_ = 1;
  EventQueue events_;
  std::vector<std::uint8_t> frame_;    ///< one frame being built
  core::Random random_;
  Counters counters_;
};

}  // namespace shoal::transport
