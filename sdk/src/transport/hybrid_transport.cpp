// SPDX-License-Identifier: MIT
#include "transport/hybrid_transport.hpp"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <random>
#include <stdexcept>

#include "core/steady_now.hpp"
#include "security/secured_transport.hpp"

namespace shoal {

const char* to_string(Path path) {
  switch (path) {
    case Path::none: return "none";
    case Path::direct: return "direct";
    case Path::relay: return "relay";
  }
  return "?";
}

Address hybrid_address(const Address& direct, std::uint16_t relay_slot) {
  return {direct.host + "/" + std::to_string(relay_slot), direct.port};
}

namespace {

// A route is secured once, whatever its path: the relay path forwards only sealed messages
// and a switch of path keeps the route's keys.
class SecureHybridTransport final : public security::SecuredTransport<HybridTransport> {
 public:
  using SecuredTransport::SecuredTransport;
  Path path(ConnectionId connection) const override { return inner().path(connection); }
  RelayStatus relay_status() const override { return inner().relay_status(); }
};

}  // namespace

std::unique_ptr<HybridTransport> make_hybrid_transport(const HybridConfig& config) {
  auto hybrid = std::make_unique<transport::Hybrid>(config);
  if (!config.direct.security.enabled) return hybrid;
  return std::make_unique<SecureHybridTransport>(std::move(hybrid), config.direct.security);
}

namespace transport {
namespace {

constexpr std::int64_t kAckIntervalUs = 10'000;
constexpr std::int64_t kResendAfterUs = 1'000'000;  // each path is reliable: only a lost one needs this
constexpr std::int64_t kRelayRetryUs = 500'000;
constexpr std::size_t kMaxUnackedBytes = 16u << 20;
constexpr int kWaitSliceMs = 5;  // timers here and in the relay client want polls

const HybridConfig& validated(const HybridConfig& c) {
  if (c.direct_timeout_ms == 0 || c.direct_retry_ms == 0) {
    throw std::invalid_argument("hybrid transport: direct_timeout_ms and direct_retry_ms must be positive");
  }
  return c;
}

// Splits "<direct host>/<relay slot>"; without a slot the remote is reachable only directly.
bool parse_hybrid(const Address& address, Address& direct, std::uint16_t& slot) {
  const std::size_t slash = address.host.rfind('/');
  direct = {address.host.substr(0, slash), address.port};
  slot = 0;
  if (slash == std::string::npos) return !direct.host.empty();
  const char* first = address.host.data() + slash + 1;
  const char* last = address.host.data() + address.host.size();
  const auto [end, error] = std::from_chars(first, last, slot);
  return error == std::errc{} && end == last && !direct.host.empty();
}

}  // namespace

Hybrid::Hybrid(const HybridConfig& config)
    : config_(validated(config)),
      direct_(std::make_unique<EnetTransport>(config.direct)),
      relay_(std::make_unique<RelayClient>(config.relay, *direct_)),
      random_(std::random_device{}() ^ (std::uint64_t{std::random_device{}()} << 32)) {}

Hybrid::~Hybrid() {
  for (auto& [id, route] : routes_) {
    if (route.active == Path::none) continue;
    encode_hybrid_close(frame_);
    transmit(route, Channel::control);
  }
  TransportEvent ignored;
  while (direct_->poll(ignored)) {}  // flushes the closes before the transports say goodbye
  while (relay_->poll(ignored)) {}
}

// ---- the Transport interface ----

ConnectionId Hybrid::connect(const Address& remote) {
  Address direct;
  std::uint16_t slot = 0;
  if (!parse_hybrid(remote, direct, slot)) return kNoConnection;
  const ConnectionId id = next_route_++;
  Route& route = routes_[id];
  route.opener = true;
  route.tag = random_.next_u64();
  route.remote_direct = direct;
  route.remote_slot = slot;
  route.timers_pending = true;  // no clock here: the route's timers start at the next poll's time
  dial_direct(id, route, direct, 0);  // at once, though: it tells whether the remote is reachable
  if (route.paths[kDirect].id == kNoConnection && slot == 0) {  // unreachable either way
    routes_.erase(id);
    return kNoConnection;
  }
  return id;
}

void Hybrid::disconnect(ConnectionId connection) {
  const auto found = routes_.find(connection);
  if (found == routes_.end()) return;
  if (found->second.active != Path::none) {
    encode_hybrid_close(frame_);
    transmit(found->second, Channel::control);
  }
  end_route(connection, TransportEventKind::disconnected);
}

bool Hybrid::send(ConnectionId connection, Channel channel, std::span<const std::uint8_t> bytes) {
  const auto found = routes_.find(connection);
  if (found == routes_.end() || !found->second.open || bytes.size() > max_message_size() ||
      static_cast<int>(channel) >= kChannelCount) {
    return false;
  }
  Route& route = found->second;
  if (channel == Channel::control) {
    if (route.stream.unacked_bytes() + bytes.size() > kMaxUnackedBytes) return false;
    route.stream.push(bytes);
    if (route.stream.unacked().size() == 1) route.progress_us = now_us_;
    if (route.active != Path::none) send_sequenced(route, route.stream.unacked().back());
  } else if (route.active != Path::none) {  // unreliable: between paths it is simply lost
    encode_hybrid_datagram(bytes, frame_);
    transmit(route, channel);
  }
  return true;
}

bool Hybrid::poll(TransportEvent& event) { return poll(event, core::steady_now_us()); }

bool Hybrid::poll(TransportEvent& event, std::int64_t now) {
  now_us_ = now;
  if (created_us_ < 0) created_us_ = now;
  if (events_.empty()) {
    for (auto& entry : routes_) {
      if (entry.second.timers_pending) start_opener(entry.second, now);  // before any event can move them
    }
    TransportEvent inner;
    while (direct_->poll(inner)) {  // ENet's timers run on its own clock
      if (relay_->carries_event(inner)) {
        relay_->on_shared_event(inner, now);
      } else {
        on_event(kDirect, inner, now);
      }
    }
    while (relay_->poll(inner, now)) on_event(kRelay, inner, now);
    service(now);
  }
  return events_.pop(event);
}

void Hybrid::flush() {
  direct_->flush();
  relay_->flush();
}

void Hybrid::wait(int timeout_ms) { direct_->wait(std::min(timeout_ms, kWaitSliceMs)); }

LinkStats Hybrid::stats(ConnectionId connection) const {
  const auto found = routes_.find(connection);
  if (found == routes_.end() || found->second.active == Path::none) return {};
  const Side s = found->second.active == Path::direct ? kDirect : kRelay;
  return side(s).stats(found->second.paths[s].id);
}

Address Hybrid::local_address() const { return hybrid_address(direct_->local_address(), relay_->status().slot); }

Address Hybrid::remote_address(ConnectionId connection) const {
  const auto found = routes_.find(connection);
  if (found == routes_.end()) return {"", 0};
  return hybrid_address(found->second.remote_direct, found->second.remote_slot);
}

std::size_t Hybrid::max_message_size() const {
  return std::min(direct_->max_message_size(), relay_->max_message_size()) - kHybridSequencedOverhead;
}

void Hybrid::set_conditions(const ConditionerConfig& config) { direct_->set_conditions(config); }  // the relay's too

Path Hybrid::path(ConnectionId connection) const {
  const auto found = routes_.find(connection);
  return found == routes_.end() ? Path::none : found->second.active;
}

// ---- paths ----

ConnectionId Hybrid::route_of(Side s, ConnectionId underlying) const {
  const auto found = bound_[s].find(underlying);
  return found == bound_[s].end() ? kNoConnection : found->second;
}

void Hybrid::on_event(Side s, const TransportEvent& event, std::int64_t now) {
  const ConnectionId route_id = route_of(s, event.connection);
  switch (event.kind) {
    case TransportEventKind::connected:
      if (route_id != kNoConnection) {
        routes_.at(route_id).paths[s].connected = true;  // our dial: the hello goes out in service
      } else {
        unbound_[s][event.connection] = {now};  // theirs: it introduces itself
      }
      return;
    case TransportEventKind::disconnected:
    case TransportEventKind::timed_out:
      unbound_[s].erase(event.connection);
      if (route_id != kNoConnection) on_path_lost(s, event.connection, now);
      return;
    case TransportEventKind::message: return on_frame(s, event.connection, event.channel, event.payload, now);
  }
}

void Hybrid::on_path_lost(Side s, ConnectionId underlying, std::int64_t now) {
  Route& route = routes_.at(route_of(s, underlying));
  bound_[s].erase(underlying);
  if (route.paths[s].id != underlying) return;
  route.paths[s] = {};
  if (route.opener) {
    if (s == kDirect) {
      route.next_direct_us = now + std::int64_t{config_.direct_retry_ms} * 1000;
      route.relay_after_us = now;  // no waiting for direct this time: it just failed
    } else {
      route.relay_after_us = now + kRelayRetryUs;
    }
  }
  update_active(route, now);
}

void Hybrid::on_frame(Side s, ConnectionId underlying, Channel channel, std::span<const std::uint8_t> bytes,
                      std::int64_t now) {
  HybridFrame frame;
  if (!decode_hybrid(bytes, frame)) {
    ++counters_.dropped_bad_frame;
    return;
  }
  const bool on_control = channel == Channel::control;
  if (frame.type == HybridFrameType::hello) {
    if (!on_control) {
      ++counters_.dropped_bad_frame;
      return;
    }
    return on_hello(s, underlying, frame.hello, now);
  }
  const ConnectionId route_id = route_of(s, underlying);
  if (route_id == kNoConnection) {
    ++counters_.dropped_unbound;
    return;
  }
  Route& route = routes_.at(route_id);
  if (!route.open) {  // a datagram that overtook the acceptor's answer
    ++counters_.dropped_unbound;
    return;
  }
  if (on_control == (frame.type == HybridFrameType::datagram)) {  // datagrams never on control, the rest only there
    ++counters_.dropped_bad_frame;
    return;
  }
  switch (frame.type) {
    case HybridFrameType::close: return end_route(route_id, TransportEventKind::disconnected);
    case HybridFrameType::punch:
      if (s != kRelay) break;  // coordination belongs on the relay: direct, it is too late
      return on_punch(route_id, route, frame.punch_answer, now);
    case HybridFrameType::ack:
      if (route.stream.acknowledge(frame.seq)) route.progress_us = now;
      return;
    case HybridFrameType::sequenced:
      route.ack_due = true;
      switch (route.stream.receive(frame.seq)) {
        case ResumableStream::Verdict::deliver: break;
        case ResumableStream::Verdict::duplicate: ++counters_.duplicates; return;
        case ResumableStream::Verdict::gap: ++counters_.gaps; return;
      }
      break;
    case HybridFrameType::datagram: break;
    case HybridFrameType::hello: return;  // handled above
  }
  if (frame.type == HybridFrameType::punch) {
    ++counters_.dropped_bad_frame;
    return;
  }
  events_.push(TransportEventKind::message, route_id, channel, frame.payload);
}

void Hybrid::on_hello(Side s, ConnectionId underlying, const HybridHello& hello, std::int64_t now) {
  const ConnectionId bound_route = route_of(s, underlying);
  if (hello.answer) {  // the acceptor's reply on a path we dialled
    const auto found = routes_.find(bound_route);
    if (found == routes_.end() || !found->second.opener || found->second.paths[s].id != underlying) {
      ++counters_.dropped_bad_frame;
      return;
    }
    Route& route = found->second;
    if (hello.public_endpoint.port != 0) route.remote_public = hello.public_endpoint;
    route.paths[s].ready = true;
    if (!route.open) {
      route.open = true;
      events_.push(TransportEventKind::connected, bound_route);
    }
    return update_active(route, now);
  }
  // An opener's hello: a new connection, or a new path of one accepted before.
  if (bound_route != kNoConnection || unbound_[s].erase(underlying) == 0) {
    ++counters_.dropped_bad_frame;
    return;
  }
  const auto known = std::find_if(routes_.begin(), routes_.end(),
                                  [&](const auto& r) { return !r.second.opener && r.second.tag == hello.tag; });
  const bool fresh = known == routes_.end();
  const ConnectionId route_id = fresh ? next_route_++ : known->first;
  Route& route = routes_[route_id];
  if (fresh) {
    route.tag = hello.tag;
    route.pathless_since_us = now;
    route.progress_us = now;
    route.remote_direct = {hello.direct_host, hello.direct_port};
  }
  // Where its direct packets come from beats where it thinks it is (0.0.0.0, or behind NAT).
  if (s == kDirect) route.remote_direct = direct_->remote_address(underlying);
  if (hello.relay_slot != 0) route.remote_slot = hello.relay_slot;
  if (hello.public_endpoint.port != 0) route.remote_public = hello.public_endpoint;
  attach(route_id, route, s, underlying, now);
  send_hello(route, s, true);
  if (fresh) {
    route.open = true;
    events_.push(TransportEventKind::connected, route_id);
  }
  update_active(route, now);
}

void Hybrid::attach(ConnectionId route_id, Route& route, Side s, ConnectionId underlying, std::int64_t now) {
  if (route.paths[s].id != underlying) drop_path(route, s, true);  // a stale path the opener replaced
  route.paths[s] = {underlying, true, true, true, now};
  bound_[s][underlying] = route_id;
}

void Hybrid::drop_path(Route& route, Side s, bool close_underlying) {
  const ConnectionId id = route.paths[s].id;
  route.paths[s] = {};
  if (id == kNoConnection) return;
  bound_[s].erase(id);
  if (close_underlying) side(s).disconnect(id);
}

void Hybrid::update_active(Route& route, std::int64_t now) {
  const Path next = route.paths[kDirect].ready ? Path::direct : route.paths[kRelay].ready ? Path::relay : Path::none;
  if (next == route.active) return;
  route.active = next;
  if (next == Path::none) {
    route.pathless_since_us = now;
    return;
  }
  if (route.last_path != Path::none && route.last_path != next) ++counters_.path_switches;
  route.last_path = next;
  route.pathless_since_us = -1;
  // What the old path had in flight may be lost: the new one carries all of it again.
  for (const auto& message : route.stream.unacked()) {
    send_sequenced(route, message);
    ++counters_.resends;
  }
  route.progress_us = now;
  route.ack_due = true;  // the remote may have lost our ack too
}

HybridHello Hybrid::own_hello(const Route& route, bool answer) const {
  const Address direct = direct_->local_address();
  return {answer, route.tag, relay_->status().slot, direct.port, direct.host, relay_->public_endpoint()};
}

void Hybrid::send_hello(Route& route, Side s, bool answer) {
  encode_hybrid_hello(own_hello(route, answer), frame_);
  side(s).send(route.paths[s].id, Channel::control, frame_);
  route.paths[s].hello_sent = true;
}

bool Hybrid::may_send_hello(std::int64_t now) const {
  // The hello tells the remote our relay slot, which it passes on in Welcome: wait for the
  // relay a little, but never forever.
  const RelayStatus status = relay_->status();
  return status.slot != 0 || !status.error.empty() ||
         now - created_us_ > std::int64_t{config_.direct_timeout_ms} * 1000;
}

void Hybrid::transmit(const Route& route, Channel channel) {
  const Side s = route.active == Path::direct ? kDirect : kRelay;
  side(s).send(route.paths[s].id, channel, frame_);
}

void Hybrid::send_sequenced(const Route& route, const ResumableStream::Pending& message) {
  encode_hybrid_sequenced(message.seq, message.bytes, frame_);
  transmit(route, Channel::control);
}

void Hybrid::end_route(ConnectionId id, TransportEventKind kind) {
  Route& route = routes_.at(id);
  drop_path(route, kDirect, true);
  drop_path(route, kRelay, true);
  routes_.erase(id);
  events_.push(kind, id);
}

// ---- hole punching ----

void Hybrid::punch(Route& route) {
  direct_->punch(to_address(route.remote_public));
  ++counters_.punch_rounds;
}

void Hybrid::on_punch(ConnectionId route_id, Route& route, bool answer, std::int64_t now) {
  if (route.remote_public.port == 0 || answer != route.opener || (answer && route.punch_asked_us < 0)) {
    ++counters_.dropped_bad_frame;  // nowhere to punch, or an answer nobody asked for
    return;
  }
  punch(route);
  if (!answer) {  // the acceptor: punched, and says so
    encode_hybrid_punch(true, frame_);
    side(kRelay).send(route.paths[kRelay].id, Channel::control, frame_);
    return;
  }
  route.punch_asked_us = -1;
  if (route.paths[kDirect].id == kNoConnection) dial_direct(route_id, route, to_address(route.remote_public), now);
}

// ---- timers ----

void Hybrid::start_opener(Route& route, std::int64_t now) {
  // What connect() would have stamped had it read a clock, at the first poll after it.
  route.timers_pending = false;
  if (route.active == Path::none) route.pathless_since_us = now;
  route.relay_after_us = now + std::int64_t{config_.direct_timeout_ms} * 1000;
  route.next_direct_us = now + std::int64_t{config_.direct_retry_ms} * 1000;
  route.progress_us = now;
  route.paths[kDirect].started_us = now;  // the dial connect() made
}

void Hybrid::dial_direct(ConnectionId route_id, Route& route, const Address& remote, std::int64_t now) {
  PathState& direct = route.paths[kDirect];
  direct = {};
  try {
    direct.id = direct_->connect(remote);
  } catch (const std::invalid_argument&) {  // a host name that does not resolve: relay only
    direct.id = kNoConnection;
  }
  direct.started_us = now;
  if (direct.id != kNoConnection) bound_[kDirect][direct.id] = route_id;
}

void Hybrid::drive_opener(ConnectionId id, Route& route, std::int64_t now) {
  PathState& direct = route.paths[kDirect];
  const auto direct_timeout_us = std::int64_t{config_.direct_timeout_ms} * 1000;
  if (route.punch_asked_us >= 0 && now - route.punch_asked_us > direct_timeout_us) {
    route.punch_asked_us = -1;  // never answered: the next redial starts over
  }
  if (direct.id == kNoConnection && route.punch_asked_us < 0 && now >= route.next_direct_us) {
    route.next_direct_us = now + std::int64_t{config_.direct_retry_ms} * 1000;
    // On the relay, every other redial goes through the remote's NAT; the rest try the address
    // we were given (a LAN, or a NAT that would not forward to itself).
    const bool can_punch = route.paths[kRelay].ready && route.remote_public.port != 0;
    if (can_punch && route.punch_next) {
      encode_hybrid_punch(false, frame_);
      side(kRelay).send(route.paths[kRelay].id, Channel::control, frame_);
      punch(route);
      route.punch_asked_us = now;
    } else {
      dial_direct(id, route, route.remote_direct, now);
    }
    route.punch_next = !can_punch || !route.punch_next;
  } else if (direct.id != kNoConnection && !direct.connected &&
             now - direct.started_us > direct_timeout_us) {
    drop_path(route, kDirect, true);  // a dial into a blocked path: give up, redial later
  }
  PathState& relay = route.paths[kRelay];
  if (relay.id == kNoConnection && !route.paths[kDirect].ready && route.remote_slot != 0 &&
      now >= route.relay_after_us) {
    relay = {};
    relay.id = relay_->connect(relay_peer_address(route.remote_slot));
    relay.started_us = now;
    if (relay.id != kNoConnection) bound_[kRelay][relay.id] = id;
    route.relay_after_us = now + kRelayRetryUs;
  }
}

void Hybrid::service(std::int64_t now) {
  const auto timeout_us = std::int64_t{config_.direct.timeout_ms} * 1000;
  for (const Side s : {kDirect, kRelay}) {  // incoming paths that never said hello
    for (auto it = unbound_[s].begin(); it != unbound_[s].end();) {
      if (now - it->second.since_us <= timeout_us) {
        ++it;
        continue;
      }
      side(s).disconnect(it->first);
      it = unbound_[s].erase(it);
    }
  }
  std::vector<ConnectionId> expired;
  for (auto& [id, route] : routes_) {
    if (route.opener) {
      drive_opener(id, route, now);
      for (const Side s : {kDirect, kRelay}) {
        const PathState& p = route.paths[s];
        if (p.connected && !p.hello_sent && may_send_hello(now)) send_hello(route, s, false);
      }
    }
    if (route.active == Path::none) {
      if (now - route.pathless_since_us > timeout_us) expired.push_back(id);
      continue;
    }
    if (route.ack_due && now - route.ack_sent_us >= kAckIntervalUs) {
      encode_hybrid_ack(route.stream.next_expected(), frame_);
      transmit(route, Channel::control);
      route.ack_due = false;
      route.ack_sent_us = now;
    }
    if (!route.stream.unacked().empty() && now - route.progress_us > kResendAfterUs) {
      for (const auto& message : route.stream.unacked()) {
        send_sequenced(route, message);
        ++counters_.resends;
      }
      route.progress_us = now;
    }
  }
  for (const ConnectionId id : expired) end_route(id, TransportEventKind::timed_out);
}

}  // namespace transport
}  // namespace shoal
