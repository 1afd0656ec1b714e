// SPDX-License-Identifier: MIT
// Why an incoming datagram or message was dropped, and how many were dropped for each reason.
// Every layer that rejects bad input counts it here, so a game can see in its statistics
// what a hostile or broken peer is sending.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace shoal {

enum class DropReason : std::uint8_t {
  bad_magic,            ///< not a Shoal datagram
  unsupported_version,  ///< a Shoal datagram of a protocol version this build does not speak
  unknown_kind,         ///< message kind not known (or not the kind the decoder was asked for)
  truncated,            ///< ends before the data it announces
  oversize,             ///< longer than the limit for its kind
  malformed,            ///< parses, but a value is impossible (NaN, non-unit quaternion, ...)
  stale,                ///< older than what was already accepted
  not_owner,            ///< state or a claim for an object the sender does not own
  no_token,             ///< before or without a valid join token (a connection past its grace)
  bad_token,            ///< a handshake whose token or signature does not verify
  token_expired,        ///< a join token past its expiry
  wrong_session,        ///< a join token for another session (or from another authority)
  forged,               ///< fails authentication: tampered with, or sealed without the link's key
  replayed,             ///< a sealed message received before (or too old to tell)
  /// a spawn of an id already alive, of another peer's id or slot, into a slot not empty, of a
  /// type the game does not spawn; or a removal of an object that is not alive
  bad_spawn,
  /// a spawn past the sender's limit of live objects or spawns per second; a game message past
  /// the sender's rate (MessageConfig) or while too many of its messages wait to be polled
  over_limit,
  /// from a peer whose invitation the session's authority revoked (Peer::kick): its handshake,
  /// or what it sent on a link the revocation closed
  revoked,
  /// a join with a single-use invitation that another peer already joined with
  invitation_used,
  count                 ///< number of reasons; not a reason itself
};

inline constexpr std::size_t kDropReasonCount = static_cast<std::size_t>(DropReason::count);

/// A short lowercase name, e.g. "bad_magic"; "unknown" for a value outside the enum.
std::string_view to_string(DropReason reason);

/// Counts of dropped input, one per reason.
struct DropCounters {
  std::array<std::uint64_t, kDropReasonCount> counts{};  ///< one counter per DropReason

  /// Counts one drop. A value outside the enum is ignored rather than corrupting memory.
  constexpr void add(DropReason reason) {
    const auto index = static_cast<std::size_t>(reason);
    if (index < counts.size()) ++counts[index];
  }
  /// the count for one reason
  constexpr std::uint64_t operator[](DropReason reason) const {
    const auto index = static_cast<std::size_t>(reason);
    return index < counts.size() ? counts[index] : 0;
  }
  /// the sum over every reason
  constexpr std::uint64_t total() const {
    std::uint64_t sum = 0;
    for (const std::uint64_t n : counts) sum += n;
    return sum;
  }

  bool operator==(const DropCounters&) const = default;  ///< compares every counter
};

}  // namespace shoal
