// SPDX-License-Identifier: MIT
// In-process network: see shoal/memory_network.hpp.
//
// Every datagram travels on a directed link (from port -> to port). Unreliable channels pass
// through the link's seeded LinkConditioner, so they see exactly the impairments ENet traffic
// sees. The reliable channel models what ENet's retransmission achieves: each "lost" copy adds a
// retransmission delay, and delivery never overtakes an earlier reliable message on the link.
#include "shoal/memory_network.hpp"

#include <algorithm>
#include <deque>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/random.hpp"
#include "transport/event_queue.hpp"
#include "transport/link_conditioner.hpp"

namespace shoal {
namespace {

constexpr std::size_t kMaxMessageSize = 256 * 1024;
constexpr std::int64_t kRetransmitFloorUs = 30'000;  // ENet never retries faster than this

enum class Kind : std::uint8_t { connect, accept, disconnect, message };

// Unreliable datagrams carry a small prefix through the conditioner: kind, channel, sequence.
constexpr std::size_t kPrefix = 6;

struct Reliable {
  std::int64_t due_us = 0;
  Kind kind = Kind::message;
  std::vector<std::uint8_t> bytes;
};

struct Link {
  LinkConditions conditions;
  transport::LinkConditioner unreliable;
  std::deque<Reliable> reliable;
  std::int64_t last_reliable_due_us = 0;
  std::uint32_t next_sequence = 0;
  bool blocked = false;

  Link(const LinkConditions& c, std::uint64_t seed) : conditions(c), unreliable(c, seed) {}
};

class MemoryEndpoint;

}  // namespace

struct MemoryNetwork::Impl {
  std::int64_t now_us = 0;
  std::uint64_t seed;
  core::Random random;
  LinkConditions default_conditions;
  std::map<std::pair<std::uint16_t, std::uint16_t>, Link> links;
  std::map<std::uint16_t, MemoryEndpoint*> endpoints;
  std::uint16_t next_port = 1;

  explicit Impl(std::uint64_t s) : seed(s), random(s) {}

  Link& link(std::uint16_t from, std::uint16_t to) {
    const auto key = std::make_pair(from, to);
    auto it = links.find(key);
    if (it == links.end()) {
      // Each link gets its own stream derived from the network seed, so adding a link does not
      // shift the impairments of the others.
      const std::uint64_t stream = (std::uint64_t{from} << 16) | to;
      it = links.try_emplace(key, default_conditions, core::Random::derive_seed(seed, stream)).first;
    }
    return it->second;
  }

  bool alive(std::uint16_t port) const { return endpoints.count(port) != 0; }

  void send_reliable(std::uint16_t from, std::uint16_t to, Kind kind,
                     std::span<const std::uint8_t> bytes) {
    Link& l = link(from, to);
    const LinkConditions& c = l.conditions;
    const double jitter = c.jitter_ms * (2.0 * random.next_unit() - 1.0);
    std::int64_t due = now_us + static_cast<std::int64_t>((c.latency_ms + jitter) * 1000.0);
    const std::int64_t retransmit =
        std::max<std::int64_t>(kRetransmitFloorUs, static_cast<std::int64_t>(c.latency_ms * 2500.0));
    for (int tries = 0; tries < 32 && random.next_unit() < c.loss; ++tries) due += retransmit;
    due = std::max(due, l.last_reliable_due_us);  // reliable-ordered: never overtake
    l.last_reliable_due_us = due;
    l.reliable.push_back({due, kind, {bytes.begin(), bytes.end()}});
  }
};

namespace {

struct Connection {
  std::uint16_t remote_port = 0;
  bool connected = false;
  std::int64_t last_heard_us = 0;
  std::uint32_t last_sequence_in = 0;
  bool any_sequenced_in = false;
  // Per-second counters for stats().
  std::uint64_t bytes_out = 0, bytes_in = 0, packets_out = 0, packets_in = 0;
  LinkStats published;
  std::int64_t window_start_us = 0;
};

class MemoryEndpoint final : public Transport {
 public:
  MemoryEndpoint(std::shared_ptr<MemoryNetwork::Impl> net, std::uint16_t port,
                 std::uint32_t timeout_ms)
      : net_(std::move(net)), port_(port), timeout_us_(std::int64_t{timeout_ms} * 1000) {
    net_->endpoints[port_] = this;
  }
  ~MemoryEndpoint() override { net_->endpoints.erase(port_); }

  ConnectionId connect(const Address& remote) override {
    const ConnectionId id = new_connection(remote.port);
    net_->send_reliable(port_, remote.port, Kind::connect, {});
    return id;
  }

  void disconnect(ConnectionId id) override {
    auto it = connections_.find(id);
    if (it == connections_.end()) return;
    net_->send_reliable(port_, it->second.remote_port, Kind::disconnect, {});
    pending_.push(TransportEventKind::disconnected, id);
    forget(it);
  }

  bool send(ConnectionId id, Channel channel, std::span<const std::uint8_t> bytes) override {
    auto it = connections_.find(id);
    if (it == connections_.end() || !it->second.connected || bytes.size() > kMaxMessageSize ||
        !net_->alive(port_)) {  // a crashed endpoint is silent
      return false;
    }
    Connection& c = it->second;
    c.bytes_out += bytes.size();
    ++c.packets_out;
    if (channel == Channel::control) {
      net_->send_reliable(port_, c.remote_port, Kind::message, bytes);
      return true;
    }
    Link& l = net_->link(port_, c.remote_port);
    const std::uint32_t seq = l.next_sequence++;
    scratch_.assign(kPrefix, 0);
    scratch_[0] = static_cast<std::uint8_t>(Kind::message);
    scratch_[1] = static_cast<std::uint8_t>(channel);
    for (int i = 0; i < 4; ++i) scratch_[2 + i] = static_cast<std::uint8_t>(seq >> (8 * i));
    scratch_.insert(scratch_.end(), bytes.begin(), bytes.end());
    if (!l.blocked) l.unreliable.submit(net_->now_us, scratch_);
    return true;
  }

  bool poll(TransportEvent& event) override {
    if (pending_.empty()) gather();
    return pending_.pop(event);
  }

  void wait(int) override {}  // time is the caller's: nothing to wait for

  LinkStats stats(ConnectionId id) const override {
    auto it = connections_.find(id);
    return it == connections_.end() ? LinkStats{} : it->second.published;
  }
  Address local_address() const override { return {"mem", port_}; }
  Address remote_address(ConnectionId id) const override {
    auto it = connections_.find(id);
    return it == connections_.end() ? Address{} : Address{"mem", it->second.remote_port};
  }
  std::size_t max_message_size() const override { return kMaxMessageSize; }
  void set_conditions(const ConditionerConfig& config) override {
    // Outbound of this endpoint, inbound towards it: both are links of the shared network.
    for (auto& [key, link] : net_->links) {
      if (key.first == port_) { link.conditions = config.outbound; link.unreliable.set_conditions(config.outbound); }
      if (key.second == port_) { link.conditions = config.inbound; link.unreliable.set_conditions(config.inbound); }
    }
  }

 private:
  ConnectionId new_connection(std::uint16_t remote_port) {
    const ConnectionId id = next_id_++;
    Connection c;
    c.remote_port = remote_port;
    c.last_heard_us = net_->now_us;
    c.window_start_us = net_->now_us;
    connections_[id] = c;
    by_port_[remote_port] = id;
    return id;
  }

  void forget(std::map<ConnectionId, Connection>::iterator it) {
    by_port_.erase(it->second.remote_port);
    connections_.erase(it);
  }

  void received(std::uint16_t from, Kind kind, Channel channel, std::span<const std::uint8_t> bytes) {
    auto found = by_port_.find(from);
    if (kind == Kind::connect) {
      if (found != by_port_.end()) return;  // duplicate connect
      const ConnectionId id = new_connection(from);
      connections_[id].connected = true;
      net_->send_reliable(port_, from, Kind::accept, {});
      pending_.push(TransportEventKind::connected, id);
      return;
    }
    if (found == by_port_.end()) return;  // traffic for a connection we no longer have
    auto it = connections_.find(found->second);
    Connection& c = it->second;
    c.last_heard_us = net_->now_us;
    switch (kind) {
      case Kind::accept:
        if (!c.connected) {
          c.connected = true;
          pending_.push(TransportEventKind::connected, it->first);
        }
        return;
      case Kind::disconnect:
        pending_.push(TransportEventKind::disconnected, it->first);
        forget(it);
        return;
      default:
        break;
    }
    if (!c.connected) return;
    c.bytes_in += bytes.size();
    ++c.packets_in;
    pending_.push(TransportEventKind::message, it->first, channel, bytes);
  }

  // Moves everything due by now into pending_, then checks timeouts and refreshes stats.
  void gather() {
    if (!net_->alive(port_)) return;  // a crashed endpoint hears nothing
    const std::int64_t now = net_->now_us;
    for (auto& [key, link] : net_->links) {
      if (key.second != port_) continue;
      const std::uint16_t from = key.first;
      while (!link.reliable.empty() && !link.blocked && link.reliable.front().due_us <= now) {
        Reliable r = std::move(link.reliable.front());
        link.reliable.pop_front();
        received(from, r.kind, Channel::control, r.bytes);
      }
      while (link.unreliable.release(now, datagram_)) {
        if (datagram_.size() < kPrefix) continue;
        const auto channel = static_cast<Channel>(datagram_[1]);
        std::uint32_t seq = 0;
        for (int i = 0; i < 4; ++i) seq |= std::uint32_t{datagram_[2 + i]} << (8 * i);
        auto found = by_port_.find(from);
        if (found == by_port_.end()) continue;
        Connection& c = connections_[found->second];
        if (channel == Channel::state) {  // sequenced: a stale datagram is dropped, as ENet does
          if (c.any_sequenced_in && static_cast<std::int32_t>(seq - c.last_sequence_in) <= 0) continue;
          c.any_sequenced_in = true;
          c.last_sequence_in = seq;
        }
        received(from, Kind::message, channel,
                 std::span<const std::uint8_t>(datagram_).subspan(kPrefix));
      }
    }
    for (auto it = connections_.begin(); it != connections_.end();) {
      Connection& c = it->second;
      const bool reachable = net_->alive(c.remote_port) &&
                             !net_->link(port_, c.remote_port).blocked &&
                             !net_->link(c.remote_port, port_).blocked;
      if (reachable) c.last_heard_us = now;
      if (now - c.last_heard_us > timeout_us_) {
        pending_.push(TransportEventKind::timed_out, it->first);
        by_port_.erase(c.remote_port);
        it = connections_.erase(it);
        continue;
      }
      if (now - c.window_start_us >= 1'000'000) publish(c, now);
      ++it;
    }
  }

  void publish(Connection& c, std::int64_t now) {
    const float seconds = static_cast<float>(now - c.window_start_us) / 1e6f;
    const LinkConditions& out = net_->link(port_, c.remote_port).conditions;
    const LinkConditions& in = net_->link(c.remote_port, port_).conditions;
    c.published.rtt_ms = out.latency_ms + in.latency_ms;
    c.published.rtt_variance_ms = (out.jitter_ms + in.jitter_ms) * 0.5f;
    c.published.packet_loss = out.loss;
    c.published.bytes_out_per_s = static_cast<float>(c.bytes_out) / seconds;
    c.published.bytes_in_per_s = static_cast<float>(c.bytes_in) / seconds;
    c.published.packets_out_per_s = static_cast<float>(c.packets_out) / seconds;
    c.published.packets_in_per_s = static_cast<float>(c.packets_in) / seconds;
    c.bytes_out = c.bytes_in = c.packets_out = c.packets_in = 0;
    c.window_start_us = now;
  }

  std::shared_ptr<MemoryNetwork::Impl> net_;
  std::uint16_t port_;
  std::int64_t timeout_us_;
  ConnectionId next_id_ = 1;
  std::map<ConnectionId, Connection> connections_;
  std::map<std::uint16_t, ConnectionId> by_port_;
  transport::EventQueue pending_;
  std::vector<std::uint8_t> scratch_, datagram_;
};

}  // namespace

MemoryNetwork::MemoryNetwork(std::uint64_t seed) : impl_(std::make_shared<Impl>(seed)) {}
MemoryNetwork::~MemoryNetwork() = default;

std::unique_ptr<Transport> MemoryNetwork::create_endpoint(std::uint16_t port,
                                                          std::uint32_t timeout_ms) {
  if (port == 0) {
    while (impl_->endpoints.count(impl_->next_port) != 0) ++impl_->next_port;
    port = impl_->next_port++;
  } else if (impl_->endpoints.count(port) != 0) {
    throw std::invalid_argument("MemoryNetwork: port " + std::to_string(port) +
                                " already has an endpoint; pass another port or 0 for any");
  }
  return std::make_unique<MemoryEndpoint>(impl_, port, timeout_ms);
}

void MemoryNetwork::set_time_us(std::int64_t now_us) {
  impl_->now_us = std::max(impl_->now_us, now_us);  // time never runs backwards
}
std::int64_t MemoryNetwork::time_us() const { return impl_->now_us; }

void MemoryNetwork::set_conditions(const LinkConditions& conditions) {
  impl_->default_conditions = conditions;
  for (auto& [key, link] : impl_->links) {
    link.conditions = conditions;
    link.unreliable.set_conditions(conditions);
  }
}

void MemoryNetwork::set_conditions(std::uint16_t from, std::uint16_t to,
                                   const LinkConditions& conditions) {
  Link& l = impl_->link(from, to);
  l.conditions = conditions;
  l.unreliable.set_conditions(conditions);
}

void MemoryNetwork::set_blocked(std::uint16_t a, std::uint16_t b, bool blocked) {
  impl_->link(a, b).blocked = blocked;
  impl_->link(b, a).blocked = blocked;
}

void MemoryNetwork::crash(std::uint16_t port) {
  auto it = impl_->endpoints.find(port);
  if (it != impl_->endpoints.end()) impl_->endpoints.erase(it);  // silent from now on
}

}  // namespace shoal
