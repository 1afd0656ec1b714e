// SPDX-License-Identifier: MIT
// What relay clients and the relay server say to each other over their ENet connection, and
// what two relay clients say to each other inside forwarded payloads. Pure functions on bytes:
// every decoder rejects truncated, oversized and impossible input with a DropReason, so the
// relay can be fuzzed and never trusts a client.
//
// Relay messages:  [magic 0xB7][version][kind][fields...], integers little-endian.
// The relay never looks inside a forward's payload: that is the link protocol of the clients.
// Once a client has joined, every message between it and the relay travels inside a `sealed`
// one, encrypted and authenticated with keys the join and its answer agreed (X25519), so that
// nothing on the path can forge, alter or replay a frame, nor read who talks to whom.
// The formats are written down in RELAY_SPEC.md beside this file.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "shoal/drop_reason.hpp"
#include "transport/udp_socket.hpp"

namespace shoal::transport {

using Slot = std::uint16_t;
inline constexpr Slot kNoSlot = 0;
inline constexpr Slot kBroadcastSlot = 0xFFFF;
inline constexpr std::size_t kMaxSessionIdSize = 64;
inline constexpr std::size_t kMaxTokenSize = 64;
inline constexpr std::size_t kSessionCodeSize = 6;
inline constexpr std::size_t kMaxListedSessions = 256;
inline constexpr std::size_t kMaxMembersPerSession = 256;
/// The relay protocol's version, byte 1 of every relay message (RELAY_SPEC.md).
inline constexpr std::uint8_t kRelayProtocolVersion = 3;
/// A fresh X25519 public key of one end of a client's connection to the relay.
using HopKey = std::array<std::uint8_t, 32>;

enum class RelayKind : std::uint8_t {
  join = 1,           ///< client: enter a session (by id or by code)
  forward = 2,        ///< client: bytes for one slot of the session, or for all
  list_sessions = 3,  ///< client: lobby query; allowed before joining
  joined = 10,        ///< relay: you are in, with these members
  refused = 11,       ///< relay: join refused, with a reason
  deliver = 12,       ///< relay: bytes from a member of your session
  member_joined = 13,
  member_left = 14,
  session_list = 15,
  sealed = 16,  ///< either way, once joined: another relay message, in an envelope of the hop's keys
};

enum class RefusalReason : std::uint8_t {
  bad_token = 1,
  slot_taken = 2,
  no_such_session = 3,   ///< joined by a code nobody uses
  relay_full = 4,        ///< --max-sessions reached
  session_full = 5,
  code_collision = 6,    ///< another live session has the same short code
  expelled = 7,          ///< this slot (or endpoint) was expelled from the session
  /// The join was of another relay protocol version. Its layout is the same in every version
  /// (encode_version_refusal), so that either side can name both versions.
  version_mismatch = 8,
};
std::string_view to_string(RefusalReason reason);

struct RelayMember {
  Slot slot = kNoSlot;
  Endpoint public_endpoint;  ///< as the relay sees it: the rendezvous for hole punching
};

struct JoinMessage {
  std::string session;  ///< empty: join by code
  std::string code;
  std::string token;
  Slot requested_slot = kNoSlot;  ///< kNoSlot: any free one
  HopKey client_key{};            ///< the client's, for this connection
};

struct JoinedMessage {
  Slot slot = kNoSlot;
  std::string session;
  std::string code;
  Endpoint your_public_endpoint;
  std::vector<RelayMember> members;  ///< the others
  HopKey relay_key{};                ///< the relay's, for this client's connection
};

struct SessionInfo {
  std::string session;
  std::string code;
  std::uint16_t members = 0;
};

/// A decoded relay message; which fields matter depends on kind.
struct RelayMessage {
  RelayKind kind = RelayKind::forward;
  JoinMessage join;
  JoinedMessage joined;
  RefusalReason refusal = RefusalReason::bad_token;
  std::uint8_t relay_version = 0;   ///< refused with version_mismatch: the relay's version
  std::uint8_t client_version = 0;  ///< refused with version_mismatch: the join's version
  Slot slot = kNoSlot;                  ///< forward: to; deliver: from; member_*: who
  Endpoint endpoint;                    ///< member_joined: its public endpoint
  /// forward/deliver: the payload; sealed: the envelope. Points into the decoded bytes.
  std::span<const std::uint8_t> payload;
  std::vector<SessionInfo> sessions;
};

/// The deterministic short code of a session id: 6 characters from an unambiguous alphabet,
/// the same on every relay and after a restart.
std::string session_code(std::string_view session);

// Encoders append to `out` after clearing it.
void encode_join(const JoinMessage& m, std::vector<std::uint8_t>& out);
void encode_forward(Slot to, std::span<const std::uint8_t> payload, std::vector<std::uint8_t>& out);
void encode_list_sessions(std::vector<std::uint8_t>& out);
void encode_joined(const JoinedMessage& m, std::vector<std::uint8_t>& out);
void encode_refused(RefusalReason reason, std::vector<std::uint8_t>& out);
/// The refusal of a join of another protocol version: [0xB7][this relay's version][refused]
/// [version_mismatch][the join's version], a layout every version decodes whatever its version.
void encode_version_refusal(std::uint8_t client_version, std::vector<std::uint8_t>& out);
/// The version byte of a relay message of any version (magic checked); 0 when it has none.
std::uint8_t relay_version_of(std::span<const std::uint8_t> bytes);
/// Whether a message of another version is a join (a relay answers it with a version refusal).
bool is_join_of_any_version(std::span<const std::uint8_t> bytes);
void encode_deliver(Slot from, std::span<const std::uint8_t> payload, std::vector<std::uint8_t>& out);
void encode_member_joined(const RelayMember& member, std::vector<std::uint8_t>& out);
void encode_member_left(Slot slot, std::vector<std::uint8_t>& out);
void encode_session_list(std::span<const SessionInfo> sessions, std::vector<std::uint8_t>& out);
/// The header of a sealed message; the envelope (security::Envelope::seal of the inner message)
/// follows it. `out` is cleared first.
void encode_sealed_header(std::vector<std::uint8_t>& out);
inline constexpr std::size_t kRelayHeaderSize = 3;

/// Decodes any relay message; false (with the reason in `why`) for bad input, and `out` is
/// then unspecified. `out.payload` aliases `bytes`.
bool decode_relay(std::span<const std::uint8_t> bytes, RelayMessage& out, DropReason& why);

// ---- The link protocol between two clients, inside forward/deliver payloads. ----
//   [type][u32 tag][...]. tag names one virtual connection, chosen at random by its opener.
enum class LinkType : std::uint8_t {
  open = 1,    ///< opener -> acceptor, repeated until accepted
  accept = 2,  ///< acceptor -> opener, once per open received
  close = 3,   ///< either way: a graceful end
  data = 4,    ///< [u32 seq, control channel only][payload]
  ack = 5,     ///< [u32 next expected seq]: cumulative, for the control channel
};
inline constexpr std::size_t kLinkHeaderSize = 5;
inline constexpr std::size_t kLinkSeqSize = 4;

struct LinkMessage {
  LinkType type = LinkType::data;
  std::uint32_t tag = 0;
  std::uint32_t seq = 0;  ///< data on the control channel, and ack
  std::span<const std::uint8_t> payload;
};

void encode_link(LinkType type, std::uint32_t tag, std::vector<std::uint8_t>& out);
/// The data (control channel) and ack forms, which carry a sequence number.
void encode_link_seq(LinkType type, std::uint32_t tag, std::uint32_t seq, std::vector<std::uint8_t>& out);
/// `data_has_seq`: whether a data message carries a sequence number (control channel).
/// `out.payload` aliases `bytes`.
bool decode_link(std::span<const std::uint8_t> bytes, bool data_has_seq, LinkMessage& out);

}  // namespace shoal::transport
