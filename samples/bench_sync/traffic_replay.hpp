// Running one peer of a match again, alone: RecordingTransport keeps everything the peer's
// transport answered (events with their bytes, connection ids, addresses), and ReplayTransport
// gives the same answers to a fresh peer with its own copy of the world. Fed the same inputs at
// the same times, the fresh peer does exactly the work the original did, but in a process that
// holds no other peer's world: what the benchmark's figures would be with one peer per
// machine, as in a real match.
//
// The replayed peer's sends are checked against the recorded ones (connection, channel, size);
// the first difference throws, so figures are never taken from a run that diverged.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <vector>

#include "shoal/forwarding_transport.hpp"

namespace shoal::bench {

struct TrafficLog {
  enum class Call : std::uint8_t { connect, poll, send, local_address, remote_address };
  struct Entry {
    Call call = Call::poll;
    bool result = false;  // poll: an event came; send: accepted
    TransportEventKind kind = TransportEventKind::message;
    ConnectionId connection = kNoConnection;
    Channel channel = Channel::control;
    std::size_t offset = 0, size = 0;  // poll: payload in `bytes`; send: its size
    Address address;
  };
  std::vector<Entry> entries;
  std::vector<std::uint8_t> bytes;  // every polled payload, one after another
  std::size_t max_message_size = 0;

  /// Room for a long match up front, its pages touched, so that recording adds neither
  /// reallocations nor page faults to the recorded peer's timed updates.
  void reserve() {
    entries.resize(1u << 20);
    entries.clear();
    bytes.resize(64u << 20);
    bytes.clear();
  }
};

class RecordingTransport final : public ForwardingTransport {
 public:
  RecordingTransport(std::unique_ptr<Transport> inner, TrafficLog& log);

  ConnectionId connect(const Address& remote) override;
  bool send(ConnectionId connection, Channel channel, std::span<const std::uint8_t> bytes) override;
  bool poll(TransportEvent& event) override;
  Address local_address() const override;
  Address remote_address(ConnectionId connection) const override;

 private:
  TrafficLog& log_;
};

/// Thrown when the replayed peer asks its transport something the recorded one did not.
struct ReplayDiverged : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class ReplayTransport final : public Transport {
 public:
  explicit ReplayTransport(const TrafficLog& log) : log_(log) {}

  ConnectionId connect(const Address& remote) override;
  void disconnect(ConnectionId) override {}
  bool send(ConnectionId connection, Channel channel, std::span<const std::uint8_t> bytes) override;
  bool poll(TransportEvent& event) override;
  void wait(int) override {}
  LinkStats stats(ConnectionId) const override { return {}; }
  Address local_address() const override;
  Address remote_address(ConnectionId connection) const override;
  std::size_t max_message_size() const override { return log_.max_message_size; }
  void set_conditions(const ConditionerConfig&) override {}

  /// Whether every recorded call has been replayed.
  bool finished() const { return next_ == log_.entries.size(); }

 private:
  const TrafficLog::Entry& take(TrafficLog::Call call, const char* what) const;

  const TrafficLog& log_;
  mutable std::size_t next_ = 0;  // address queries are const in the interface
};

}  // namespace shoal::bench
