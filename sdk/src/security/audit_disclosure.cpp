// SPDX-License-Identifier: MIT
#include "security/audit_disclosure.hpp"

#include <sodium.h>

#include <algorithm>

#include "security/sodium.hpp"

namespace shoal::security {
namespace {

constexpr std::size_t kSealedBytes = crypto_box_SEALBYTES + sizeof(SymmetricKey);
constexpr std::size_t kDisclosureBytes = Envelope::kSequenceBytes + kSealedBytes;

}  // namespace

AuditKeys::AuditKeys() {
  ensure_sodium();
  crypto_box_keypair(public_key.data(), secret_key.data());
}

AuditKeys::~AuditKeys() { sodium_memzero(secret_key.data(), secret_key.size()); }

std::vector<std::uint8_t> disclose(const SymmetricKey& send_key, const PublicKey& auditor) {
  ensure_sodium();
  std::vector<std::uint8_t> out(kDisclosureBytes, 0);  // sequence 0: never an envelope's
  crypto_box_seal(out.data() + Envelope::kSequenceBytes, send_key.data(), send_key.size(), auditor.data());
  return out;
}

bool is_disclosure(Channel channel, std::span<const std::uint8_t> bytes) {
  return channel == Channel::control && bytes.size() == kDisclosureBytes &&
         std::all_of(bytes.begin(), bytes.begin() + Envelope::kSequenceBytes, [](std::uint8_t b) { return b == 0; });
}

std::optional<SymmetricKey> read_disclosure(std::span<const std::uint8_t> bytes, const AuditKeys& keys) {
  if (!is_disclosure(Channel::control, bytes)) return std::nullopt;
  SymmetricKey key{};
  if (crypto_box_seal_open(key.data(), bytes.data() + Envelope::kSequenceBytes, kSealedBytes,
                           keys.public_key.data(), keys.secret_key.data()) != 0) {
    return std::nullopt;
  }
  return key;
}

}  // namespace shoal::security
