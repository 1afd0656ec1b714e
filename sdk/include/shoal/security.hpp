// SPDX-License-Identifier: MIT
// Encrypted, authenticated links: who may join a session, and the keys of its links.
//
// A session has one authority (usually the host), which holds a signing key and issues each
// invited peer its Credentials: a join token naming the session, with an expiry, signed by the
// authority. Every link starts with a handshake in which both ends present their tokens and
// agree on the link's keys; from then on every message is encrypted and authenticated, and one
// that is forged, tampered with or replayed is dropped and counted (PeerStats::dropped). A
// connection that presents no valid token within its grace time is closed before the layers
// above ever hear of it; one that is refused is told why (sealed to it). Right after each
// `connected`, a secured transport hands the layer above one message of its own, a link notice
// (wire kind 12: bytes 'S' 'H', the wire version, 12) naming the other end's invitation, which
// Peer reads and a program reading the transport itself may skip. The session's authority can
// revoke an invitation (kick and ban): SessionAuthority::revoke, Peer::kick. The bytes and the
// threat model: sdk/src/wire/SPEC.md, "Secured links".
//
//   shoal::SessionAuthority authority("friday-night");   // on the host
//   shoal::TransportConfig transport;
//   transport.security.credentials = authority.invite();  // the host's own
//   std::string for_alice = authority.invite().to_text(); // give it to Alice (privately)
//   // Alice: transport.security.credentials = *shoal::Credentials::from_text(for_alice);
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "shoal/security_config.hpp"
#include "shoal/transport.hpp"

namespace shoal {

/// How many peers one invitation admits.
enum class InvitationUse : std::uint8_t {
  reusable,    ///< whoever holds it, as often as it likes, until it expires or is revoked
  /// the first peer that joins with it: that peer may rejoin as itself (Peer's own rejoin),
  /// but no second peer may ever join the session with it (DropReason::invitation_used)
  single_use,
};

/// Issues the join tokens of one session: holds its signing key (Ed25519), made at random.
/// It also revokes them (kick and ban): see revoke().
class SessionAuthority {
 public:
  /// A fresh authority for `session` (1..64 bytes; std::invalid_argument otherwise).
  explicit SessionAuthority(std::string session);
  ~SessionAuthority();
  SessionAuthority(const SessionAuthority&) = delete;
  SessionAuthority& operator=(const SessionAuthority&) = delete;

  /// Credentials for one peer, valid from now for `validity`.
  Credentials invite(std::chrono::seconds validity = std::chrono::hours(12),
                     InvitationUse use = InvitationUse::reusable) const;
  /// Credentials whose token expires at `expires_unix_s` (in the past too, for tests), and that
  /// name `session` instead of this authority's own when it is given.
  Credentials invite_until(std::int64_t expires_unix_s, std::string_view session = {},
                           InvitationUse use = InvitationUse::reusable) const;
  /// Revokes the invitation whose key is `peer_key` (Credentials::peer_key; Peer::kick finds a
  /// member's): once a member of the session applies it (Peer::revoke), it reaches every
  /// member, every one closes its links to that peer and refuses it from then on, and the
  /// revoked peer is told `reason` (at most 200 bytes: it is the peer's to read, and the
  /// logs'). Throws std::invalid_argument for a longer reason.
  Revocation revoke(const std::array<std::uint8_t, 32>& peer_key, std::string_view reason) const;
  /// The session this authority signs for.
  const std::string& session() const { return session_; }
  /// Its public key, which every credentials it issues carry.
  std::array<std::uint8_t, 32> public_key() const;

 private:
  std::string session_;
  std::array<std::uint8_t, 64> secret_key_{};
};

/// Wraps any transport (e.g. a MemoryNetwork endpoint) so that its links are secured as above.
/// make_enet_transport, make_relay_transport and make_hybrid_transport do this themselves when
/// their config's security is enabled. Returns `inner` unchanged when security is disabled.
/// Throws std::invalid_argument for enabled security without well-formed credentials.
std::unique_ptr<Transport> make_secure_transport(std::unique_ptr<Transport> inner,
                                                 const SecurityConfig& security);

}  // namespace shoal
