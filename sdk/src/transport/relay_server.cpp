// SPDX-License-Identifier: MIT
#include "transport/relay_server.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "core/steady_now.hpp"
#include "security/key_exchange.hpp"
#include "transport/enet_transport.hpp"

namespace shoal::transport {
namespace {

void validate(const RelayServerConfig& c) {
  if (c.max_sessions == 0) throw std::invalid_argument("max_sessions is 0: expected at least 1");
  if (c.max_members_per_session < 2 || c.max_members_per_session > kMaxMembersPerSession) {
    throw std::invalid_argument(fmt::format("max_members_per_session is {}: expected 2..{}",
                                            c.max_members_per_session, kMaxMembersPerSession));
  }
  const auto positive = [](const RateLimit& l) { return l.bytes_per_s > 0 && l.packets_per_s > 0; };
  if (!positive(c.per_peer) || !positive(c.per_session)) {
    throw std::invalid_argument("rate limits must be positive bytes and packets per second");
  }
}

TransportConfig transport_config(const RelayServerConfig& c) {
  TransportConfig t;
  t.bind_host = c.bind_host;
  t.port = c.port;
  t.max_connections = c.max_clients;
  t.timeout_ms = c.timeout_ms;
  return t;
}

}  // namespace

std::string format_stats_line(const RelaySessionStats& s) {
  return fmt::format(
      "session={} code={} members={} in={}p/{}B out={}p/{}B dropped: peer_rate={} "
      "session_rate={} unknown_target={}",
      s.session, s.code, s.members, s.packets_in, s.bytes_in, s.packets_out, s.bytes_out,
      s.dropped_peer_rate, s.dropped_session_rate, s.dropped_unknown_target);
}

bool RelayServer::Bucket::take(const RateLimit& limit, std::size_t size, std::int64_t now) {
  // A token bucket holding at most one second of allowance: bursts up to a second's worth.
  if (refilled_us < 0) {
    bytes = limit.bytes_per_s;
    packets = limit.packets_per_s;
  } else {
    const double seconds = static_cast<double>(now - refilled_us) * 1e-6;
    bytes = std::min(limit.bytes_per_s, bytes + seconds * limit.bytes_per_s);
    packets = std::min(limit.packets_per_s, packets + seconds * limit.packets_per_s);
  }
  refilled_us = now;
  const auto cost = static_cast<double>(size);
  if (bytes < cost || packets < 1) return false;
  bytes -= cost;
  packets -= 1;
  return true;
}

RelayServer::RelayServer(const RelayServerConfig& config)
    : config_((validate(config), config)),
      transport_(std::make_unique<EnetTransport>(transport_config(config))),
      random_(config.seed) {}

RelayServer::~RelayServer() = default;

Address RelayServer::address() const { return transport_->local_address(); }

void RelayServer::wait(int timeout_ms) { transport_->wait(timeout_ms); }

void RelayServer::poll() { poll(core::steady_now_us()); }

void RelayServer::poll(std::int64_t now) {
  TransportEvent event;
  while (transport_->poll(event)) {
    switch (event.kind) {
      case TransportEventKind::connected: {
        Client client;
        client.public_endpoint = resolve(transport_->remote_address(event.connection));
        clients_.emplace(event.connection, std::move(client));
        break;
      }
      case TransportEventKind::disconnected:
      case TransportEventKind::timed_out: on_gone(event.connection); break;
      case TransportEventKind::message: on_message(event.connection, event.channel, event.payload, now); break;
    }
  }
}

void RelayServer::on_message(ConnectionId from, Channel channel, std::span<const std::uint8_t> bytes,
                             std::int64_t now) {
  const auto found = clients_.find(from);
  if (found == clients_.end()) return;
  Client& client = found->second;
  RelayMessage message;
  DropReason why{};
  if (!decode_relay(bytes, message, why)) {
    counters_.malformed.add(why);
    // A client of another version is told which version this relay speaks, not left waiting.
    if (why == DropReason::unsupported_version && is_join_of_any_version(bytes)) {
      ++counters_.joins_refused;
      encode_version_refusal(relay_version_of(bytes), out_);
      transport_->send(from, Channel::control, out_);
    }
    return;
  }
  switch (message.kind) {
    case RelayKind::join:
      if (!client.session.empty()) {
        ++counters_.dropped_rejoin;
        return;
      }
      return on_join(from, client, message.join);
    case RelayKind::sealed: {
      if (!client.hop) return counters_.malformed.add(DropReason::forged);  // no keys agreed: not its
      if (const auto dropped = client.hop->open(channel, message.payload, opened_)) {
        return counters_.malformed.add(*dropped);
      }
      RelayMessage inner;
      if (!decode_relay(opened_, inner, why)) return counters_.malformed.add(why);
      if (inner.kind != RelayKind::forward) return counters_.malformed.add(DropReason::unknown_kind);
      return on_forward(client, channel, inner.slot, inner.payload, now);
    }
    case RelayKind::forward:
      if (client.session.empty()) {
        ++counters_.dropped_not_joined;
        return;
      }
      // A member's forwards come sealed: in the clear, it is someone else's on the path.
      return counters_.malformed.add(DropReason::forged);
    case RelayKind::list_sessions: {
      std::vector<SessionInfo> list;
      for (const auto& [id, session] : sessions_) {
        list.push_back({id, session.code, static_cast<std::uint16_t>(session.members.size())});
      }
      encode_session_list(list, out_);
      transport_->send(from, Channel::control, out_);
      return;
    }
    default: counters_.malformed.add(DropReason::unknown_kind); return;  // a relay-to-client kind
  }
}

bool RelayServer::send_sealed(ConnectionId to, Client& client, Channel channel, std::span<const std::uint8_t> message) {
  if (!client.hop || !client.hop->seal(channel, message, envelope_)) {
    // 2^31 messages on one channel (or no keys): its client reconnects, with new keys.
    transport_->disconnect(to);
    return false;
  }
  encode_sealed_header(sealed_);
  sealed_.insert(sealed_.end(), envelope_.begin(), envelope_.end());
  return transport_->send(to, channel, sealed_);
}

void RelayServer::refuse(ConnectionId to, RefusalReason reason) {
  ++counters_.joins_refused;
  encode_refused(reason, out_);
  transport_->send(to, Channel::control, out_);
}

Slot RelayServer::free_slot(const Session& session) {
  // Random rather than sequential, so that clients coming back to a restarted relay (each
  // asking for its old slot) rarely meet a newcomer who took one of them.
  for (;;) {
    const auto slot = static_cast<Slot>(2 + random_.next_u64() % (kBroadcastSlot - 2));
    if (!session.members.contains(slot)) return slot;
  }
}

void RelayServer::on_join(ConnectionId from, Client& client, const JoinMessage& join) {
  std::string id = join.session;
  if (id.empty()) {
    const auto by_code = std::find_if(sessions_.begin(), sessions_.end(),
                                      [&](const auto& s) { return s.second.code == join.code; });
    if (by_code == sessions_.end()) return refuse(from, RefusalReason::no_such_session);
    id = by_code->first;
  }
  auto found = sessions_.find(id);
  if (found == sessions_.end()) {
    if (sessions_.size() >= config_.max_sessions) return refuse(from, RefusalReason::relay_full);
    const std::string code = session_code(id);
    for (const auto& [other_id, other] : sessions_) {
      if (other.code == code) return refuse(from, RefusalReason::code_collision);
    }
    Session session;
    session.token = join.token;
    session.code = code;
    session.stats.session = id;
    session.stats.code = code;
    found = sessions_.emplace(id, std::move(session)).first;
  }
  Session& session = found->second;
  if (session.token != join.token) return refuse(from, RefusalReason::bad_token);
  if (session.expelled_slots.contains(join.requested_slot) ||
      session.expelled_endpoints.contains(client.public_endpoint)) {
    return refuse(from, RefusalReason::expelled);
  }
  if (session.members.size() >= config_.max_members_per_session) {
    return refuse(from, RefusalReason::session_full);
  }
  if (join.requested_slot != kNoSlot && session.members.contains(join.requested_slot)) {
    return refuse(from, RefusalReason::slot_taken);
  }
  // The hop's keys: the join's key and a fresh one of this relay's, sent back in the clear.
  const security::KeyExchange exchange;
  const std::optional<security::LinkKeys> keys = exchange.agree(join.client_key, false);
  if (!keys) return refuse(from, RefusalReason::bad_token);  // a degenerate key
  const Slot slot = join.requested_slot != kNoSlot ? join.requested_slot : free_slot(session);

  JoinedMessage joined;
  joined.slot = slot;
  joined.session = id;
  joined.code = session.code;
  joined.your_public_endpoint = client.public_endpoint;
  joined.relay_key = exchange.public_key();
  encode_member_joined({slot, client.public_endpoint}, out_);
  for (const auto& [member_slot, connection] : session.members) {
    Client& member = clients_.at(connection);
    joined.members.push_back({member_slot, member.public_endpoint});
    send_sealed(connection, member, Channel::control, out_);
  }
  session.members.emplace(slot, from);
  session.stats.members = session.members.size();
  client.session = id;
  client.slot = slot;
  client.hop = std::make_unique<security::Envelope>(*keys);
  ++counters_.joins_accepted;
  encode_joined(joined, out_);
  transport_->send(from, Channel::control, out_);
}

void RelayServer::on_forward(Client& client, Channel channel, Slot to,
                             std::span<const std::uint8_t> payload, std::int64_t now) {
  Session& session = sessions_.at(client.session);
  RelaySessionStats& stats = session.stats;
  if (!client.bucket.take(config_.per_peer, payload.size(), now)) {
    ++stats.dropped_peer_rate;
    return;
  }
  if (!session.bucket.take(config_.per_session, payload.size(), now)) {
    ++stats.dropped_session_rate;
    return;
  }
  ++stats.packets_in;
  stats.bytes_in += payload.size();
  encode_deliver(client.slot, payload, out_);
  const auto deliver = [&](Slot slot, ConnectionId connection) {
    if (send_sealed(connection, clients_.at(connection), channel, out_)) {
      ++stats.packets_out;
      stats.bytes_out += out_.size();
      if (config_.observer) observe(client, slot, channel, payload);
    }
  };
  if (to == kBroadcastSlot) {
    for (const auto& [slot, connection] : session.members) {
      if (slot != client.slot) deliver(slot, connection);
    }
    return;
  }
  const auto target = session.members.find(to);
  if (target == session.members.end() || to == client.slot) {
    ++stats.dropped_unknown_target;
    return;
  }
  deliver(to, target->second);
}

void RelayServer::observe(const Client& from, Slot to, Channel channel, std::span<const std::uint8_t> payload) {
  LinkMessage link;
  if (!decode_link(payload, channel == Channel::control, link) || link.type != LinkType::data) return;
  config_.observer(from.session, from.slot, to, channel, link.payload);
}

bool RelayServer::expel(const std::string& session_id, Slot slot) {
  const auto session = sessions_.find(session_id);
  if (session == sessions_.end()) return false;
  const auto member = session->second.members.find(slot);
  if (member == session->second.members.end()) return false;
  const ConnectionId connection = member->second;
  session->second.expelled_slots.insert(slot);
  session->second.expelled_endpoints.insert(clients_.at(connection).public_endpoint);
  ++counters_.expelled;
  // Its client comes back asking for its old slot, is refused as expelled, and stops.
  transport_->disconnect(connection);
  on_gone(connection);  // the session forgets it now, and the others hear it left
  return true;
}

void RelayServer::on_gone(ConnectionId connection) {
  const auto found = clients_.find(connection);
  if (found == clients_.end()) return;
  const Client client = std::move(found->second);
  clients_.erase(found);
  if (client.session.empty()) return;
  const auto session = sessions_.find(client.session);
  if (session == sessions_.end()) return;
  session->second.members.erase(client.slot);
  session->second.stats.members = session->second.members.size();
  if (session->second.members.empty()) {
    sessions_.erase(session);
    return;
  }
  encode_member_left(client.slot, out_);
  for (const auto& [slot, member] : session->second.members) {
    send_sealed(member, clients_.at(member), Channel::control, out_);
  }
}

std::vector<RelaySessionStats> RelayServer::session_stats() const {
  std::vector<RelaySessionStats> all;
  for (const auto& [id, session] : sessions_) all.push_back(session.stats);
  std::sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.session < b.session; });
  return all;
}

}  // namespace shoal::transport
