// SPDX-License-Identifier: MIT
// The public side of join tokens (shoal/security.hpp): SessionAuthority issues Credentials,
// which travel as text.
#include <sodium.h>

#include <stdexcept>

#include "security/join_token.hpp"
#include "security/revocation.hpp"
#include "security/sodium.hpp"
#include "shoal/security.hpp"

namespace shoal {
namespace {

// Credentials and revocations travel as text in hexadecimal.
std::string hex(const std::vector<std::uint8_t>& bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string text;
  text.reserve(bytes.size() * 2);
  for (const std::uint8_t b : bytes) {
    text.push_back(kDigits[b >> 4]);
    text.push_back(kDigits[b & 0xF]);
  }
  return text;
}

std::optional<std::vector<std::uint8_t>> unhex(std::string_view text) {
  if (text.size() % 2 != 0) return std::nullopt;
  const auto digit = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  std::vector<std::uint8_t> bytes;
  for (std::size_t i = 0; i < text.size(); i += 2) {
    const int high = digit(text[i]);
    const int low = digit(text[i + 1]);
    if (high < 0 || low < 0) return std::nullopt;
    bytes.push_back(static_cast<std::uint8_t>(high * 16 + low));
  }
  return bytes;
}

}  // namespace

std::string Credentials::to_text() const { return hex(bytes); }

std::optional<Credentials> Credentials::from_text(std::string_view text) {
  auto bytes = unhex(text);
  if (!bytes || !security::parse_credentials(*bytes)) return std::nullopt;
  return Credentials{std::move(*bytes)};
}

std::string Credentials::session() const {
  const auto own = security::parse_credentials(bytes);
  return own ? own->token.session : std::string{};
}

std::int64_t Credentials::expires_unix_s() const {
  const auto own = security::parse_credentials(bytes);
  return own ? own->token.expires_unix_s : 0;
}

std::array<std::uint8_t, 32> Credentials::peer_key() const {
  const auto own = security::parse_credentials(bytes);
  return own ? own->token.peer_key : std::array<std::uint8_t, 32>{};
}

bool Credentials::single_use() const {
  const auto own = security::parse_credentials(bytes);
  return own && own->token.single_use;
}

std::string Revocation::to_text() const { return hex(bytes); }

std::optional<Revocation> Revocation::from_text(std::string_view text) {
  auto bytes = unhex(text);
  if (!bytes || !security::read_revocation(*bytes)) return std::nullopt;
  return Revocation{std::move(*bytes)};
}

std::array<std::uint8_t, 32> Revocation::peer_key() const {
  const auto record = security::read_revocation(bytes);
  return record ? record->peer_key : std::array<std::uint8_t, 32>{};
}

std::string Revocation::reason() const {
  const auto record = security::read_revocation(bytes);
  return record ? record->reason : std::string{};
}

SessionAuthority::SessionAuthority(std::string session) : session_(std::move(session)) {
  if (session_.empty() || session_.size() > security::kMaxSessionBytes) {
    throw std::invalid_argument("a session authority's session must be 1..64 bytes, not " +
                                std::to_string(session_.size()));
  }
  security::ensure_sodium();
  security::PublicKey ignored{};
  crypto_sign_keypair(ignored.data(), secret_key_.data());
}

SessionAuthority::~SessionAuthority() { sodium_memzero(secret_key_.data(), secret_key_.size()); }

std::array<std::uint8_t, 32> SessionAuthority::public_key() const {
  security::PublicKey key{};
  crypto_sign_ed25519_sk_to_pk(key.data(), secret_key_.data());
  return key;
}

Credentials SessionAuthority::invite(std::chrono::seconds validity, InvitationUse use) const {
  return invite_until(security::unix_now_s() + validity.count(), {}, use);
}

Credentials SessionAuthority::invite_until(std::int64_t expires_unix_s, std::string_view session,
                                           InvitationUse use) const {
  if (session.size() > security::kMaxSessionBytes) {
    throw std::invalid_argument("a token's session must be at most 64 bytes");
  }
  security::PublicKey peer_public{};
  security::SecretKey peer_secret{};
  crypto_sign_keypair(peer_public.data(), peer_secret.data());
  const auto token = security::sign_token(session.empty() ? session_ : session, expires_unix_s,
                                          peer_public, secret_key_, use == InvitationUse::single_use);
  Credentials credentials = security::make_credentials(public_key(), token, peer_secret);
  sodium_memzero(peer_secret.data(), peer_secret.size());
  return credentials;
}

Revocation SessionAuthority::revoke(const std::array<std::uint8_t, 32>& peer_key, std::string_view reason) const {
  if (reason.size() > security::kMaxRevocationReason) {
    throw std::invalid_argument("a revocation's reason is " + std::to_string(reason.size()) +
                                " bytes: expected at most " + std::to_string(security::kMaxRevocationReason));
  }
  Revocation revocation;
  security::append_revocation(revocation.bytes, security::sign_revocation(session_, peer_key, security::unix_now_s(),
                                                                          reason, secret_key_));
  return revocation;
}

}  // namespace shoal
