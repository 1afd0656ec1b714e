// SPDX-License-Identifier: MIT
// Revocations (wire/SPEC.md, "Revocation"): the session authority's signed word that the
// invitation naming one peer key admits no one any more. Every member's security layer keeps
// the revocations it has heard of, hands each new one on to every link it has (so it reaches
// every member, and every member that admits joiners), sends them all to each new link, refuses
// a hello whose token names a revoked key, and closes a link to one.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "security/join_token.hpp"

namespace shoal::security {

/// Longest reason a revocation carries; longer ones are refused by the authority.
inline constexpr std::size_t kMaxRevocationReason = 200;

struct RevocationRecord {
  std::string session;
  PublicKey peer_key{};            ///< the revoked invitation's: its token's peer key
  std::int64_t issued_unix_s = 0;  ///< when the authority signed it (for people: nothing expires)
  std::string reason;              ///< the authority's words, at most kMaxRevocationReason bytes
  Signature signature{};           ///< the authority's, over "shoal revocation 1" and the fields above
};

/// The record's bytes, signature last, appended to `out`.
void append_revocation(std::vector<std::uint8_t>& out, const RevocationRecord& record);
/// Reads a record that is the whole of `bytes`; nullopt when it is not well-formed (the
/// signature is not checked).
std::optional<RevocationRecord> read_revocation(std::span<const std::uint8_t> bytes);
/// A record signed with the authority's secret key. The reason is cut at kMaxRevocationReason.
RevocationRecord sign_revocation(std::string_view session, const PublicKey& peer_key, std::int64_t issued_unix_s,
                                 std::string_view reason, const SecretKey& authority);
/// Whether `record` is signed by `authority` and names `session`.
bool verify_revocation(const RevocationRecord& record, const PublicKey& authority, std::string_view session);

/// The revocations one transport knows of, by key; bounded (kMax): only the authority signs
/// them, so the bound is never reached by a session that revokes fewer invitations.
class Revocations {
 public:
  static constexpr std::size_t kMax = 4096;

  /// The revocation of `key`, if there is one.
  const RevocationRecord* find(const PublicKey& key) const;
  /// Adds a verified record; false when its key was revoked already (or the list is full).
  bool add(const RevocationRecord& record);
  const std::vector<RevocationRecord>& all() const { return records_; }

 private:
  std::vector<RevocationRecord> records_;
};

}  // namespace shoal::security
