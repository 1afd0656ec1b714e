// SPDX-License-Identifier: MIT
// The peer's part that bounds game messages (Peer::send_message): this peer's own rate, and
// per sender heard from, its rate and how many of its messages wait in the event queue. A
// flood from one sender is dropped at its own limits, so it costs bounded memory and leaves
// the other senders' messages alone. Sending and receiving are in peer_game_messages.cpp.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "session/message_limiter.hpp"
#include "shoal/messages.hpp"
#include "shoal/types.hpp"

namespace shoal {

struct GameMessages {
  explicit GameMessages(const MessageConfig& message_config)
      : config(message_config), own(message_config, kSenderBurstSeconds) {}

  struct Sender {
    PeerId peer;
    session::MessageLimiter rate;
    std::size_t queued = 0;  // its messages in the event queue
  };
  /// The record of `peer`'s messages, made at its first. Peers have ids below 0xFFFF and the
  /// members come and go through the host, so there are as many records as members ever seen.
  Sender& sender(PeerId peer) {
    auto it = std::ranges::find_if(senders, [&](const Sender& s) { return s.peer == peer; });
    if (it == senders.end()) it = senders.insert(senders.end(), Sender{peer, session::MessageLimiter(config, kReceiverBurstSeconds)});
    return *it;
  }
  /// One of `peer`'s messages left the event queue (polled, or pushed out by a newer event).
  void dequeued(PeerId peer) {
    auto it = std::ranges::find_if(senders, [&](const Sender& s) { return s.peer == peer; });
    if (it != senders.end() && it->queued > 0) --it->queued;
  }
  std::size_t queued() const {
    std::size_t n = 0;
    for (const Sender& s : senders) n += s.queued;
    return n;
  }

  static constexpr std::int64_t kSenderBurstSeconds = 1;
  static constexpr std::int64_t kReceiverBurstSeconds = 2;
  MessageConfig config;
  session::MessageLimiter own;  // what this peer sends
  std::vector<Sender> senders;
};

}  // namespace shoal
