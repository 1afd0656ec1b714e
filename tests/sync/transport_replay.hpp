// Recording what a peer's transport gave it, and giving a fresh peer exactly that again: real
// ENet cannot deliver the same packets twice, so tests that compare two runs of one peer over
// ENet replay the first run's deliveries into the second.
#pragma once

#include <map>
#include <memory>
#include <vector>

#include "shoal/forwarding_transport.hpp"
#include "shoal/peer.hpp"
#include "wire/control_messages.hpp"

namespace shoal::test {

/// What a transport told its peer, and what the peer sent, in call order.
struct TransportLog {
  struct Poll {
    bool got = false;
    TransportEventKind kind = TransportEventKind::message;
    ConnectionId connection = kNoConnection;
    Channel channel = Channel::control;
    std::vector<std::uint8_t> payload;
  };
  struct Sent {
    ConnectionId connection = kNoConnection;
    std::vector<std::uint8_t> bytes;
    bool operator==(const Sent&) const = default;
  };
  std::vector<Poll> polls;
  std::vector<ConnectionId> connects;
  std::map<ConnectionId, Address> remotes;
  Address local;
  std::vector<Sent> sent;  ///< all but the messages carrying the peer's random rejoin secret

  void log_sent(ConnectionId c, std::span<const std::uint8_t> bytes) {
    const auto kind = static_cast<wire::MessageKind>(bytes.size() > 3 ? bytes[3] : 0);
    if (kind == wire::MessageKind::join_request || kind == wire::MessageKind::hello) return;
    sent.push_back({c, {bytes.begin(), bytes.end()}});
  }
};

class RecordingTransport final : public ForwardingTransport {
 public:
  RecordingTransport(std::unique_ptr<Transport> inner, TransportLog& log)
      : ForwardingTransport(std::move(inner)), log_(log) {}
  ConnectionId connect(const Address& remote) override {
    return log_.connects.emplace_back(inner().connect(remote));
  }
  bool send(ConnectionId c, Channel channel, std::span<const std::uint8_t> bytes) override {
    log_.log_sent(c, bytes);
    return inner().send(c, channel, bytes);
  }
  bool poll(TransportEvent& e) override {
    TransportLog::Poll& p = log_.polls.emplace_back();
    p.got = inner().poll(e);
    if (p.got) p = {true, e.kind, e.connection, e.channel, {e.payload.begin(), e.payload.end()}};
    return p.got;
  }
  Address local_address() const override { return log_.local = ForwardingTransport::local_address(); }
  Address remote_address(ConnectionId c) const override {
    return log_.remotes[c] = ForwardingTransport::remote_address(c);
  }

 private:
  TransportLog& log_;
};

/// Gives a peer exactly the answers a RecordingTransport logged; logs what the peer sends.
class ReplayTransport final : public Transport {
 public:
  ReplayTransport(const TransportLog& recorded, TransportLog& replayed)
      : recorded_(recorded), replayed_(replayed) {}
  ConnectionId connect(const Address&) override {
    const std::size_t i = replayed_.connects.size();
    const ConnectionId id = i < recorded_.connects.size() ? recorded_.connects[i] : kNoConnection;
    return replayed_.connects.emplace_back(id);
  }
  void disconnect(ConnectionId) override {}
  bool send(ConnectionId c, Channel, std::span<const std::uint8_t> bytes) override {
    replayed_.log_sent(c, bytes);
    return true;
  }
  bool poll(TransportEvent& e) override {
    const std::size_t i = replayed_.polls.size();
    replayed_.polls.emplace_back();  // counts the calls; past the recording, nothing arrives
    if (i >= recorded_.polls.size() || !recorded_.polls[i].got) return false;
    const TransportLog::Poll& p = recorded_.polls[i];
    e = {p.kind, p.connection, p.channel, p.payload};
    return true;
  }
  void wait(int) override {}
  LinkStats stats(ConnectionId) const override { return {}; }
  Address local_address() const override { return recorded_.local; }
  Address remote_address(ConnectionId c) const override {
    const auto found = recorded_.remotes.find(c);
    return found == recorded_.remotes.end() ? Address{"", 0} : found->second;
  }
  std::size_t max_message_size() const override { return 256 * 1024; }
  void set_conditions(const ConditionerConfig&) override {}

 private:
  const TransportLog& recorded_;
  TransportLog& replayed_;
};

/// What one peer simulated and drew after each of its updates.
struct Trace {
  std::vector<std::int64_t> update_us;
  std::vector<ObjectState> states;
  std::vector<VisualState> visuals;

  void look(const Peer& peer, std::int64_t now_us, const std::vector<ObjectId>& ids) {
    update_us.push_back(now_us);
    for (ObjectId id : ids) {
      states.push_back(peer.state(id));
      visuals.push_back(peer.visual(id));
    }
  }
};

}  // namespace shoal::test
