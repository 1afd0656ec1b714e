// SPDX-License-Identifier: MIT
// Control-channel messages (membership, ownership, desync checksums) and time-channel messages
// (clock sync), as plain structs. Serialised with Cereal's portable binary archive inside
// control_messages.cpp only; layouts and limits are in sdk/src/wire/SPEC.md.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "shoal/simulation.hpp"
#include "shoal/state.hpp"
#include "shoal/types.hpp"
#include "wire/encoding_settings.hpp"
#include "wire/packet_header.hpp"
#include "wire/user_bytes.hpp"

namespace shoal::wire {

/// Longest session name or host string accepted (a DNS name is at most 253 characters).
inline constexpr std::size_t kMaxNameLength = 255;

/// Joiner -> host: asks to join `session`; the joiner accepts mesh connections on listen_port.
struct JoinRequest {
  std::string session;
  std::uint16_t listen_port = 0;
  PeerId rejoin_id = kNoPeer;   ///< the id this peer had, when it comes back after a drop
  std::uint64_t secret = 0;     ///< chosen by the joiner; proves a rejoin is the same peer
  EncodingSettings encoding{};   ///< the joiner's; the host refuses a join whose settings differ

  bool operator==(const JoinRequest&) const = default;
};

/// A peer of the match as the host knows it: where the joiner can reach it.
struct Member {
  PeerId id = kNoPeer;
  std::string host;
  std::uint16_t port = 0;

  bool operator==(const Member&) const = default;
};

/// A single-use invitation (its key, as the security layer names it) and the one peer it
/// admitted: part of the membership every admitting member holds.
struct UsedInvitation {
  std::array<std::uint8_t, 32> key{};
  PeerId peer = kNoPeer;

  bool operator==(const UsedInvitation&) const = default;
};

/// Host -> joiner: the id assigned to the joiner and the peers it must connect to.
struct Welcome {
  PeerId your_id = kNoPeer;
  Frame host_frame = kNoFrame;  ///< the host's current frame, the joiner's first estimate
  std::vector<Member> members;
  PeerId default_owner = kNoPeer;
  EncodingSettings encoding{}; ///< the host's, checked again by the joiner
  /// Every single-use invitation the session has admitted a peer with (version 14), so that
  /// any member that admits joiners later refuses a second peer with one of them.
  std::vector<UsedInvitation> used_invitations;

  bool operator==(const Welcome&) const = default;
};

/// Sent first on every new mesh connection, so each side knows which peer it is talking to.
struct Hello {
  PeerId id = kNoPeer;
  std::string session;
  std::uint64_t secret = 0;  ///< the joiner's secret (JoinRequest), checked on a rejoin
  EncodingSettings encoding{}; ///< the sender's; a mesh link whose settings differ is refused

  bool operator==(const Hello&) const = default;
};

struct PeerLeft {
  PeerId id = kNoPeer;

  bool operator==(const PeerLeft&) const = default;
};

/// One object's change of owner. `sequence` orders the changes of one object; `author` is the
/// peer that made the change (not always the sender: changes are relayed on); `frame` is the
/// frame from which the new owner's state counts. The same struct serves the ownership table
/// (authority/ownership.hpp), which works in body indices: `body` is never sent, and the peer
/// fills in whichever of `object` and `body` a change lacks.
struct OwnershipChange {
  ObjectId object = 0;
  PeerId new_owner = kNoPeer;
  std::uint32_t sequence = 0;
  PeerId author = kNoPeer;
  Frame frame = kNoFrame;
  BodyIndex body = 0;  ///< not sent: the object's body on this peer

  bool operator==(const OwnershipChange&) const = default;
};

/// Ownership claims and releases; or, with `records` set, the current ownership records of the
/// objects the sender owns, sent once to a newcomer that missed the changes made before it came.
struct Ownership {
  std::vector<OwnershipChange> changes;
  bool records = false;

  bool operator==(const Ownership&) const = default;
};

struct ObjectHash {
  ObjectId object = 0;
  std::uint32_t hash = 0;

  bool operator==(const ObjectHash&) const = default;
};

/// Hashes of objects' states at one frame, compared by receivers to detect desyncs.
struct Checksum {
  Frame frame = kNoFrame;
  std::vector<ObjectHash> objects;

  bool operator==(const Checksum&) const = default;
};

/// Time sync request: the sender's clock, in microseconds, echoed back by the Pong.
/// A newcomer asks each peer for the state of everything that peer owns.
struct BaselineRequest {
  bool operator==(const BaselineRequest&) const = default;
};

struct BaselineObject {
  ObjectId object = 0;
  ObjectState state;
  UserBytes user_bytes;  ///< the object's, when its type has any (the receiver checks the size)

  bool operator==(const BaselineObject&) const = default;
};

/// The states of (some of) the objects the sender owns at one frame, on the reliable channel;
/// a full baseline may take several, and the last one says so (it may list nothing).
struct Baseline {
  Frame frame = kNoFrame;
  std::vector<BaselineObject> objects;
  bool last = false;

  bool operator==(const Baseline&) const = default;
};

/// An object that appears during play: from `frame` on it is in spawn slot `slot` (counted
/// from the first slot), of game type `type`, in `state` at that frame, with the spawner's
/// `bytes` (version 12). `object` carries the spawning peer (kSpawnedIdBit | peer << 16 | sequence).
struct Spawn {
  Frame frame = kNoFrame;
  ObjectId object = 0;
  std::uint32_t slot = 0;
  std::uint16_t type = 0;
  ObjectState state;
  SpawnBytes bytes;  ///< 0..kMaxSpawnBytes (the receiver checks SpawnConfig::max_spawn_bytes)

  bool operator==(const Spawn&) const = default;
};

/// An object that is gone from `frame` on (its owner removed it).
struct Removal {
  Frame frame = kNoFrame;
  ObjectId object = 0;

  bool operator==(const Removal&) const = default;
};

/// Spawns and removals, on the reliable channel, in the order they were made; or, with
/// `live_set`, the objects alive at the sender, for a newcomer (their frames are their spawn
/// frames, their states those of the newest frame the sender simulated), in as many messages as
/// it takes and then one that lists none.
struct WorldChanges {
  std::vector<Spawn> spawns;
  std::vector<Removal> removals;
  bool live_set = false;

  bool operator==(const WorldChanges&) const = default;
};

struct Ping {
  std::int64_t sent_us = 0;

  bool operator==(const Ping&) const = default;
};

/// Time sync's answer. The timeline is the host's "wall" clock (its local time in frames at
/// the nominal rate) mapped through the newest pace segment: from pace_wall on, the match frame
/// is pace_match + (wall - pace_wall) * pace_rate (session/pace.hpp).
struct Pong {
  std::int64_t echoed_sent_us = 0;
  double wall_frame = 0;  ///< the host's wall time when answering, as the responder knows it; < 0: unknown
  double pace_wall = 0;   ///< the newest pace segment the responder knows
  double pace_match = 0;
  float pace_rate = 1.0f;  ///< (0, 1]
  std::uint8_t lag_frames = 0;  ///< frames the responder was due to simulate and had not, lately (saturates)

  bool operator==(const Pong&) const = default;
};

/// Writes header + body into `out` (replacing its contents). Returns false, leaving `out`
/// empty, when a string is longer than kMaxNameLength or the datagram would exceed
/// max_datagram_size() for the kind: the caller must split or shorten what it sends.
[[nodiscard]] bool encode(const JoinRequest& message, std::vector<std::uint8_t>& out);
[[nodiscard]] bool encode(const Welcome& message, std::vector<std::uint8_t>& out);
[[nodiscard]] bool encode(const Hello& message, std::vector<std::uint8_t>& out);
[[nodiscard]] bool encode(const PeerLeft& message, std::vector<std::uint8_t>& out);
[[nodiscard]] bool encode(const Ownership& message, std::vector<std::uint8_t>& out);
[[nodiscard]] bool encode(const Checksum& message, std::vector<std::uint8_t>& out);
[[nodiscard]] bool encode(const BaselineRequest& message, std::vector<std::uint8_t>& out);
[[nodiscard]] bool encode(const Baseline& message, std::vector<std::uint8_t>& out);
[[nodiscard]] bool encode(const WorldChanges& message, std::vector<std::uint8_t>& out);
[[nodiscard]] bool encode(const Ping& message, std::vector<std::uint8_t>& out);
[[nodiscard]] bool encode(const Pong& message, std::vector<std::uint8_t>& out);

/// Decodes a whole datagram (header included) of the message's kind. Never throws; on
/// failure `message` holds unspecified but valid values. A datagram of another kind fails
/// with unknown_kind, so callers dispatch on read_header() first.
DecodeStatus decode(std::span<const std::uint8_t> datagram, JoinRequest& message);
DecodeStatus decode(std::span<const std::uint8_t> datagram, Welcome& message);
DecodeStatus decode(std::span<const std::uint8_t> datagram, Hello& message);
DecodeStatus decode(std::span<const std::uint8_t> datagram, PeerLeft& message);
DecodeStatus decode(std::span<const std::uint8_t> datagram, Ownership& message);
DecodeStatus decode(std::span<const std::uint8_t> datagram, Checksum& message);
DecodeStatus decode(std::span<const std::uint8_t> datagram, BaselineRequest& message);
DecodeStatus decode(std::span<const std::uint8_t> datagram, Baseline& message);
DecodeStatus decode(std::span<const std::uint8_t> datagram, WorldChanges& message);
DecodeStatus decode(std::span<const std::uint8_t> datagram, Ping& message);
DecodeStatus decode(std::span<const std::uint8_t> datagram, Pong& message);

}  // namespace shoal::wire
