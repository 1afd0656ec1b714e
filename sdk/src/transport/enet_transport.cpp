// SPDX-License-Identifier: MIT
#include "transport/enet_transport.hpp"

#include <enet/enet.h>

#include <algorithm>
#include <mutex>
#include <stdexcept>

#include <fmt/format.h>

#include "shoal/security.hpp"

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

  ENetAddress internal{};
  internal.host = ENET_HOST_TO_NET_32(kLoopback.ipv4);
  internal.port = 0;
  host_.reset(enet_host_create(&internal, config.max_connections, kChannelCount, 0, 0));
  if (!host_) throw std::runtime_error("cannot create the ENet host on an internal loopback port");
  ENetAddress bound{};
  enet_socket_get_address(host_->socket, &bound);

  RelayConfig relay;
  relay.public_bind = public_bind;
  relay.inner = {kLoopback.ipv4, bound.port};
  relay.pipe_bind = kLoopback;
  // An incoming peer can open a pipe before it counts as a connection; allow some slack.
  relay.max_pipes = config.max_connections * 2;
  relay.conditions = config.conditioner;
  relay_ = std::make_unique<ConditionedRelay>(relay);
}

EnetTransport::~EnetTransport() {
  for (auto& [id, connection] : connections_) {
    if (connection.peer->state == ENET_PEER_STATE_CONNECTED) {
      enet_peer_disconnect_now(connection.peer, kGoodbye);
    }
  }
  relay_->pump();
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
  connections_.emplace(id, Connection{peer, remote, false});
  peer->data = reinterpret_cast<void*>(static_cast<std::uintptr_t>(id));
  configure_peer(peer, config_.timeout_ms);
  return id;
}

const EnetTransport::Connection* EnetTransport::find(ConnectionId connection) const {
  const auto found = connections_.find(connection);
  return found == connections_.end() ? nullptr : &found->second;
}

ConnectionId EnetTransport::connect(const Address& remote) {
  const Endpoint endpoint = resolve(remote);
  const auto pipe = relay_->pipe_for(endpoint);
  if (!pipe) return kNoConnection;
  ENetAddress address{};
  address.host = ENET_HOST_TO_NET_32(pipe->ipv4);
  address.port = pipe->port;
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
    peer->data = nullptr;
    connections_.erase(found);
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
      const auto remote = relay_->remote_behind(from_enet(raw.peer->address));
      if (!remote) {  // not through a pipe: nothing outside the relay may reach ENet
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
      raw.peer->data = nullptr;
      connections_.erase(found);
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
  relay_->pump();
  // Each ENet event is consumed; the loop ends when ENet has none left.
  for (;;) {
    bound_retransmission_timers();
    ENetEvent raw{};
    const int result = enet_host_service(host_.get(), &raw, 0);
    relay_->pump();  // what ENet just sent leaves (or enters its conditioner) now
    if (result <= 0) return false;
    if (translate(raw, event)) return true;
  }
}

void EnetTransport::flush() {
  enet_host_flush(host_.get());
  relay_->pump();  // what ENet just sent leaves (or enters its conditioner) now
}

void EnetTransport::bound_retransmission_timers() {
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
  for (std::size_t i = 0; i < host_->peerCount; ++i) {
    ENetPeer* peer = &host_->peers[i];
    if (peer->state == ENET_PEER_STATE_DISCONNECTED || peer->state == ENET_PEER_STATE_ZOMBIE) continue;
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
}

void EnetTransport::wait(int timeout_ms) {
  relay_->wait(timeout_ms, static_cast<transport::platform::SocketHandle>(host_->socket));
}

LinkStats EnetTransport::stats(ConnectionId connection) const {
  const Connection* found = find(connection);
  if (found == nullptr) return {};
  const PipeRates rates = relay_->rates(found->remote);
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

Address EnetTransport::local_address() const { return to_address(relay_->public_endpoint()); }

Address EnetTransport::remote_address(ConnectionId connection) const {
  const Connection* found = find(connection);
  return found == nullptr ? Address{"", 0} : to_address(found->remote);
}

std::size_t EnetTransport::max_message_size() const { return kMaxMessageSize; }

void EnetTransport::set_conditions(const ConditionerConfig& config) {
  config_.conditioner = config;
  relay_->set_conditions(config);
}

void EnetTransport::set_conditions_for(const Address& remote, const ConditionerConfig& config) {
  relay_->set_conditions_for(resolve(remote), config);
}

void EnetTransport::set_timeout(ConnectionId connection, std::uint32_t timeout_ms) {
  if (const Connection* found = find(connection); found != nullptr) configure_peer(found->peer, timeout_ms);
}

}  // namespace transport
}  // namespace shoal
