// SPDX-License-Identifier: MIT
// Handing an auditing relay the keys of a secured link, explicitly (wire/SPEC.md, "Audit
// disclosure"): with SecurityConfig::audit_key set, each end of a link sends, once its keys are
// agreed, its sending key sealed to the auditor's public key (an anonymous sealed box). Only the
// auditor can open it; the other end of the link skips it. It travels on the control channel
// with sequence number 0, which no envelope ever uses.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "security/envelope.hpp"
#include "security/join_token.hpp"

namespace shoal::security {

/// The auditor's key pair (X25519, crypto_box), made at random.
struct AuditKeys {
  AuditKeys();
  ~AuditKeys();
  AuditKeys(const AuditKeys&) = delete;
  AuditKeys& operator=(const AuditKeys&) = delete;

  PublicKey public_key{};
  std::array<std::uint8_t, 32> secret_key{};
};

/// The disclosure of `send_key` to the auditor whose public key is `auditor`.
std::vector<std::uint8_t> disclose(const SymmetricKey& send_key, const PublicKey& auditor);
/// Whether `bytes` on `channel` have the shape of a disclosure (not whether it opens).
bool is_disclosure(Channel channel, std::span<const std::uint8_t> bytes);
/// The sending key in a disclosure, if `keys` open it.
std::optional<SymmetricKey> read_disclosure(std::span<const std::uint8_t> bytes, const AuditKeys& keys);

}  // namespace shoal::security
