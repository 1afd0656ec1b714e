// SPDX-License-Identifier: MIT
// The relay client: a Transport whose connections are virtual links through shoal-relay.
// One ENet connection to the relay carries every link, on the same three channels, so each
// link keeps the channel guarantees hop by hop; a ResumableStream per link keeps the control
// channel reliable, ordered and exactly-once end to end across a relay restart.
//
// Lifecycle of the relay connection: connect -> join (asking for our old slot after a loss, with
// a fresh key of this connection) -> joined (with the relay's key): from then on every message
// of the hop is sealed with the keys the two agreed (RELAY_SPEC.md, section 1), and one that
// does not open is dropped and counted (drops(): forged, replayed). On loss, links wait (up to
// resume_timeout_ms) and the client reconnects, with new keys.
//
// The client either owns its ENet transport or shares one with its owner (the hybrid
// transport), so relay and direct traffic leave one socket and the public endpoint the relay
// reports is the one direct peers see. A shared transport is polled by its owner, which hands
// the client the events of its relay connection (carries_event / on_shared_event).
#pragma once

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/random.hpp"
#include "security/envelope.hpp"
#include "security/key_exchange.hpp"
#include "shoal/relay.hpp"
#include "transport/event_queue.hpp"
#include "transport/enet_transport.hpp"
#include "transport/relay_protocol.hpp"
#include "transport/resumable_stream.hpp"

namespace shoal::transport {

class RelayClient final : public RelayTransport {
 public:
  /// With its own ENet transport on config.local.
  explicit RelayClient(const RelayClientConfig& config);
  /// On `shared`, which must outlive the client; config.local is then unused.
  RelayClient(const RelayClientConfig& config, EnetTransport& shared);
  /// On any transport to the relay, owned (the fuzz target scripts one); config.local and
  /// relay_timeout_ms are then unused.
  RelayClient(const RelayClientConfig& config, std::unique_ptr<Transport> inner);
  /// Closes every link and leaves the relay (best effort).
  ~RelayClient() override;
  RelayClient(const RelayClient&) = delete;
  RelayClient& operator=(const RelayClient&) = delete;

  ConnectionId connect(const Address& remote) override;
  void disconnect(ConnectionId connection) override;
  bool send(ConnectionId connection, Channel channel, std::span<const std::uint8_t> bytes) override;
  /// Reads the steady clock: poll(event, now).
  bool poll(TransportEvent& event) override;
  /// Runs the timers (open retries, acks, resends, resume deadlines) at `now_us`.
  bool poll(TransportEvent& event, std::int64_t now_us) override;
  void wait(int timeout_ms) override;
  LinkStats stats(ConnectionId connection) const override;
  Address local_address() const override;
  Address remote_address(ConnectionId connection) const override;
  std::size_t max_message_size() const override;
  void set_conditions(const ConditionerConfig& config) override;
  RelayStatus status() const override { return status_; }
  /// Frames from the path that the hop's keys did not open (forged, replayed), or that came in
  /// the clear where they must be sealed (forged).
  DropCounters drops() const override { return drops_; }
  /// The tag that names a link in the clients' link protocol (RELAY_SPEC.md, section 2), 0 for
  /// an unknown connection. Sealed on the hop since version 3; tests forge frames with it.
  std::uint32_t link_tag(ConnectionId connection) const;

  /// Shared transport: whether `event` (polled from it) belongs to the relay connection...
  bool carries_event(const TransportEvent& event) const {
    return event.connection != kNoConnection && event.connection == relay_connection_;
  }
  /// ...and if so, the owner hands it over here, at the time of its poll.
  void on_shared_event(const TransportEvent& event, std::int64_t now_us);
  /// Where the relay sees our socket (behind NAT: the NAT's mapping); port 0 until joined.
  const Endpoint& public_endpoint() const { return public_endpoint_; }

  struct Counters {
    std::uint64_t dropped_bad_relay_message = 0;  ///< undecodable or unexpected from the relay
    std::uint64_t dropped_bad_link_message = 0;   ///< undecodable link protocol from a member
    std::uint64_t dropped_unknown_link = 0;       ///< for a link we do not have
    std::uint64_t duplicates = 0;                 ///< control messages seen twice (resends)
    std::uint64_t gaps = 0;                       ///< control messages past a gap (resent later)
    std::uint64_t resends = 0;                    ///< control messages sent again
  };
  const Counters& counters() const { return counters_; }

 private:
  enum class RelayState : std::uint8_t { idle, connecting, joining, joined, refused };
  struct Link {
    Slot remote = kNoSlot;
    std::uint32_t tag = 0;
    bool open = false;       ///< accepted (opener) or opened by the remote
    bool timers_pending = false;  ///< connect()ed since the last poll: its timers start at the next
    std::int64_t created_us = 0;
    std::int64_t open_sent_us = -1;
    std::int64_t absent_since_us = -1;  ///< relay lost or remote not in the session
    std::int64_t progress_us = 0;       ///< last ack progress or (re)transmission
    std::int64_t ack_sent_us = -1;
    bool ack_due = false;
    ResumableStream stream;
    // Rate window, as in LinkStats.
    std::int64_t window_start_us = -1;
    std::uint64_t packets_out = 0, packets_in = 0, bytes_out = 0, bytes_in = 0;
    LinkStats rates;
  };
  void service(std::int64_t now_us);
  void on_inner_event(const TransportEvent& event, std::int64_t now_us);
  void on_relay_message(Channel channel, std::span<const std::uint8_t> bytes, std::int64_t now_us);
  /// A message that came sealed with the hop's keys.
  void on_sealed(Channel channel, std::span<const std::uint8_t> envelope, std::int64_t now_us);
  /// To the relay: sealed once joined, in the clear before (join).
  void send_relay(Channel channel, std::span<const std::uint8_t> message);
  void on_link_message(Slot from, Channel channel, std::span<const std::uint8_t> bytes, std::int64_t now_us);
  void on_joined(const JoinedMessage& joined, std::int64_t now_us);
  /// Gives up: the relay speaks another protocol version; the error names both.
  void refuse_for_version(std::uint8_t relay_version, std::uint8_t client_version);
  void on_relay_lost(std::int64_t now_us);
  void set_present(Slot slot, bool present, std::int64_t now_us);
  void resume(Link& link, std::int64_t now_us);
  bool can_reach(const Link& link) const;
  void transmit(const Link& link, Channel channel);  ///< link_buf_ -> forward to link.remote
  void send_open(Link& link, std::int64_t now_us);
  void send_data(Link& link, const ResumableStream::Pending& message);
  void end_link(ConnectionId id, TransportEventKind kind);
  ConnectionId find_link(Slot remote, std::uint32_t tag) const;
  void count(Link& link, bool out, std::size_t bytes, std::int64_t now_us);

  RelayClientConfig config_;
  std::unique_ptr<Transport> owned_inner_;  ///< null when sharing the owner's
  Transport* inner_ = nullptr;
  EnetTransport* enet_ = nullptr;  ///< inner_, when it is ENet's (the relay's timeout is set on it)
  ConnectionId relay_connection_ = kNoConnection;
  RelayState state_ = RelayState::idle;
  std::int64_t relay_lost_us_ = -1;
  std::int64_t next_attempt_us_ = 0;  ///< no reconnection before this
  std::int64_t now_us_ = 0;  ///< the latest poll's time: send() stamps with it (it needs an open link, so a poll came first)
  RelayStatus status_;
  Endpoint public_endpoint_;
  std::unordered_set<Slot> members_;
  std::unordered_map<ConnectionId, Link> links_;
  ConnectionId next_connection_ = 1;
  EventQueue events_;
  std::vector<std::uint8_t> link_buf_;  ///< one link message being built
  std::vector<std::uint8_t> out_;       ///< one relay message being built
  std::vector<std::uint8_t> envelope_;  ///< one relay message sealed
  std::vector<std::uint8_t> sealed_;    ///< and with its header
  std::vector<std::uint8_t> opened_;    ///< the last sealed message opened
  std::unique_ptr<security::KeyExchange> exchange_;  ///< this connection's key pair, until joined
  std::unique_ptr<security::Envelope> hop_;          ///< the hop's keys, once joined
  core::Random random_;
  Counters counters_;
  DropCounters drops_;
};

}  // namespace shoal::transport
