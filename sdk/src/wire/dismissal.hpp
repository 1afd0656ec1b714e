// SPDX-License-Identifier: MIT
// Two messages about who may play, beside the refusal (wire/refusal.hpp), which covers versions
// and encodings (SPEC.md, "Dismissal" and "Link notice"):
//   dismissal (11): a peer will not admit another, or no longer plays with it, and why, for a
//     person to read: sent by a host that turns a joiner down, and handed up by a joiner's
//     security layer when the other end refused its join token;
//   link notice (12): what a secured transport tells the peer above it about one link: who is
//     at the other end (its invitation's key), or that the session's authority revoked this
//     peer. Local: it never crosses the wire (a secured link drops one that arrives).
// Fixed layouts, no Cereal: both are read before anything else about the link is known.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "wire/packet_header.hpp"

namespace shoal::wire {

/// Longest reason a dismissal or a revocation notice carries; longer ones are cut.
inline constexpr std::size_t kMaxDismissalReason = 512;

enum class DismissalCause : std::uint8_t {
  not_invited = 1,      ///< the join token is not the session authority's, or its proof fails
  wrong_session = 2,    ///< a join token for another session
  token_expired = 3,    ///< a join token past its expiry
  revoked = 4,          ///< the session's authority revoked this invitation
  invitation_used = 5,  ///< a single-use invitation another peer already joined with
  not_admitting = 6,    ///< asked a peer that admits no one now, or another session
  rejoin_refused = 7,   ///< asked to come back as a peer it could not prove it was
};
/// A short lowercase name, e.g. "revoked"; "unknown" for a value outside the enum.
const char* to_string(DismissalCause cause);

struct Dismissal {
  DismissalCause cause = DismissalCause::not_admitting;
  std::string reason;  ///< for a person; at most kMaxDismissalReason bytes travel

  bool operator==(const Dismissal&) const = default;
};

/// [header, kind 11][u8 cause][u16 length][reason], replacing `out`.
void encode(const Dismissal& dismissal, std::vector<std::uint8_t>& out);
DecodeStatus decode(std::span<const std::uint8_t> datagram, Dismissal& dismissal);

enum class LinkNoticeKind : std::uint8_t {
  identity = 1,  ///< the other end's invitation: its key, and whether it is single-use
  revoked = 2,   ///< the session's authority revoked this peer's own invitation
};

struct LinkNotice {
  LinkNoticeKind kind = LinkNoticeKind::identity;
  std::array<std::uint8_t, 32> key{};  ///< identity: the key the other end's join token names
  bool single_use = false;             ///< identity: its invitation admits one peer only
  std::string reason;                  ///< revoked: the authority's words

  bool operator==(const LinkNotice&) const = default;
};

/// [header, kind 12][u8 kind] then identity: [u8 flags (bit 0 single-use)][u8 key[32]];
/// revoked: [u16 length][reason]. Replaces `out`.
void encode(const LinkNotice& notice, std::vector<std::uint8_t>& out);
DecodeStatus decode(std::span<const std::uint8_t> datagram, LinkNotice& notice);

}  // namespace shoal::wire
