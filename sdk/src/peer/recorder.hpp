// SPDX-License-Identifier: MIT
// Writing a peer's recording (Peer::record): everything that reached the peer from outside, in
// order, so that a replay (peer/replay.cpp) can feed a fresh peer the same and compare. The
// peer tells the recorder about the game's calls and its own updates; RecordingTransport,
// which the recorder puts around the peer's transport, tells it what the transport answered.
//
// The bytes collect in a buffer written out about once a second (or when it passes 256 KiB),
// so recording costs a few appends per update and no system call per frame.
#pragma once

#include <cstdio>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/digest.hpp"
#include "shoal/events.hpp"
#include "shoal/forwarding_transport.hpp"
#include "wire/recording_codec.hpp"

namespace shoal {

// What a recording checks, computed the same way by the recorder and by the replay.
void add_to_digest(core::Digest& digest, const Event& event);
void add_to_digest(core::Digest& digest, ConnectionId connection, Channel channel,
                   std::span<const std::uint8_t> bytes);
wire::RecordedCheck make_check(Frame newest, std::span<const ObjectState> states, const core::Digest& events,
                               const core::Digest& sends);

class Recorder {
 public:
  /// Opens `path` (truncating it) and writes the header. Throws std::runtime_error naming the
  /// file when it cannot be written.
  Recorder(const std::string& path, const wire::RecordingHeader& header);
  ~Recorder();
  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;

  /// The writer, for a record of its own; the events the game took since the last record go
  /// first.
  wire::RecordingWriter& write();

  // The game's calls.
  void input(const Input& input);
  /// The game took an event from the peer's queue (Peer::poll_event). The takes between two
  /// records become one record: when the game takes them decides which messages a full
  /// queue drops, so a replay takes them at the same points.
  void event_taken();

  // The peer's own work.
  void update(std::int64_t now_us);
  void event(const Event& event);
  void sent(ConnectionId connection, Channel channel, std::span<const std::uint8_t> bytes);
  /// After an update that changed the peer's frames: what it holds now.
  void check(Frame newest, std::span<const ObjectState> states);
  /// The peer left: what follows is not replayed.
  void leave();
  bool left() const { return left_; }
  /// Writes the end record and closes the file (the destructor does it too).
  void finish(Frame newest, std::span<const ObjectState> states);

 private:
  void flush_if_due(std::int64_t now_us);
  void flush();

  std::string path_;
  std::FILE* file_ = nullptr;
  std::vector<std::uint8_t> buffer_;
  wire::RecordingWriter writer_;
  core::Digest events_, sends_;
  Input last_input_;
  std::uint64_t events_taken_ = 0;  // since the last record
  std::int64_t last_flush_us_ = -1;
  bool left_ = false;
};

/// Records what a peer's transport answers: events, connection ids and addresses.
class RecordingTransport final : public ForwardingTransport {
 public:
  RecordingTransport(std::unique_ptr<Transport> inner, Recorder& recorder)
      : ForwardingTransport(std::move(inner)), recorder_(recorder) {}

  ConnectionId connect(const Address& remote) override;
  bool send(ConnectionId connection, Channel channel, std::span<const std::uint8_t> bytes) override;
  bool poll(TransportEvent& event) override;
  Address local_address() const override;
  Address remote_address(ConnectionId connection) const override;

 private:
  Recorder& recorder_;
  // Addresses are recorded when first asked and whenever they change, not on every call.
  mutable Address local_;
  mutable bool local_known_ = false;
  mutable std::vector<std::pair<ConnectionId, Address>> remotes_;
};

}  // namespace shoal
