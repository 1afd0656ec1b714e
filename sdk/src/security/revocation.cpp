// SPDX-License-Identifier: MIT
#include "security/revocation.hpp"

#include <sodium.h>

#include <algorithm>

#include "security/sodium.hpp"

namespace shoal::security {
namespace {

constexpr std::uint8_t kMagic[2] = {'S', 'R'};
constexpr std::uint8_t kVersion = 1;
constexpr std::string_view kDomain = "shoal revocation 1";

// Everything the signature covers: the fields, from the magic on.
void append_fields(std::vector<std::uint8_t>& out, const RevocationRecord& record) {
  out.insert(out.end(), std::begin(kMagic), std::end(kMagic));
  out.push_back(kVersion);
  out.push_back(static_cast<std::uint8_t>(record.session.size()));
  out.insert(out.end(), record.session.begin(), record.session.end());
  put_bytes(out, record.peer_key);
  put_u64(out, static_cast<std::uint64_t>(record.issued_unix_s));
  out.push_back(static_cast<std::uint8_t>(record.reason.size() & 0xFF));
  out.push_back(static_cast<std::uint8_t>(record.reason.size() >> 8));
  out.insert(out.end(), record.reason.begin(), record.reason.end());
}

std::vector<std::uint8_t> signed_part(const RevocationRecord& record) {
  std::vector<std::uint8_t> out(kDomain.begin(), kDomain.end());
  append_fields(out, record);
  return out;
}

}  // namespace

void append_revocation(std::vector<std::uint8_t>& out, const RevocationRecord& record) {
  append_fields(out, record);
  put_bytes(out, record.signature);
}

std::optional<RevocationRecord> read_revocation(std::span<const std::uint8_t> bytes) {
  Reader reader(bytes);
  const auto magic = reader.take(2);
  if (reader.failed() || magic[0] != kMagic[0] || magic[1] != kMagic[1] || reader.u8() != kVersion) {
    return std::nullopt;
  }
  RevocationRecord record;
  const std::size_t session_length = reader.u8();
  if (session_length == 0 || session_length > kMaxSessionBytes) return std::nullopt;
  const auto session = reader.take(session_length);
  record.session.assign(session.begin(), session.end());
  reader.copy_to(record.peer_key);
  record.issued_unix_s = static_cast<std::int64_t>(reader.u64());
  const std::size_t reason_length = reader.u8() | (std::size_t{reader.u8()} << 8);
  if (reason_length > kMaxRevocationReason) return std::nullopt;
  const auto reason = reader.take(reason_length);
  record.reason.assign(reason.begin(), reason.end());
  reader.copy_to(record.signature);
  if (reader.failed() || reader.left() != 0) return std::nullopt;
  return record;
}

RevocationRecord sign_revocation(std::string_view session, const PublicKey& peer_key, std::int64_t issued_unix_s,
                                 std::string_view reason, const SecretKey& authority) {
  ensure_sodium();
  RevocationRecord record{std::string(session), peer_key, issued_unix_s,
                          std::string(reason.substr(0, kMaxRevocationReason)), {}};
  const auto part = signed_part(record);
  crypto_sign_detached(record.signature.data(), nullptr, part.data(), part.size(), authority.data());
  return record;
}

bool verify_revocation(const RevocationRecord& record, const PublicKey& authority, std::string_view session) {
  ensure_sodium();
  if (record.session != session || record.reason.size() > kMaxRevocationReason) return false;
  const auto part = signed_part(record);
  return crypto_sign_verify_detached(record.signature.data(), part.data(), part.size(), authority.data()) == 0;
}

const RevocationRecord* Revocations::find(const PublicKey& key) const {
  const auto found = std::find_if(records_.begin(), records_.end(), [&](const auto& r) { return r.peer_key == key; });
  return found == records_.end() ? nullptr : &*found;
}

bool Revocations::add(const RevocationRecord& record) {
  if (records_.size() >= kMax || find(record.peer_key) != nullptr) return false;
  records_.push_back(record);
  return true;
}

}  // namespace shoal::security
