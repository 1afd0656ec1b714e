// SPDX-License-Identifier: MIT
#include "security/join_token.hpp"

#include <sodium.h>

#include <chrono>

#include "security/bytes.hpp"
#include "security/sodium.hpp"

namespace shoal::security {
namespace {

// Domain separation: a token signature can never be taken for a handshake's, or the reverse.
// A single-use token's domain ends with " single-use": the same bytes on the wire, so a build
// that knows nothing of single use (wire 9 to 13) still reads a reusable token, and no holder
// can turn a single-use token into a reusable one without the authority's key.
constexpr std::string_view kTokenDomain = "shoal join token 1";
constexpr std::string_view kSingleUseSuffix = " single-use";
constexpr std::uint8_t kCredentialsMagic[2] = {'S', 'C'};
constexpr std::uint8_t kCredentialsVersion = 1;

// The token's fields as signed, after the domain.
void append_fields(std::vector<std::uint8_t>& out, const JoinToken& token) {
  out.push_back(static_cast<std::uint8_t>(token.session.size()));
  out.insert(out.end(), token.session.begin(), token.session.end());
  put_u64(out, static_cast<std::uint64_t>(token.expires_unix_s));
  put_bytes(out, token.peer_key);
}

std::vector<std::uint8_t> signed_part(const JoinToken& token, bool single_use) {
  const std::string domain = std::string(kTokenDomain) + std::string(single_use ? kSingleUseSuffix : "");
  std::vector<std::uint8_t> out(domain.begin(), domain.end());
  append_fields(out, token);
  return out;
}

bool verifies(const JoinToken& token, const PublicKey& authority, bool single_use) {
  const auto part = signed_part(token, single_use);
  return crypto_sign_verify_detached(token.signature.data(), part.data(), part.size(), authority.data()) == 0;
}

}  // namespace

void append_token(std::vector<std::uint8_t>& out, const JoinToken& token) {
  append_fields(out, token);
  put_bytes(out, token.signature);
}

std::optional<JoinToken> read_token(Reader& reader) {
  JoinToken token;
  const std::size_t length = reader.u8();
  if (length == 0 || length > kMaxSessionBytes) return std::nullopt;
  const auto session = reader.take(length);
  token.session.assign(session.begin(), session.end());
  token.expires_unix_s = static_cast<std::int64_t>(reader.u64());
  reader.copy_to(token.peer_key);
  reader.copy_to(token.signature);
  if (reader.failed()) return std::nullopt;
  return token;
}

JoinToken sign_token(std::string_view session, std::int64_t expires_unix_s, const PublicKey& peer_key,
                     const SecretKey& authority, bool single_use) {
  ensure_sodium();
  JoinToken token{std::string(session), expires_unix_s, peer_key, {}, single_use};
  const auto part = signed_part(token, single_use);
  crypto_sign_detached(token.signature.data(), nullptr, part.data(), part.size(), authority.data());
  return token;
}

std::optional<bool> signed_single_use(const JoinToken& token, const PublicKey& authority) {
  ensure_sodium();
  if (verifies(token, authority, false)) return false;
  if (verifies(token, authority, true)) return true;
  return std::nullopt;
}

std::optional<DropReason> check_token(const JoinToken& token, const PublicKey& authority,
                                      std::string_view session, std::int64_t now_unix_s, bool* single_use) {
  const std::optional<bool> signed_as = signed_single_use(token, authority);
  if (!signed_as) return DropReason::bad_token;
  if (token.session != session) return DropReason::wrong_session;
  if (now_unix_s >= token.expires_unix_s) return DropReason::token_expired;
  if (single_use != nullptr) *single_use = *signed_as;
  return std::nullopt;
}

std::optional<OwnCredentials> parse_credentials(std::span<const std::uint8_t> bytes) {
  ensure_sodium();
  Reader reader(bytes);
  const auto magic = reader.take(2);
  if (reader.failed() || magic[0] != kCredentialsMagic[0] || magic[1] != kCredentialsMagic[1]) return std::nullopt;
  if (reader.u8() != kCredentialsVersion) return std::nullopt;
  OwnCredentials own;
  reader.copy_to(own.authority);
  auto token = read_token(reader);
  std::array<std::uint8_t, crypto_sign_SEEDBYTES> seed{};
  reader.copy_to(seed);
  if (!token || reader.failed() || reader.left() != 0) return std::nullopt;
  own.token = std::move(*token);
  // Signed by the authority the credentials name (which also says whether it is single-use):
  // anything else would fail every handshake later, less clearly.
  const std::optional<bool> single_use = signed_single_use(own.token, own.authority);
  if (!single_use) return std::nullopt;
  own.token.single_use = *single_use;
  PublicKey derived{};
  crypto_sign_seed_keypair(derived.data(), own.peer_secret.data(), seed.data());
  sodium_memzero(seed.data(), seed.size());
  // The token must be for this very key, or every handshake would fail later, less clearly.
  if (derived != own.token.peer_key) return std::nullopt;
  return own;
}

Credentials make_credentials(const PublicKey& authority, const JoinToken& token, const SecretKey& peer_secret) {
  Credentials credentials;
  auto& out = credentials.bytes;
  out.assign(std::begin(kCredentialsMagic), std::end(kCredentialsMagic));
  out.push_back(kCredentialsVersion);
  put_bytes(out, authority);
  append_token(out, token);
  // The secret key's first half is its seed, from which the whole key pair follows.
  out.insert(out.end(), peer_secret.begin(), peer_secret.begin() + crypto_sign_SEEDBYTES);
  return credentials;
}

std::int64_t unix_now_s() {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace shoal::security
