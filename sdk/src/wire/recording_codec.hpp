// SPDX-License-Identifier: MIT
// The bytes of a peer's recording (shoal/recording.hpp): a header (the config, the game's world
// description, what the peer held before it started), then one record per thing that reached
// the peer from outside, in the order it happened: update times, what its transport answered,
// the game's calls. Layout in RECORDING_SPEC.md. Pure functions on bytes, like the rest of wire/.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "shoal/messages.hpp"
#include "shoal/peer_config.hpp"
#include "shoal/state.hpp"
#include "shoal/transport.hpp"
#include "wire/packet_header.hpp"
#include "wire/user_bytes.hpp"

namespace shoal::wire {

inline constexpr std::uint16_t kRecordingVersion = 5;

enum class RecordKind : std::uint8_t {
  update = 1,          ///< the game called update at time_us
  poll = 2,            ///< the transport gave an event
  poll_empty = 3,      ///< the transport had no event
  connect = 4,         ///< transport connect() returned `connection`
  local_address = 5,   ///< the transport's own address, from now on
  remote_address = 6,  ///< the transport's address of `connection`, from now on
  input = 7,           ///< the game set `input`
  controlled = 8,      ///< the game set `object` as the controlled one
  host = 9,
  join = 10,           ///< join(address)
  leave = 11,          ///< the peer left: nothing after it is replayed
  check = 12,          ///< what the peer held after an update that changed its frames
  end = 13,            ///< the last record: the newest frame's states
  spawn = 14,          ///< the game spawned `object` of `type` in `state` with `spawn_bytes` (version 4)
  remove = 15,         ///< the game removed `object` (version 4)
  message = 16,        ///< the game sent `payload` to `peer` (`delivery`, tagged `frame`): `sent` (version 5)
  events_taken = 17,   ///< the game took `count` events from the peer's queue (version 5)
};

/// Digests (core::Digest) of what the peer did up to a point, to tell a replay's first
/// difference from the recording.
struct RecordedCheck {
  Frame frame = kNoFrame;      ///< the newest frame
  std::uint64_t states = 0;    ///< the newest frame's states, every body
  std::uint64_t events = 0;    ///< every event emitted so far
  std::uint64_t sends = 0;     ///< every message sent so far (connection, channel, bytes)

  bool operator==(const RecordedCheck&) const = default;
};

struct RecordingHeader {
  PeerConfig config;  ///< all but its per-type smoothing rules (they change only what is drawn)
  std::vector<std::uint8_t> world;  ///< the game's description of its world, opaque here
  std::uint64_t secret = 0;         ///< the peer's rejoin secret (random when it was made)
  bool has_controlled = false;
  ObjectId controlled = 0;
  Input input;
  std::uint32_t body_count = 0;
  std::uint64_t world_states = 0;   ///< digest of every body's state when recording began
};

struct Record {
  RecordKind kind = RecordKind::update;
  std::int64_t time_us = 0;                 ///< update
  TransportEventKind event = TransportEventKind::message;  ///< poll
  ConnectionId connection = kNoConnection;  ///< poll, connect, remote_address
  Channel channel = Channel::control;       ///< poll
  std::span<const std::uint8_t> payload;    ///< poll, message: a view into the recording's bytes
  Address address;                          ///< local_address, remote_address, join
  Input input;                              ///< input
  ObjectId object = 0;                      ///< controlled, spawn (the id returned), remove
  std::uint16_t type = 0;                   ///< spawn
  ObjectState state;                        ///< spawn
  SpawnBytes spawn_bytes;                   ///< spawn
  PeerId peer = kNoPeer;                    ///< message: its recipient (kNoPeer: everyone)
  Delivery delivery = Delivery::reliable;   ///< message
  Frame frame = kNoFrame;                   ///< message: its frame tag
  bool sent = false;                        ///< message: what send_message returned
  std::uint64_t count = 0;                  ///< events_taken
  RecordedCheck check;                      ///< check, end
  std::vector<ObjectState> states;          ///< end: every body's, at check.frame
};

/// Appends records to a byte buffer the caller owns (and writes out when it likes).
class RecordingWriter {
 public:
  explicit RecordingWriter(std::vector<std::uint8_t>& out) : out_(out) {}
  void header(const RecordingHeader& header);
  void update(std::int64_t now_us);
  void poll(const TransportEvent* event);  ///< nullptr: the transport had nothing
  void connect(ConnectionId result);
  void local_address(const Address& address);
  void remote_address(ConnectionId connection, const Address& address);
  void input(const Input& input);
  void controlled(ObjectId object);
  void host();
  void join(const Address& address);
  void leave();
  void spawn(std::uint16_t type, const ObjectState& state, std::span<const std::uint8_t> bytes, ObjectId object);
  void remove(ObjectId object);
  void message(PeerId to, Delivery delivery, Frame frame, std::span<const std::uint8_t> bytes, bool sent);
  void events_taken(std::uint64_t count);
  void check(const RecordedCheck& check);
  void end(const RecordedCheck& check, std::span<const ObjectState> states);

 private:
  std::vector<std::uint8_t>& out_;
  std::int64_t last_update_us_ = 0;
};

/// Reads a whole recording back, record by record. Never throws: a truncated or malformed
/// recording gives a failed status (truncated, malformed, bad_magic, unsupported_version).
class RecordingReader {
 public:
  explicit RecordingReader(std::span<const std::uint8_t> bytes) : bytes_(bytes) {}
  DecodeStatus header(RecordingHeader& header);
  /// The next record into `record`; `at_end` when there is none left (status ok).
  DecodeStatus next(Record& record, bool& at_end);
  std::size_t offset() const { return at_; }

 private:
  std::span<const std::uint8_t> bytes_;
  std::size_t at_ = 0;
  std::int64_t last_update_us_ = 0;
};

}  // namespace shoal::wire
