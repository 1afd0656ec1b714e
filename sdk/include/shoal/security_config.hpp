// SPDX-License-Identifier: MIT
// The plain settings of secure links (shoal/security.hpp): a peer's credentials and whether a
// transport encrypts. Apart from security.hpp so that TransportConfig can hold them.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace shoal {

/// What one invited peer needs to take part in a secure session: the authority's public key, its
/// signed join token and its own signing key. Secret: hand it to its peer only, privately.
struct Credentials {
  std::vector<std::uint8_t> bytes;  ///< opaque; made by SessionAuthority::invite

  /// Whether there are none (a default-constructed value).
  bool empty() const { return bytes.empty(); }
  /// Printable form (hexadecimal), e.g. for a command line or a lobby message.
  std::string to_text() const;
  /// Reads to_text()'s form back; nullopt for anything that is not well-formed credentials.
  static std::optional<Credentials> from_text(std::string_view text);
  /// The session the token names; empty when the bytes are not well-formed.
  std::string session() const;
  /// When the token expires, seconds since the Unix epoch; 0 when not well-formed.
  std::int64_t expires_unix_s() const;
  /// The key the token names: what identifies this invitation to every peer, and what
  /// SessionAuthority::revoke takes. All zeros when not well-formed.
  std::array<std::uint8_t, 32> peer_key() const;
  /// Whether the invitation admits one peer only (InvitationUse::single_use).
  bool single_use() const;
};

/// The session authority's signed word that one invitation admits no one any more
/// (SessionAuthority::revoke; applied with Peer::revoke or Peer::kick). Not secret: any member
/// may hold it and hands it on, but only the authority can make one.
struct Revocation {
  std::vector<std::uint8_t> bytes;  ///< opaque; made by SessionAuthority::revoke

  /// Printable form (hexadecimal), e.g. for a command line.
  std::string to_text() const;
  /// Reads to_text()'s form back; nullopt for anything that is not a well-formed revocation
  /// (whose signature only the session's members can check).
  static std::optional<Revocation> from_text(std::string_view text);
  /// The revoked invitation's key (Credentials::peer_key); all zeros when not well-formed.
  std::array<std::uint8_t, 32> peer_key() const;
  /// The authority's reason, as the revoked peer and the logs see it.
  std::string reason() const;
};

/// Whether a transport encrypts its links, and with which credentials.
struct SecurityConfig {
  /// On by default: a transport made with security on and no credentials refuses to start
  /// (std::invalid_argument). Off (the `--insecure` of the samples) sends everything in the
  /// clear, as wire versions before 9 did; both ends of a link must agree.
  bool enabled = true;
  Credentials credentials;  ///< this peer's, from the session's SessionAuthority
  /// A connection that has not completed the handshake (presented a valid token) within this
  /// is closed, and counted as DropReason::no_token. 1..60000.
  std::uint32_t token_grace_ms = 5000;
  /// An auditing relay's key (AuditingRelay::audit_key), given explicitly by the game: each end
  /// of every link then discloses its sending key to that auditor, sealed so that only it can
  /// read it, and the auditor reads the snapshots the relay forwards. Empty: no one but the two
  /// ends of a link can read it, the relay included.
  std::optional<std::array<std::uint8_t, 32>> audit_key;
};

}  // namespace shoal
