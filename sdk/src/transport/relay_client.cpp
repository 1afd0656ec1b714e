// SPDX-License-Identifier: MIT
#include "transport/relay_client.hpp"

#include <algorithm>
#include <random>
#include <stdexcept>

#include <fmt/format.h>

#include "core/steady_now.hpp"
#include "security/secured_transport.hpp"
#include "transport/enet_transport.hpp"

namespace shoal {

namespace {

// The links through the relay secured end to end: the relay forwards only sealed messages.
class SecureRelayTransport final : public security::SecuredTransport<RelayTransport> {
 public:
  using SecuredTransport::SecuredTransport;
  RelayStatus status() const override { return inner().status(); }
};

}  // namespace

std::unique_ptr<RelayTransport> make_relay_transport(const RelayClientConfig& config) {
  auto client = std::make_unique<transport::RelayClient>(config);
  if (!config.local.security.enabled) return client;
  return std::make_unique<SecureRelayTransport>(std::move(client), config.local.security);
}

std::string relay_session_code(const std::string& session) { return transport::session_code(session); }

namespace transport {
namespace {

constexpr std::int64_t kOpenRetryUs = 250'000;
constexpr std::int64_t kAckIntervalUs = 10'000;
constexpr std::int64_t kResendAfterUs = 1'000'000;  // hop-reliable: only a lost path needs this
constexpr std::int64_t kRetrySlotTakenUs = 500'000;
constexpr std::size_t kMaxUnackedBytes = 16u << 20;
constexpr std::int64_t kRateWindowUs = 1'000'000;
// sealed header (3) + envelope (20) + relay header (3) + slot (2) + link header (5) + sequence number (4)
constexpr std::size_t kOverhead =
    kRelayHeaderSize + security::Envelope::kOverhead + kRelayHeaderSize + 2 + kLinkHeaderSize + kLinkSeqSize;

void validate(const RelayClientConfig& c) {
  if (c.session.empty() && c.code.empty()) {
    throw std::invalid_argument("relay client: neither session nor code is set: expected one");
  }
  if (c.session.size() > kMaxSessionIdSize || c.token.size() > kMaxTokenSize) {
    throw std::invalid_argument(fmt::format("relay client: session id or token too long: expected "
                                            "at most {} and {} bytes", kMaxSessionIdSize, kMaxTokenSize));
  }
  if (c.session.empty() && c.code.size() != kSessionCodeSize) {
    throw std::invalid_argument(fmt::format("relay client: code '{}' is not {} characters", c.code,
                                            kSessionCodeSize));
  }
  if (c.slot == kBroadcastSlot) throw std::invalid_argument("relay client: slot 65535 is reserved");
  if (c.resume_timeout_ms == 0 || c.relay_timeout_ms == 0) {
    throw std::invalid_argument("relay client: resume_timeout_ms and relay_timeout_ms must be positive");
  }
  if (c.relay.port == 0) throw std::invalid_argument("relay client: the relay's port is 0");
  resolve(c.relay);  // throws naming the host
}

RelayStatus initial_status(const RelayClientConfig& c) {
  RelayStatus status;
  status.session = c.session;
  status.code = c.session.empty() ? c.code : session_code(c.session);
  return status;
}

}  // namespace

RelayClient::RelayClient(const RelayClientConfig& config)
    : RelayClient(config, std::unique_ptr<Transport>()) {}

RelayClient::RelayClient(const RelayClientConfig& config, EnetTransport& shared)
    : config_((validate(config), config)),
      inner_(&shared),
      enet_(&shared),
      status_(initial_status(config)),
      random_(std::random_device{}() ^ (std::uint64_t{std::random_device{}()} << 32)) {}

RelayClient::RelayClient(const RelayClientConfig& config, std::unique_ptr<Transport> inner)
    : config_((validate(config), config)),
      status_(initial_status(config)),
      random_(std::random_device{}() ^ (std::uint64_t{std::random_device{}()} << 32)) {
  if (!inner) {  // the default: its own ENet transport on config.local
    auto enet = std::make_unique<EnetTransport>(config.local);
    enet_ = enet.get();
    inner = std::move(enet);
  }
  owned_inner_ = std::move(inner);
  inner_ = owned_inner_.get();
}

RelayClient::~RelayClient() {
  if (state_ == RelayState::joined) {
    for (auto& [id, link] : links_) {
      encode_link(LinkType::close, link.tag, link_buf_);
      if (can_reach(link)) transmit(link, Channel::control);
    }
    TransportEvent ignored;
    while (inner_->poll(ignored)) {}  // flushes the closes before the goodbye (a shared one's owner is going too)
  }
}

// ---- the Transport interface ----

ConnectionId RelayClient::connect(const Address& remote) {
  if (remote.host != kRelayVirtualHost || remote.port == kNoSlot || remote.port == kBroadcastSlot ||
      (status_.slot != kNoSlot && remote.port == status_.slot) || state_ == RelayState::refused) {
    return kNoConnection;
  }
  const ConnectionId id = next_connection_++;
  Link& link = links_[id];
  link.remote = remote.port;
  link.tag = static_cast<std::uint32_t>(random_.next_u64());
  link.timers_pending = true;  // no clock here: they start at the next poll's time
  if (can_reach(link)) send_open(link, now_us_);  // reachable: joined, so polled before
  return id;
}

void RelayClient::disconnect(ConnectionId connection) {
  const auto found = links_.find(connection);
  if (found == links_.end()) return;
  encode_link(LinkType::close, found->second.tag, link_buf_);
  if (can_reach(found->second)) transmit(found->second, Channel::control);
  end_link(connection, TransportEventKind::disconnected);
}

bool RelayClient::send(ConnectionId connection, Channel channel, std::span<const std::uint8_t> bytes) {
  const auto found = links_.find(connection);
  if (found == links_.end() || !found->second.open || bytes.size() > max_message_size() ||
      static_cast<int>(channel) >= kChannelCount) {
    return false;
  }
  Link& link = found->second;
  const std::int64_t now = now_us_;
  if (channel == Channel::control) {
    if (link.stream.unacked_bytes() + bytes.size() > kMaxUnackedBytes) return false;
    const std::uint32_t seq = link.stream.push(bytes);
    if (link.stream.unacked().size() == 1) link.progress_us = now;
    if (can_reach(link)) send_data(link, link.stream.unacked().back());
    (void)seq;
  } else if (can_reach(link)) {  // unreliable: while the path is down it is simply lost
    encode_link(LinkType::data, link.tag, link_buf_);
    link_buf_.insert(link_buf_.end(), bytes.begin(), bytes.end());
    transmit(link, channel);
  }
  count(link, true, bytes.size(), now);
  return true;
}

bool RelayClient::poll(TransportEvent& event) { return poll(event, core::steady_now_us()); }

bool RelayClient::poll(TransportEvent& event, std::int64_t now) {
  now_us_ = now;
  if (events_.empty()) {
    TransportEvent inner;
    while (owned_inner_ && events_.empty() && inner_->poll(inner)) on_inner_event(inner, now);
    service(now);
  }
  return events_.pop(event);
}

void RelayClient::wait(int timeout_ms) {
  // Timers (open retries, acks, resume deadlines) need polls even when nothing arrives.
  inner_->wait(std::min(timeout_ms, 20));
}

LinkStats RelayClient::stats(ConnectionId connection) const {
  const auto found = links_.find(connection);
  if (found == links_.end()) return {};
  LinkStats stats = found->second.rates;
  // Two hops through the relay; both roughly like ours.
  const LinkStats hop = inner_->stats(relay_connection_);
  stats.rtt_ms = 2 * hop.rtt_ms;
  stats.rtt_variance_ms = 2 * hop.rtt_variance_ms;
  stats.packet_loss = hop.packet_loss;
  return stats;
}

Address RelayClient::local_address() const { return relay_peer_address(status_.slot); }

Address RelayClient::remote_address(ConnectionId connection) const {
  const auto found = links_.find(connection);
  return found == links_.end() ? Address{"", 0} : relay_peer_address(found->second.remote);
}

std::size_t RelayClient::max_message_size() const { return inner_->max_message_size() - kOverhead; }

void RelayClient::set_conditions(const ConditionerConfig& config) { inner_->set_conditions(config); }

// ---- the relay connection ----

void RelayClient::on_shared_event(const TransportEvent& event, std::int64_t now) {
  now_us_ = now;
  on_inner_event(event, now);
}

void RelayClient::on_inner_event(const TransportEvent& event, std::int64_t now) {
  if (event.connection != relay_connection_) {
    // Nobody but the relay may talk to our own socket's ENet host.
    if (event.kind == TransportEventKind::connected) inner_->disconnect(event.connection);
    return;
  }
  switch (event.kind) {
    case TransportEventKind::connected: {
      state_ = RelayState::joining;
      hop_.reset();
      exchange_ = std::make_unique<security::KeyExchange>();
      JoinMessage join;
      join.session = config_.session;
      join.code = config_.session.empty() ? config_.code : std::string{};
      join.token = config_.token;
      join.requested_slot = status_.slot != kNoSlot ? status_.slot : config_.slot;
      join.client_key = exchange_->public_key();
      encode_join(join, out_);
      inner_->send(relay_connection_, Channel::control, out_);
      return;
    }
    case TransportEventKind::disconnected:
    case TransportEventKind::timed_out: return on_relay_lost(now);
    case TransportEventKind::message: return on_relay_message(event.channel, event.payload, now);
  }
}

void RelayClient::on_relay_lost(std::int64_t now) {
  relay_connection_ = kNoConnection;
  hop_.reset();
  exchange_.reset();
  if (state_ != RelayState::refused) state_ = RelayState::idle;
  status_.joined = false;
  if (relay_lost_us_ < 0) relay_lost_us_ = now;
  for (auto& [id, link] : links_) {
    if (link.absent_since_us < 0) link.absent_since_us = now;
  }
  members_.clear();
}

void RelayClient::on_relay_message(Channel channel, std::span<const std::uint8_t> bytes, std::int64_t now) {
  RelayMessage message;
  DropReason why{};
  if (!decode_relay(bytes, message, why)) {
    ++counters_.dropped_bad_relay_message;
    // A relay of another version (an older one answers nothing of the refusal's layout).
    if (why == DropReason::unsupported_version && state_ == RelayState::joining) {
      refuse_for_version(relay_version_of(bytes), kRelayProtocolVersion);
    }
    return;
  }
  switch (message.kind) {
    case RelayKind::sealed: return on_sealed(channel, message.payload, now);
    case RelayKind::joined:
      if (state_ != RelayState::joining) break;
      return on_joined(message.joined, now);
    case RelayKind::refused:
      if (state_ != RelayState::joining) break;
      if (message.refusal == RefusalReason::slot_taken && status_.slot != kNoSlot) {
        // Our old entry on a relay that did not restart: it times out soon; try again then.
        inner_->disconnect(relay_connection_);
        relay_connection_ = kNoConnection;
        state_ = RelayState::idle;
        next_attempt_us_ = now + kRetrySlotTakenUs;
        return;
      }
      if (message.refusal == RefusalReason::version_mismatch) {
        return refuse_for_version(message.relay_version, message.client_version);
      }
      state_ = RelayState::refused;
      status_.error = fmt::format("the relay refused to join session '{}': {}",
                                  config_.session.empty() ? config_.code : config_.session,
                                  to_string(message.refusal));
      for (auto& [id, link] : links_) events_.push(TransportEventKind::timed_out, id);
      links_.clear();
      return;
    case RelayKind::deliver:
    case RelayKind::member_joined:
    case RelayKind::member_left:
      // The relay seals these: in the clear, they are someone else's on the path.
      drops_.add(DropReason::forged);
      return;
    default: break;
  }
  ++counters_.dropped_bad_relay_message;
}

void RelayClient::on_sealed(Channel channel, std::span<const std::uint8_t> envelope, std::int64_t now) {
  if (!hop_) {  // no keys yet (or any more): nothing sealed can be the relay's
    drops_.add(DropReason::forged);
    return;
  }
  if (const auto dropped = hop_->open(channel, envelope, opened_)) {
    drops_.add(*dropped);
    return;
  }
  RelayMessage message;
  DropReason why{};
  if (!decode_relay(opened_, message, why)) {
    ++counters_.dropped_bad_relay_message;
    return;
  }
  switch (message.kind) {
    case RelayKind::deliver: return on_link_message(message.slot, channel, message.payload, now);
    case RelayKind::member_joined: return set_present(message.slot, true, now);
    case RelayKind::member_left: return set_present(message.slot, false, now);
    default: ++counters_.dropped_bad_relay_message; return;  // nothing else travels sealed to a client
  }
}

void RelayClient::send_relay(Channel channel, std::span<const std::uint8_t> message) {
  if (!hop_) return;  // only a join goes out in the clear, and it does not come here
  if (!hop_->seal(channel, message, envelope_)) {
    // 2^31 messages on one channel: a new connection, new keys, rather than a nonce again.
    inner_->disconnect(relay_connection_);
    return;
  }
  encode_sealed_header(sealed_);
  sealed_.insert(sealed_.end(), envelope_.begin(), envelope_.end());
  inner_->send(relay_connection_, channel, sealed_);
}

void RelayClient::refuse_for_version(std::uint8_t relay_version, std::uint8_t client_version) {
  state_ = RelayState::refused;
  status_.error = fmt::format(
      "the relay refused to join session '{}': it speaks relay protocol version {}, this client {}",
      config_.session.empty() ? config_.code : config_.session, relay_version, client_version);
  for (auto& [id, link] : links_) events_.push(TransportEventKind::timed_out, id);
  links_.clear();
}

void RelayClient::on_joined(const JoinedMessage& joined, std::int64_t now) {
  const std::optional<security::LinkKeys> keys = exchange_ ? exchange_->agree(joined.relay_key, true) : std::nullopt;
  exchange_.reset();
  if (!keys) {  // a degenerate key: no hop to seal with; try again on a new connection
    ++counters_.dropped_bad_relay_message;
    inner_->disconnect(relay_connection_);
    return;
  }
  hop_ = std::make_unique<security::Envelope>(*keys);
  if (status_.slot != kNoSlot) ++status_.rejoins;
  state_ = RelayState::joined;
  relay_lost_us_ = -1;
  status_.joined = true;
  status_.slot = joined.slot;
  status_.session = joined.session;
  status_.code = joined.code;
  status_.public_address = to_address(joined.your_public_endpoint);
  public_endpoint_ = joined.your_public_endpoint;
  members_.clear();
  for (const RelayMember& m : joined.members) members_.insert(m.slot);
  for (auto& [id, link] : links_) {
    if (members_.contains(link.remote)) resume(link, now);
  }
}

void RelayClient::set_present(Slot slot, bool present, std::int64_t now) {
  if (present) {
    members_.insert(slot);
  } else {
    members_.erase(slot);
  }
  for (auto& [id, link] : links_) {
    if (link.remote != slot) continue;
    if (present) {
      resume(link, now);
    } else if (link.absent_since_us < 0) {
      link.absent_since_us = now;
    }
  }
}

void RelayClient::resume(Link& link, std::int64_t now) {
  link.absent_since_us = -1;
  if (!link.open) return send_open(link, now);
  for (const auto& message : link.stream.unacked()) {
    send_data(link, message);
    ++counters_.resends;
  }
  link.progress_us = now;
  link.ack_due = true;  // the remote may have lost our ack too
}

bool RelayClient::can_reach(const Link& link) const {
  return state_ == RelayState::joined && members_.contains(link.remote);
}

void RelayClient::transmit(const Link& link, Channel channel) {
  encode_forward(link.remote, link_buf_, out_);
  send_relay(channel, out_);
}

void RelayClient::send_open(Link& link, std::int64_t now) {
  encode_link(LinkType::open, link.tag, link_buf_);
  transmit(link, Channel::control);
  link.open_sent_us = now;
}

void RelayClient::send_data(Link& link, const ResumableStream::Pending& message) {
  encode_link_seq(LinkType::data, link.tag, message.seq, link_buf_);
  link_buf_.insert(link_buf_.end(), message.bytes.begin(), message.bytes.end());
  transmit(link, Channel::control);
}

// ---- links ----

std::uint32_t RelayClient::link_tag(ConnectionId connection) const {
  const auto found = links_.find(connection);
  return found == links_.end() ? 0 : found->second.tag;
}

ConnectionId RelayClient::find_link(Slot remote, std::uint32_t tag) const {
  for (const auto& [id, link] : links_) {
    if (link.remote == remote && link.tag == tag) return id;
  }
  return kNoConnection;
}

void RelayClient::end_link(ConnectionId id, TransportEventKind kind) {
  links_.erase(id);
  events_.push(kind, id);
}

void RelayClient::on_link_message(Slot from, Channel channel, std::span<const std::uint8_t> bytes,
                                  std::int64_t now) {
  LinkMessage message;
  if (!decode_link(bytes, channel == Channel::control, message)) {
    ++counters_.dropped_bad_link_message;
    return;
  }
  ConnectionId id = find_link(from, message.tag);
  if (message.type == LinkType::open && channel == Channel::control) {
    if (id == kNoConnection) {
      id = next_connection_++;
      Link& link = links_[id];
      link.remote = from;
      link.tag = message.tag;
      link.open = true;
      link.created_us = now;
      link.progress_us = now;
      events_.push(TransportEventKind::connected, id);
    }
    encode_link(LinkType::accept, message.tag, link_buf_);
    transmit(links_.at(id), Channel::control);
    return;
  }
  if (id == kNoConnection) {
    ++counters_.dropped_unknown_link;
    return;
  }
  Link& link = links_.at(id);
  switch (message.type) {
    case LinkType::accept:
      if (!link.open) {
        link.open = true;
        events_.push(TransportEventKind::connected, id);
      }
      return;
    case LinkType::close: return end_link(id, TransportEventKind::disconnected);
    case LinkType::ack:
      if (link.stream.acknowledge(message.seq)) link.progress_us = now;
      return;
    case LinkType::data: {
      if (!link.open) {
        ++counters_.dropped_unknown_link;
        return;
      }
      if (channel == Channel::control) {
        link.ack_due = true;
        switch (link.stream.receive(message.seq)) {
          case ResumableStream::Verdict::deliver: break;
          case ResumableStream::Verdict::duplicate: ++counters_.duplicates; return;
          case ResumableStream::Verdict::gap: ++counters_.gaps; return;
        }
      }
      count(link, false, message.payload.size(), now);
      events_.push(TransportEventKind::message, id, channel, message.payload);
      return;
    }
    case LinkType::open: break;  // on a channel other than control: meaningless
  }
  ++counters_.dropped_bad_link_message;
}

void RelayClient::count(Link& link, bool out, std::size_t bytes, std::int64_t now) {
  if (link.window_start_us < 0) link.window_start_us = now;
  (out ? link.packets_out : link.packets_in) += 1;
  (out ? link.bytes_out : link.bytes_in) += bytes;
  const std::int64_t elapsed = now - link.window_start_us;
  if (elapsed < kRateWindowUs) return;
  const auto per_second = [elapsed](std::uint64_t n) {
    return static_cast<float>(static_cast<double>(n) * 1e6 / static_cast<double>(elapsed));
  };
  link.rates.packets_out_per_s = per_second(link.packets_out);
  link.rates.packets_in_per_s = per_second(link.packets_in);
  link.rates.bytes_out_per_s = per_second(link.bytes_out);
  link.rates.bytes_in_per_s = per_second(link.bytes_in);
  link.packets_out = link.packets_in = link.bytes_out = link.bytes_in = 0;
  link.window_start_us = now;
}

void RelayClient::service(std::int64_t now) {
  if (state_ == RelayState::idle && now >= next_attempt_us_) {
    relay_connection_ = inner_->connect(config_.relay);
    if (relay_connection_ != kNoConnection) {
      state_ = RelayState::connecting;
      if (enet_ != nullptr) enet_->set_timeout(relay_connection_, config_.relay_timeout_ms);
    }
  }
  const auto resume_timeout = static_cast<std::int64_t>(config_.resume_timeout_ms) * 1000;
  std::vector<ConnectionId> expired;
  for (auto& [id, link] : links_) {
    if (link.timers_pending) {
      link.timers_pending = false;
      link.created_us = now;
      link.progress_us = now;
    }
    const bool never_opened = !link.open && now - link.created_us > resume_timeout;
    if (never_opened || (link.absent_since_us >= 0 && now - link.absent_since_us > resume_timeout)) {
      expired.push_back(id);
      continue;
    }
    if (!can_reach(link)) continue;
    if (!link.open && now - link.open_sent_us >= kOpenRetryUs) send_open(link, now);
    if (link.ack_due && now - link.ack_sent_us >= kAckIntervalUs) {
      encode_link_seq(LinkType::ack, link.tag, link.stream.next_expected(), link_buf_);
      transmit(link, Channel::control);
      link.ack_due = false;
      link.ack_sent_us = now;
    }
    if (!link.stream.unacked().empty() && now - link.progress_us > kResendAfterUs) resume(link, now);
  }
  for (const ConnectionId id : expired) end_link(id, TransportEventKind::timed_out);
}

}  // namespace transport
}  // namespace shoal
