// SPDX-License-Identifier: MIT
// The input of the stateful `peer` target: a script of what one Peer's transport hands it and
// when it updates. The fuzzer mutates scripts; the seed corpus holds scripts recorded from a
// real in-process match (ScriptRecorder), handshakes included, so mutations start from traffic
// that gets all the way into a match.
//
// Script: one byte of setup (bit 0: the peer joins rather than hosts; bits 1-2: which ball it
// drives), then operations, each an op byte (taken mod 5) and its fields:
//   0 update       u8 milliseconds: time advances that much, then Peer::update_at
//   1 connected    u8 connection
//   2 disconnected u8 connection
//   3 timed_out    u8 connection
//   4 message      u8 connection, u8 channel (mod 3), u16 length, that many bytes
// Connections are numbered by the script: those the peer opens get 1, 2, 3... in the order it
// calls connect(); those the remote opened, kFirstIncoming onwards.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <vector>

#include "shoal/forwarding_transport.hpp"
#include "shoal/transport.hpp"

namespace shoal::fuzz {

enum class ScriptOp : std::uint8_t { update = 0, connected = 1, disconnected = 2, timed_out = 3, message = 4 };
inline constexpr std::uint8_t kScriptOps = 5;
inline constexpr ConnectionId kFirstIncoming = 128;

/// The setup byte.
inline std::uint8_t script_setup(bool joins, int ball) {
  return static_cast<std::uint8_t>((joins ? 1 : 0) | ((ball & 3) << 1));
}

/// The peer's transport under the script: connect() numbers connections in call order, poll()
/// hands out what the script queued, sends go nowhere.
class ScriptTransport final : public Transport {
 public:
  void queue(const TransportEvent& event) { events_.push_back(event); }

  ConnectionId connect(const Address&) override { return next_connection_++; }
  void disconnect(ConnectionId) override {}
  bool send(ConnectionId, Channel, std::span<const std::uint8_t>) override { return true; }
  bool poll(TransportEvent& event) override;
  void wait(int) override {}
  LinkStats stats(ConnectionId) const override { return {}; }
  Address local_address() const override { return {"10.0.0.1", 40000}; }
  /// A fixed address per connection, as a joiner's welcome would list it.
  Address remote_address(ConnectionId connection) const override;
  std::size_t max_message_size() const override { return 64 * 1024; }
  void set_conditions(const ConditionerConfig&) override {}

 private:
  std::deque<TransportEvent> events_;
  ConnectionId next_connection_ = 1;
};

/// Around a real transport: writes every event it gives its peer to `script`, connections
/// renumbered as above. The match calls update() before each of the peer's updates.
class ScriptRecorder final : public ForwardingTransport {
 public:
  ScriptRecorder(std::unique_ptr<Transport> inner, std::vector<std::uint8_t>& script, bool joins, int ball);

  /// The peer updates now, `elapsed_ms` after its previous update.
  void update(int elapsed_ms);

  ConnectionId connect(const Address& remote) override;
  bool poll(TransportEvent& event) override;

 private:
  std::uint8_t number_of(ConnectionId real);

  std::vector<std::uint8_t>& script_;
  std::map<ConnectionId, std::uint8_t> numbers_;
  std::uint8_t next_opened_ = 1;
  std::uint8_t next_incoming_ = kFirstIncoming;
};

}  // namespace shoal::fuzz
