// SPDX-License-Identifier: MIT
// Game messages: Peer::send_message, and what other peers send, checked against this peer's
// limits (MessageConfig) before it becomes an event. Reliable ones travel on the control
// channel, unreliable ones on the time channel: never on the snapshots' sequenced state
// channel, where a message would take a place in the sequence and make the snapshot it
// overtook stale.
#include <stdexcept>
#include <string>

#include "peer/peer_impl.hpp"
#include "wire/game_message.hpp"

namespace shoal {

namespace {

// Peer::send_message but for its record: its checks, its limit, and the sending.
bool send_game_message(Peer::Impl& m, PeerId to, std::span<const std::uint8_t> bytes, Delivery delivery, Frame frame) {
  const char* what = "shoal::Peer::send_message: ";
  if (m.session.phase != Peer::Impl::Phase::in_match) throw std::logic_error(std::string(what) + "not in a match yet");
  const bool reliable = delivery == Delivery::reliable;
  const std::size_t limit = reliable ? m.messages.config.max_message_bytes
                                     : std::min(m.messages.config.max_message_bytes, kMaxUnreliableMessageBytes);
  if (bytes.size() > limit) {
    throw std::invalid_argument(what + std::to_string(bytes.size()) + " bytes, expected at most " + std::to_string(limit) +
                                (reliable ? " (MessageConfig::max_message_bytes)"
                                          : " (MessageConfig::max_message_bytes, and kMaxUnreliableMessageBytes unreliable)"));
  }
  if (frame < kNoFrame) throw std::invalid_argument(what + std::string("frame ") + std::to_string(frame) + ", expected kNoFrame or >= 0");
  ConnectionId connection = kNoConnection;  // everyone
  if (to != kNoPeer) {
    const session::Member* member = to == m.session.members.self() ? nullptr : m.session.members.find(to);
    if (member == nullptr) {
      throw std::invalid_argument(what + std::string("peer ") + std::to_string(to) +
                                  " is not another live member (kNoPeer sends to everyone)");
    }
    connection = member->connection;
  }
  if (!m.messages.own.take(bytes.size(), m.last_update_us)) return false;
  if (!wire::encode(wire::GameMessage{frame, bytes}, reliable, m.scratch.out)) {
    throw std::logic_error(std::string(what) + "the message did not fit its datagram");  // the limits above prevent it
  }
  m.send_encoded(true, connection);
  ++m.stats.messages_sent;
  return true;
}

}  // namespace

bool Peer::send_message(PeerId to, std::span<const std::uint8_t> bytes, Delivery delivery, Frame frame) {
  Impl& m = *impl_;
  const bool sent = send_game_message(m, to, bytes, delivery, frame);
  // Only a call that returned: one that threw changed nothing.
  if (m.recorder) m.recorder->write().message(to, delivery, frame, bytes, sent);
  return sent;
}

void Peer::Impl::on_game_message(PeerId from, std::span<const std::uint8_t> bytes, std::int64_t now_us) {
  wire::GameMessage message;
  if (auto s = wire::decode(bytes, message); !s) return drop(s.reason());
  const bool reliable = bytes[3] == static_cast<std::uint8_t>(wire::MessageKind::game_message);
  if (message.bytes.size() > messages.config.max_message_bytes) return drop(DropReason::oversize);
  GameMessages::Sender& heard = messages.sender(from);
  // Past its rate or its queue, a message costs this peer nothing more than the count.
  if (heard.queued >= messages.config.max_queued || !heard.rate.take(message.bytes.size(), now_us)) {
    return drop(DropReason::over_limit);
  }
  Event event = make_event(EventKind::message, from, 0, message.frame);
  event.bytes.assign(message.bytes.begin(), message.bytes.end());
  event.reliable = reliable;
  ++heard.queued;
  ++stats.messages_received;
  emit(std::move(event));
}

}  // namespace shoal
