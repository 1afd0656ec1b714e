// SPDX-License-Identifier: MIT
// Join tokens (wire/SPEC.md, "Join token") and the credentials that carry one: what a peer
// presents at the start of every link to prove the session's authority invited it.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "shoal/drop_reason.hpp"
#include "security/bytes.hpp"
#include "shoal/security_config.hpp"

namespace shoal::security {

using PublicKey = std::array<std::uint8_t, 32>;
using SecretKey = std::array<std::uint8_t, 64>;  ///< libsodium's Ed25519 form: seed, then public key
using Signature = std::array<std::uint8_t, 64>;
inline constexpr std::size_t kMaxSessionBytes = 64;

/// Signed by the session's authority: the session it admits to, until when, and the key with
/// which its holder signs its handshakes.
struct JoinToken {
  std::string session;
  std::int64_t expires_unix_s = 0;
  PublicKey peer_key{};
  Signature signature{};
  /// Not sent: the signature covers it, so a verifier learns it by which value verifies
  /// (check_token). Single-use: the invitation admits one peer (the peer layer keeps to it).
  bool single_use = false;
};

/// The token's bytes, signature last.
void append_token(std::vector<std::uint8_t>& out, const JoinToken& token);
/// Reads one token; nullopt when it is not well-formed (the signature is not checked).
std::optional<JoinToken> read_token(Reader& reader);
/// A token for `session`, `expires_unix_s` and `peer_key`, signed with `authority`.
JoinToken sign_token(std::string_view session, std::int64_t expires_unix_s, const PublicKey& peer_key,
                     const SecretKey& authority, bool single_use = false);
/// Whether `authority` signed `token`, and if so whether as single-use: nullopt when neither
/// form of the signature verifies.
std::optional<bool> signed_single_use(const JoinToken& token, const PublicKey& authority);
/// Why `token` does not admit its holder to `session` under `authority` at `now_unix_s`, or
/// nullopt when it does (then `single_use`, if given, says how it was signed). The signature is
/// checked first: a token of another authority is a bad_token whatever it names.
std::optional<DropReason> check_token(const JoinToken& token, const PublicKey& authority,
                                      std::string_view session, std::int64_t now_unix_s,
                                      bool* single_use = nullptr);

/// Credentials (shoal/security_config.hpp) taken apart.
struct OwnCredentials {
  PublicKey authority{};
  JoinToken token;
  SecretKey peer_secret{};
};
/// nullopt for bytes that are not well-formed credentials (or whose keys do not match).
std::optional<OwnCredentials> parse_credentials(std::span<const std::uint8_t> bytes);
Credentials make_credentials(const PublicKey& authority, const JoinToken& token, const SecretKey& peer_secret);

/// Seconds since the Unix epoch: tokens expire by the wall clock, the same on every machine.
std::int64_t unix_now_s();

}  // namespace shoal::security
