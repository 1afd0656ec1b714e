// SPDX-License-Identifier: MIT
// Over real sockets, a test reads the clock once per round of updates and updates every peer
// at that instant, so that their frames compare directly. But the sockets (and the link
// conditioner, which releases datagrams by the real clock) keep delivering during the round:
// a peer updated late in it, after a stall of the loaded test machine, would take in a pong
// that arrived after the round's instant and stamp it with that instant, as if it had come
// back sooner than it could. Such stamps pull the time-sync estimate ahead, by up to the
// stall; a game reads its clock just before it polls, so it sees nothing like them. The gate
// keeps the round honest: a peer gets, in a round, only what had arrived before its clock was
// read, and the rest in the next round.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include "shoal/forwarding_transport.hpp"

namespace shoal::test {

class ArrivalGate final : public ForwardingTransport {
 public:
  explicit ArrivalGate(std::unique_ptr<Transport> inner) : ForwardingTransport(std::move(inner)) {}

  /// To be called just before the round's clock is read: what has arrived so far is what the
  /// peer gets in this round.
  void open_round() {
    take_arrivals();
    for (Held& h : later_) due_.push_back(std::move(h));
    later_.clear();
  }

  bool poll(TransportEvent& event) override {
    if (due_.empty()) {
      take_arrivals();  // sends what the peer queued; what came is for the next round
      return false;
    }
    current_ = std::move(due_.front());
    due_.pop_front();
    event = {current_.kind, current_.connection, current_.channel, current_.payload};
    return true;
  }

 private:
  struct Held {
    TransportEventKind kind = TransportEventKind::message;
    ConnectionId connection = kNoConnection;
    Channel channel = Channel::control;
    std::vector<std::uint8_t> payload;
  };

  void take_arrivals() {
    for (TransportEvent e; inner().poll(e);) {
      later_.push_back({e.kind, e.connection, e.channel, {e.payload.begin(), e.payload.end()}});
    }
  }

  std::deque<Held> due_, later_;
  Held current_;  // the event poll() last returned: its payload stays valid until the next poll
};

}  // namespace shoal::test
