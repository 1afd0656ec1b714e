// SPDX-License-Identifier: MIT
// One relay client (transport/relay_client.hpp) driven by a script (relay_script.hpp) of what
// its relay says and what its game asks. The target plays the relay: it reads the key the
// client's join carries and seals scripted messages with the keys the two agree, so sealed
// links, streams and acks are reached as well as the clear messages and forgeries. Whatever
// arrives, the client must neither crash nor trip a sanitizer; it reports each link up once and
// messages only on links that are up, and what it drops from the hop is what the seal refuses.
#include <algorithm>
#include <deque>
#include <memory>
#include <set>
#include <vector>

#include "fuzz_keys.hpp"
#include "fuzz_target.hpp"
#include "relay_script.hpp"
#include "security/key_exchange.hpp"
#include "transport/relay_client.hpp"

using namespace shoal;
using namespace shoal::fuzz;
using namespace shoal::transport;

namespace {

constexpr ConnectionId kRelayConnection = 1;
constexpr int kMaxUpdates = 1000;

// The client's connection to the relay: hands the client what the script queues, and keeps the
// join it sends (its key).
class ScriptedRelay final : public Transport {
 public:
  std::deque<std::pair<TransportEvent, std::vector<std::uint8_t>>> queued;
  std::optional<HopKey> client_key;

  ConnectionId connect(const Address&) override { return kRelayConnection; }
  void disconnect(ConnectionId) override {}
  bool send(ConnectionId, Channel, std::span<const std::uint8_t> bytes) override {
    RelayMessage message;
    DropReason why{};
    if (decode_relay(bytes, message, why) && message.kind == RelayKind::join) client_key = message.join.client_key;
    return true;
  }
  bool poll(TransportEvent& event) override {
    if (queued.empty()) return false;
    held_ = std::move(queued.front().second);
    event = queued.front().first;
    event.payload = held_;
    queued.pop_front();
    return true;
  }
  void wait(int) override {}
  LinkStats stats(ConnectionId) const override { return {}; }
  Address local_address() const override { return {"10.0.0.1", 40000}; }
  Address remote_address(ConnectionId) const override { return {"10.0.0.9", 9000}; }
  std::size_t max_message_size() const override { return 64 * 1024; }
  void set_conditions(const ConditionerConfig&) override {}

  void queue(TransportEventKind kind, Channel channel = Channel::control, std::vector<std::uint8_t> bytes = {}) {
    TransportEvent event;
    event.kind = kind;
    event.connection = kRelayConnection;
    event.channel = channel;
    queued.emplace_back(event, std::move(bytes));
  }

 private:
  std::vector<std::uint8_t> held_;
};

RelayClientConfig config() {
  RelayClientConfig c;
  c.relay = {"127.0.0.1", 9000};
  c.session = "fuzz-relay";
  c.token = "fuzz-token";
  return c;
}

Channel channel_of(std::uint8_t byte) { return static_cast<Channel>(byte % kChannelCount); }

}  // namespace

SHOAL_FUZZ_TARGET(relay_client) {
  InputCursor input(data, size);
  auto owned = std::make_unique<ScriptedRelay>();
  ScriptedRelay& relay = *owned;
  RelayClient client(config(), std::move(owned));
  // The relay's side of the hop: a key pair of its own, as the relay draws one per client.
  static const security::KeyExchange relay_keys;
  std::unique_ptr<security::Envelope> relay_hop;
  std::vector<ConnectionId> links;  // reported or opened, in that order
  std::set<ConnectionId> up;        // reported connected and not ended
  std::vector<std::uint8_t> message, sealed, frame;
  std::int64_t now_us = 1'000'000;
  const auto seal = [&](Channel channel, std::span<const std::uint8_t> inner) {
    sealed.clear();
    encode_sealed_header(sealed);
    if (relay_hop && relay_hop->seal(channel, inner, message)) {
      sealed.insert(sealed.end(), message.begin(), message.end());
    } else {
      sealed.insert(sealed.end(), inner.begin(), inner.end());  // no keys yet: the bytes as an envelope
    }
    relay.queue(TransportEventKind::message, channel, sealed);
  };
  const auto drain = [&] {
    TransportEvent event;
    for (int i = 0; i < 10'000 && client.poll(event, now_us); ++i) {
      switch (event.kind) {
        case TransportEventKind::connected:
          FUZZ_CHECK(!up.contains(event.connection), "a link is reported up once");
          up.insert(event.connection);
          if (std::find(links.begin(), links.end(), event.connection) == links.end()) links.push_back(event.connection);
          break;
        case TransportEventKind::disconnected:
        case TransportEventKind::timed_out: up.erase(event.connection); break;
        case TransportEventKind::message:
          FUZZ_CHECK(up.contains(event.connection), "a message comes on a link that is up");
          break;
      }
    }
  };
  const auto link_at = [&](std::uint8_t index) { return links.empty() ? kNoConnection : links[index % links.size()]; };

  for (int updates = 0; !input.empty() && updates < kMaxUpdates;) {
    switch (static_cast<RelayOp>(input.u8() % kRelayOps)) {
      case RelayOp::update:
        now_us += std::int64_t{input.u8()} * 1000;
        drain();
        ++updates;
        break;
      case RelayOp::connected:
        relay_hop.reset();
        relay.queue(TransportEventKind::connected);
        break;
      case RelayOp::lost:
        relay_hop.reset();
        relay.queue(TransportEventKind::disconnected);
        break;
      case RelayOp::joined: {
        JoinedMessage joined;
        joined.slot = input.u16();
        joined.session = config().session;
        joined.code = session_code(joined.session);
        joined.your_public_endpoint = {0x0A000001, 40000};
        for (int n = input.u8() % 5; n > 0; --n) joined.members.push_back({input.u16(), {0x0A000002, 40001}});
        joined.relay_key = relay_keys.public_key();
        encode_joined(joined, message);
        relay.queue(TransportEventKind::message, Channel::control, message);
        // As the relay would: the hop's keys from the join it last heard.
        relay_hop.reset();
        if (relay.client_key) {
          if (const auto keys = relay_keys.agree(*relay.client_key, false)) relay_hop = std::make_unique<security::Envelope>(*keys);
        }
        break;
      }
      case RelayOp::sealed: {
        const Channel channel = channel_of(input.u8());
        const std::span<const std::uint8_t> inner = input.chunk();
        seal(channel, inner);
        break;
      }
      case RelayOp::raw: {
        const Channel channel = channel_of(input.u8());
        const std::span<const std::uint8_t> bytes = input.chunk();
        relay.queue(TransportEventKind::message, channel, {bytes.begin(), bytes.end()});
        break;
      }
      case RelayOp::open_link: {
        const ConnectionId id = client.connect(relay_peer_address(input.u16()));
        if (id != kNoConnection && std::find(links.begin(), links.end(), id) == links.end()) links.push_back(id);
        break;
      }
      case RelayOp::send: {
        const ConnectionId id = link_at(input.u8());
        const Channel channel = channel_of(input.u8());
        const std::span<const std::uint8_t> bytes = input.chunk();
        (void)client.send(id, channel, bytes);
        break;
      }
      case RelayOp::close_link: client.disconnect(link_at(input.u8())); break;
      case RelayOp::link_frame: {
        const std::uint32_t tag = client.link_tag(link_at(input.u8()));
        const Slot from = input.u16();
        const Channel channel = channel_of(input.u8());
        const auto type = static_cast<LinkType>(1 + input.u8() % 5);
        const std::uint32_t seq = input.u16() | (std::uint32_t{input.u16()} << 16);
        const std::span<const std::uint8_t> payload = input.chunk();
        if (type == LinkType::ack || (type == LinkType::data && channel == Channel::control)) {
          encode_link_seq(type, tag, seq, frame);
        } else {
          encode_link(type, tag, frame);
        }
        frame.insert(frame.end(), payload.begin(), payload.end());
        encode_deliver(from, frame, message);
        const std::vector<std::uint8_t> deliver = message;
        seal(channel, deliver);
        break;
      }
    }
  }
  now_us += 17'000;
  drain();
  const DropCounters drops = client.drops();
  FUZZ_CHECK(drops.total() == drops[DropReason::forged] + drops[DropReason::replayed] + drops[DropReason::truncated] +
                                  drops[DropReason::malformed],
             "the client's drops are what the hop's seal refuses");
  return 0;
}
