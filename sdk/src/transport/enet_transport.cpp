// SPDX-License-Identifier: MIT
#include "transport/enet_transport.hpp"

#include <enet/enet.h>

#include <algorithm>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

#include "core/steady_now.hpp"
#include "shoal/security.hpp"
#include "transport/platform/interfaces.hpp"
#include "transport/punch.hpp"

namespace shoal {

std::unique_ptr<Transport> make_enet_transport(const TransportConfig& config) {
  return make_secure_transport(std::make_unique<transport::EnetTransport>(config), config.security);
}

namespace transport {
namespace {

// Disconnect data that marks a goodbye; ENet reports a timeout with data 0.
constexpr enet_uint32 kGoodbye = 0x5348;  // "SH"
constexpr std::size_t kMaxMessageSize = 64 * 1024;
constexpr Endpoint kLoopback{0x7F000001, 0};
constexpr enet_uint32 kMinRetransmitCapMs = 100;
constexpr enet_uint32 kMaxRetransmitCapMs = 1000;
constexpr enet_uint32 kUnmeasuredRetransmitMs = 100;

void initialise_enet_once() {
  static std::once_flag once;
  std::call_once(once, [] {
    if (enet_initialize() != 0) throw std::runtime_error("ENet failed to initialise");
  });
}

enet_uint32 packet_flags(Channel channel) {
  switch (channel) {
    case Channel::control: return ENET_PACKET_FLAG_RELIABLE;
    case Channel::state: return 0;  // unreliable, sequenced per channel: stale ones dropped
    case Channel::time: return ENET_PACKET_FLAG_UNSEQUENCED;
  }
  return ENET_PACKET_FLAG_RELIABLE;
}

Endpoint from_enet(const ENetAddress& address) { return {ENET_NET_TO_HOST_32(address.host), address.port}; }

ENetAddress to_enet(const Endpoint& endpoint) {
  ENetAddress address{};
  address.host = ENET_HOST_TO_NET_32(endpoint.ipv4);
  address.port = endpoint.port;
  return address;
}

bool impairs(const ConditionerConfig& conditions) {
  return conditions.outbound != LinkConditions{} || conditions.inbound != LinkConditions{};
}

/// Makes `socket` (bound, non-blocking) the host's, with the buffer sizes ENet gives its own.
void give_to_enet(ENetHost& host, platform::SocketHandle socket) {
  host.socket = static_cast<ENetSocket>(socket);
  enet_socket_set_option(host.socket, ENET_SOCKOPT_RCVBUF, ENET_HOST_RECEIVE_BUFFER_SIZE);
  enet_socket_set_option(host.socket, ENET_SOCKOPT_SNDBUF, ENET_HOST_SEND_BUFFER_SIZE);
}

/// Whether replies from a socket bound to `local` must be told which address to leave from:
/// bound to every address of a machine with more than one besides loopback, a reply must leave
/// from the address the remote reached (a NAT in front of the remote matches nothing else),
/// which the routing's choice need not be. ENet's socket calls cannot choose; the conditioner's
/// socket can (packet_info), where the platform offers it.
bool replies_need_their_address(const Endpoint& local) {
  if (local.ipv4 != 0 || !platform::has_packet_info()) return false;
  std::size_t addresses = 0;
  for (const platform::Ipv4Interface& i : platform::ipv4_interfaces()) addresses += (i.address >> 24) != 127 ? 1 : 0;
  return addresses > 1;
}

// The transport whose enet_host_service is running on this thread: the intercept's target
// (ENet's host has no user data of its own).
thread_local EnetTransport* servicing = nullptr;

void validate(const TransportConfig& config) {
  if (config.max_connections == 0 || config.max_connections > ENET_PROTOCOL_MAXIMUM_PEER_ID) {
    throw std::invalid_argument(fmt::format("max_connections is {}: expected 1..{}",
                                            config.max_connections, ENET_PROTOCOL_MAXIMUM_PEER_ID));
  }
  if (config.timeout_ms == 0) {
    throw std::invalid_argument("timeout_ms is 0: expected a positive silence limit in ms");
  }
}

}  // namespace

void EnetTransport::HostDeleter::operator()(_ENetHost* host) const { enet_host_destroy(host); }

EnetTransport::EnetTransport(const TransportConfig& config) : config_(config) {
  validate(config);
  const Endpoint public_bind = resolve({config.bind_host, config.port});
  initialise_enet_once();
  const platform::SocketHandle public_socket = bind_udp_socket(public_bind);  // says why it cannot
  // Without an address ENet binds nothing; its socket is then replaced by the public one.
  host_.reset(enet_host_create(nullptr, config.max_connections, kChannelCount, 0, 0));
  if (!host_) {
    platform::close_socket(public_socket);
    throw std::runtime_error("cannot create the ENet host");
  }
  enet_socket_destroy(host_->socket);
  give_to_enet(*host_, public_socket);
  public_endpoint_ = platform::local_endpoint(public_socket);
  host_->intercept = &EnetTransport::intercept;
  if (impairs(config.conditioner) || replies_need_their_address(public_endpoint_)) {
    put_conditioner_in_front(config.conditioner);
  }
}

EnetTransport::~EnetTransport() {
  for (auto& [id, connection] : connections_) {
    if (connection.peer->state == ENET_PEER_STATE_CONNECTED) {
      enet_peer_disconnect_now(connection.peer, kGoodbye);
    }
  }
  if (relay_) relay_->pump();
}

void EnetTransport::put_conditioner_in_front() {
  if (!relay_) put_conditioner_in_front(config_.conditioner);
}

void EnetTransport::put_conditioner_in_front(const ConditionerConfig& conditions) {
  // ENet's next socket first: if it cannot be had, nothing has changed.
  const platform::SocketHandle inner = bind_udp_socket(kLoopback);
  UdpSocket public_socket(static_cast<platform::SocketHandle>(host_->socket));
  give_to_enet(*host_, inner);

  RelayConfig relay;
  relay.public_bind = public_endpoint_;
  relay.inner = platform::local_endpoint(inner);
  relay.pipe_bind = kLoopback;
  // An incoming peer can open a pipe before it counts as a connection; allow some slack.
  relay.max_pipes = config_.max_connections * 2;
  relay.conditions = conditions;
  relay_ = std::make_unique<ConditionedRelay>(relay, std::move(public_socket));

  // Every ENet peer, in the handshake too, now reaches its remote through that remote's pipe
  // (opened in peer order: the order gives each pipe's conditioners their seeds).
  for (std::size_t i = 0; i < host_->peerCount; ++i) {
    ENetPeer* peer = &host_->peers[i];
    if (peer->state == ENET_PEER_STATE_DISCONNECTED) continue;
    const std::optional<Endpoint> pipe = relay_->pipe_for(from_enet(peer->address));
    if (pipe) {
      peer->address = to_enet(*pipe);
    } else {
      enet_peer_reset(peer);  // beyond max_pipes: cannot happen with max_connections peers
    }
  }
  host_->intercept = nullptr;  // the relay counts and drops punches now
  by_remote_.clear();
}

void EnetTransport::configure_peer(_ENetPeer* peer, std::uint32_t timeout_ms) const {
  enet_peer_timeout(peer, 0, timeout_ms, timeout_ms);
  // ENet notices silence only while something reliable is unacknowledged; ping often enough
  // that a short timeout is honoured.
  enet_peer_ping_interval(peer, std::clamp<enet_uint32>(timeout_ms / 4, 10,
                                                        ENET_PEER_PING_INTERVAL));
}

ConnectionId EnetTransport::add_connection(_ENetPeer* peer, const Endpoint& remote) {
  const ConnectionId id = next_connection_++;
  Connection& connection = connections_.emplace(id, Connection{peer, remote, false, {}}).first->second;
  if (direct()) by_remote_[remote] = &connection;
  peer->data = reinterpret_cast<void*>(static_cast<std::uintptr_t>(id));
  configure_peer(peer, config_.timeout_ms);
  return id;
}

void EnetTransport::remove_connection(ConnectionId connection) {
  const auto found = connections_.find(connection);
  if (found == connections_.end()) return;
  found->second.peer->data = nullptr;
  const auto counted = by_remote_.find(found->second.remote);
  if (counted != by_remote_.end() && counted->second == &found->second) by_remote_.erase(counted);
  connections_.erase(found);
}

const EnetTransport::Connection* EnetTransport::find(ConnectionId connection) const {
  const auto found = connections_.find(connection);
  return found == connections_.end() ? nullptr : &found->second;
}

ConnectionId EnetTransport::connect(const Address& remote) {
  const Endpoint endpoint = resolve(remote);
  std::optional<Endpoint> via = endpoint;
  if (relay_) via = relay_->pipe_for(endpoint);
  if (!via) return kNoConnection;
  const ENetAddress address = to_enet(*via);
  ENetPeer* peer = enet_host_connect(host_.get(), &address, kChannelCount, 0);
  if (peer == nullptr) return kNoConnection;
  return add_connection(peer, endpoint);
}

void EnetTransport::disconnect(ConnectionId connection) {
  const auto found = connections_.find(connection);
  if (found == connections_.end() || found->second.closing_locally) return;
  found->second.closing_locally = true;
  ENetPeer* peer = found->second.peer;
  enet_peer_disconnect(peer, kGoodbye);
  // ENet resets a peer that was still connecting without any event: report it ourselves.
  if (peer->state == ENET_PEER_STATE_DISCONNECTED) {
    remove_connection(connection);
    finished_without_event_.push_back(connection);
  }
}

bool EnetTransport::send(ConnectionId connection, Channel channel,
                         std::span<const std::uint8_t> bytes) {
  const Connection* found = find(connection);
  if (found == nullptr || bytes.size() > kMaxMessageSize ||
      static_cast<int>(channel) >= kChannelCount || found->peer->state != ENET_PEER_STATE_CONNECTED) {
    return false;
  }
  ENetPacket* packet = enet_packet_create(bytes.data(), bytes.size(), packet_flags(channel));
  if (packet == nullptr) return false;
  if (enet_peer_send(found->peer, static_cast<enet_uint8>(channel), packet) != 0) {
    enet_packet_destroy(packet);
    return false;
  }
  return true;
}

bool EnetTransport::translate(const ENetEvent& raw, TransportEvent& event) {
  const auto id = static_cast<ConnectionId>(reinterpret_cast<std::uintptr_t>(raw.peer->data));
  switch (raw.type) {
    case ENET_EVENT_TYPE_CONNECT: {
      event = {};
      event.kind = TransportEventKind::connected;
      if (id != kNoConnection) {
        event.connection = id;
        return true;
      }
      const Endpoint from = from_enet(raw.peer->address);
      const auto remote = relay_ ? relay_->remote_behind(from) : std::optional<Endpoint>(from);
      if (!remote) {  // conditioned, not through a pipe: nothing outside the relay may reach ENet
        enet_peer_reset(raw.peer);
        return false;
      }
      event.connection = add_connection(raw.peer, *remote);
      return true;
    }
    case ENET_EVENT_TYPE_DISCONNECT: {
      const auto found = connections_.find(id);
      if (found == connections_.end()) return false;  // a handshake that never completed
      event = {};
      event.kind = (found->second.closing_locally || raw.data == kGoodbye)
                       ? TransportEventKind::disconnected
                       : TransportEventKind::timed_out;
      event.connection = id;
      remove_connection(id);
      return true;
    }
    case ENET_EVENT_TYPE_RECEIVE: {
      const bool known_channel = raw.channelID < kChannelCount;
      if (known_channel) payload_.assign(raw.packet->data, raw.packet->data + raw.packet->dataLength);
      enet_packet_destroy(raw.packet);
      if (!known_channel || id == kNoConnection) {
        ++counters_.dropped_bad_channel;
        return false;
      }
      event = {};
      event.kind = TransportEventKind::message;
      event.connection = id;
      event.channel = static_cast<Channel>(raw.channelID);
      event.payload = payload_;
      return true;
    }
    case ENET_EVENT_TYPE_NONE: break;
  }
  return false;
}

bool EnetTransport::poll(TransportEvent& event) {
  if (!finished_without_event_.empty()) {
    event = {};
    event.kind = TransportEventKind::disconnected;
    event.connection = finished_without_event_.back();
    finished_without_event_.pop_back();
    return true;
  }
  if (relay_) relay_->pump();
  // When wait() has just found ENet's socket empty, a read would only find it empty again:
  // unless a reliable command awaits its ack (ENet resends and notices silence only in a full
  // service), this pass sends what is queued and hands out the events ENet holds, unread.
  const bool quiet = std::exchange(socket_quiet_, false);
  // Each ENet event is consumed; the loop ends when ENet has none left.
  for (;;) {
    const bool awaiting_acks = bound_retransmission_timers();
    ENetEvent raw{};
    const int result = quiet && !awaiting_acks ? serve_without_reading(&raw) : service(&raw);
    if (relay_) relay_->pump();  // what ENet just sent leaves (or enters its conditioner) now
    if (result <= 0) {
      finish_pass();
      return false;
    }
    if (translate(raw, event)) return true;
  }
}

void EnetTransport::flush() {
  flush_host();
  if (relay_) relay_->pump();  // what ENet just sent leaves (or enters its conditioner) now
  finish_pass();
}

int EnetTransport::service(ENetEvent* event) {
  if (!direct()) return enet_host_service(host_.get(), event, 0);
  mark_before_sending();
  servicing = this;
  const int result = enet_host_service(host_.get(), event, 0);
  servicing = nullptr;
  share_what_was_sent();
  return result;
}

int EnetTransport::serve_without_reading(ENetEvent* event) {
  const int queued = enet_host_check_events(host_.get(), event);
  if (queued != 0) return queued;
  flush_host();
  return 0;
}

void EnetTransport::flush_host() {
  if (!direct()) return enet_host_flush(host_.get());
  mark_before_sending();
  enet_host_flush(host_.get());
  share_what_was_sent();
}

void EnetTransport::mark_before_sending() {
  // ENet stamps a peer it sends to with its service time, which is never earlier than now.
  send_mark_ = enet_time_get() - 1;
  for (std::size_t i = 0; i < host_->peerCount; ++i) host_->peers[i].lastSendTime = send_mark_;
  sent_packets_mark_ = host_->totalSentPackets;
  sent_bytes_mark_ = host_->totalSentData;
}

void EnetTransport::share_what_was_sent() {
  const std::uint32_t packets = host_->totalSentPackets - sent_packets_mark_;
  if (packets == 0) return;
  const std::uint32_t bytes = host_->totalSentData - sent_bytes_mark_;
  std::size_t stamped = 0;
  for (std::size_t i = 0; i < host_->peerCount; ++i) stamped += host_->peers[i].lastSendTime != send_mark_ ? 1 : 0;
  if (stamped == 0) return;
  // Usually one datagram per peer per call; a peer with more than one datagram's worth queued
  // gets more, and the shares are then estimates.
  const double share = 1.0 / static_cast<double>(stamped);
  for (std::size_t i = 0; i < host_->peerCount; ++i) {
    const ENetPeer& peer = host_->peers[i];
    if (peer.lastSendTime == send_mark_ || peer.data == nullptr) continue;
    const auto found = connections_.find(static_cast<ConnectionId>(reinterpret_cast<std::uintptr_t>(peer.data)));
    if (found == connections_.end()) continue;
    found->second.traffic.sent(packets * share, bytes * share);
  }
}

int EnetTransport::intercept(ENetHost* host, ENetEvent*) {
  EnetTransport* self = servicing;
  if (self == nullptr) return 0;
  const std::span<const std::uint8_t> datagram(host->receivedData, host->receivedDataLength);
  if (is_punch(datagram)) {
    ++self->counters_.punches_received;
    --host->totalReceivedPackets;  // ENet's totals count what ENet handles
    host->totalReceivedData -= static_cast<enet_uint32>(datagram.size());
    return 1;  // consumed: ENet never parses it
  }
  if (const auto found = self->by_remote_.find(from_enet(host->receivedAddress)); found != self->by_remote_.end()) {
    found->second->traffic.received(static_cast<double>(datagram.size()));
  }
  return 0;
}

void EnetTransport::finish_pass() {
  // ENet's totals are 32 bits: taken over before they can wrap.
  counters_.datagrams_sent += host_->totalSentPackets;
  counters_.datagrams_received += host_->totalReceivedPackets;
  host_->totalSentPackets = host_->totalReceivedPackets = 0;
  host_->totalSentData = host_->totalReceivedData = 0;
  if (!direct()) return;  // the relay keeps the rates
  const std::int64_t now_us = core::steady_now_us();
  for (auto& [id, connection] : connections_) connection.traffic.update(now_us);
}

EnetTransport::Counters EnetTransport::counters() const {
  Counters counters = counters_;
  counters.datagrams_sent += host_->totalSentPackets;
  counters.datagrams_received += host_->totalReceivedPackets;
  if (relay_) {
    counters.punches_sent += relay_->counters().punches_sent;
    counters.punches_received += relay_->counters().punches_received;
  }
  return counters;
}

void EnetTransport::punch(const Address& remote) {
  const Endpoint endpoint = resolve(remote);
  if (relay_) return relay_->punch(endpoint);
  for (std::size_t i = 0; i < kPunchesPerCall; ++i) {
    (void)platform::send_to(static_cast<platform::SocketHandle>(host_->socket), endpoint,
                            punch_datagram(counters_.punches_sent));
    ++counters_.punches_sent;
  }
}

bool EnetTransport::bound_retransmission_timers() {
  // ENet 1.3.17 doubles a reliable command's retransmission timeout on every loss, without
  // limit, and only looks for due commands once the *oldest* one in flight is due. Under
  // heavy loss (30%) that stalls an ordered channel for many seconds behind one unlucky
  // command. We cap each timeout at a round trip plus two deviations (a resend as soon as an
  // ack is overdue, without the doubling) and let every command be checked on each service.
  // Shoal's reliable messages are few and small, and loss on a game's path is seldom
  // congestion: at 20% loss the doubling made a joiner wait seconds for the baselines of its
  // older peers, and at 5% ENet's own first timeout (four deviations) alone cost a tenth of a
  // second per loss on the join's path. Silence is still detected: timeout_ms runs from the first
  // unacknowledged resend and is reset only by an acknowledgement (enet_peer_timeout's maximum).
  //
  // Every ENet peer is bounded, those still in the handshake too. An accepting host completes
  // a connection only when the ack of its VERIFY_CONNECT arrives, and asks for that ack again
  // only by resending the VERIFY_CONNECT, with the same doubling: at 20% loss each way the
  // connector then often counted itself connected while the host, seconds later, still
  // waited (dropping everything the connector sent meanwhile), until the connector timed out.
  // Until a peer has measured a round trip (ENet assumes 500 ms), its commands are resent
  // every kUnmeasuredRetransmitMs.
  bool awaiting_acks = false;
  for (std::size_t i = 0; i < host_->peerCount; ++i) {
    ENetPeer* peer = &host_->peers[i];
    if (peer->state == ENET_PEER_STATE_DISCONNECTED || peer->state == ENET_PEER_STATE_ZOMBIE) continue;
    awaiting_acks = awaiting_acks || !enet_list_empty(&peer->sentReliableCommands);
    const enet_uint32 cap =
        peer->lastReceiveTime == 0
            ? kUnmeasuredRetransmitMs
            : std::clamp<enet_uint32>(peer->roundTripTime + 2 * peer->roundTripTimeVariance,
                                      kMinRetransmitCapMs, kMaxRetransmitCapMs);
    for (ENetListIterator node = enet_list_begin(&peer->sentReliableCommands);
         node != enet_list_end(&peer->sentReliableCommands); node = enet_list_next(node)) {
      auto* command = reinterpret_cast<ENetOutgoingCommand*>(node);  // the list node is its first member
      command->roundTripTimeout = std::min(command->roundTripTimeout, cap);
    }
    peer->nextTimeout = host_->serviceTime;
  }
  return awaiting_acks;
}

void EnetTransport::wait(int timeout_ms) {
  const auto socket = static_cast<platform::SocketHandle>(host_->socket);
  if (relay_) return relay_->wait(timeout_ms, socket);
  platform::WaitEntry entry{socket};
  platform::wait_readable(std::span(&entry, 1), timeout_ms);
  socket_quiet_ = !entry.readable;
}

LinkStats EnetTransport::stats(ConnectionId connection) const {
  const Connection* found = find(connection);
  if (found == nullptr) return {};
  const WireRates rates = relay_ ? relay_->rates(found->remote) : found->traffic.rates();
  LinkStats stats;
  stats.rtt_ms = static_cast<float>(found->peer->roundTripTime);
  stats.rtt_variance_ms = static_cast<float>(found->peer->roundTripTimeVariance);
  const ENetPeer* peer = found->peer;
  // ENet publishes its smoothed loss only every ENET_PEER_PACKET_LOSS_INTERVAL (10 s); until
  // the first one, report the running count of the current interval.
  stats.packet_loss =
      (peer->packetLoss == 0 && peer->packetsSent > 0)
          ? static_cast<float>(peer->packetsLost) / static_cast<float>(peer->packetsSent)
          : static_cast<float>(peer->packetLoss) / static_cast<float>(ENET_PEER_PACKET_LOSS_SCALE);
  stats.packets_out_per_s = rates.packets_out_per_s;
  stats.packets_in_per_s = rates.packets_in_per_s;
  stats.bytes_out_per_s = rates.bytes_out_per_s;
  stats.bytes_in_per_s = rates.bytes_in_per_s;
  return stats;
}

Address EnetTransport::local_address() const { return to_address(public_endpoint_); }

Address EnetTransport::remote_address(ConnectionId connection) const {
  const Connection* found = find(connection);
  return found == nullptr ? Address{"", 0} : to_address(found->remote);
}

std::size_t EnetTransport::max_message_size() const { return kMaxMessageSize; }

void EnetTransport::set_conditions(const ConditionerConfig& config) {
  config_.conditioner = config;
  if (relay_) {
    relay_->set_conditions(config);
  } else if (impairs(config)) {
    put_conditioner_in_front(config);
  }
}

void EnetTransport::set_conditions_for(const Address& remote, const ConditionerConfig& config) {
  const Endpoint endpoint = resolve(remote);
  if (!relay_) put_conditioner_in_front(config_.conditioner);
  relay_->set_conditions_for(endpoint, config);
}

void EnetTransport::set_timeout(ConnectionId connection, std::uint32_t timeout_ms) {
  if (const Connection* found = find(connection); found != nullptr) configure_peer(found->peer, timeout_ms);
}

}  // namespace transport
}  // namespace shoal
