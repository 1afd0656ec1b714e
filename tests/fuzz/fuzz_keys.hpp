// SPDX-License-Identifier: MIT
// The keys of the fuzz session, derived from fixed seeds instead of drawn at random, so that
// the seeds shoal-fuzz-record-seeds writes and the targets that read them agree: tokens that the
// session's authority signed, a link's keys, an auditor's keys. Tokens are checked at a fixed
// time, so a recorded token never expires under a target.
#pragma once

#include <sodium.h>

#include <cstdint>
#include <string_view>

#include "security/audit_disclosure.hpp"
#include "security/envelope.hpp"
#include "security/join_token.hpp"
#include "security/revocation.hpp"
#include "security/sodium.hpp"
#include "shoal/security_config.hpp"

namespace shoal::fuzz {

inline constexpr std::string_view kFuzzSession = "fuzz";
inline constexpr std::int64_t kFuzzNow = 1'750'000'000;     // when the targets check tokens (June 2025)
inline constexpr std::int64_t kFuzzExpiry = 4'102'444'800;  // when the fuzz tokens expire (2100)

struct SigningKeys {
  security::PublicKey public_key{};
  security::SecretKey secret_key{};
};

/// An Ed25519 key pair from a one-byte seed: 0 is the authority's, 1.. the peers'.
inline SigningKeys signing_keys(std::uint8_t seed) {
  security::ensure_sodium();
  std::array<std::uint8_t, crypto_sign_SEEDBYTES> bytes{};
  bytes.fill(seed);
  bytes[0] = 0xF5;  // not all one value: nobody mistakes it for a real key
  SigningKeys keys;
  crypto_sign_seed_keypair(keys.public_key.data(), keys.secret_key.data(), bytes.data());
  return keys;
}

/// Credentials of fuzz peer `peer` (1..), signed by the fuzz authority.
inline Credentials fuzz_credentials(std::uint8_t peer, bool single_use = false) {
  const SigningKeys authority = signing_keys(0);
  const SigningKeys own = signing_keys(peer);
  const security::JoinToken token =
      security::sign_token(kFuzzSession, kFuzzExpiry, own.public_key, authority.secret_key, single_use);
  return security::make_credentials(authority.public_key, token, own.secret_key);
}

/// A revocation of `peer`'s invitation by the fuzz authority.
inline security::RevocationRecord fuzz_revocation(std::uint8_t peer, std::string_view reason) {
  return security::sign_revocation(kFuzzSession, signing_keys(peer).public_key, kFuzzNow, reason,
                                   signing_keys(0).secret_key);
}

/// The keys of one direction of a fuzz link: what the envelope target opens with, and what its
/// seeds are sealed with (as the sending end's `send`).
inline security::LinkKeys fuzz_link_keys(bool sender) {
  security::SymmetricKey a{}, b{};
  a.fill(0x5A);
  b.fill(0xA5);
  return sender ? security::LinkKeys{a, b} : security::LinkKeys{b, a};
}

/// The fuzz auditor's key pair (X25519), from a fixed seed.
inline void fuzz_audit_keys(security::AuditKeys& keys) {
  security::ensure_sodium();
  std::array<std::uint8_t, crypto_box_SEEDBYTES> seed{};
  seed.fill(0x3C);
  crypto_box_seed_keypair(keys.public_key.data(), keys.secret_key.data(), seed.data());
}

}  // namespace shoal::fuzz
