// SPDX-License-Identifier: MIT
// The public side of join tokens (shoal/security.hpp): SessionAuthority issues Credentials,
// which travel as text.
#include <sodium.h>

#include <stdexcept>

#include "security/join_token.hpp"
#include "security/sodium.hpp"
#include "shoal/security.hpp"

namespace shoal {

std::string Credentials::to_text() const {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string text;
  text.reserve(bytes.size() * 2);
  for (const std::uint8_t b : bytes) {
    text.push_back(kDigits[b >> 4]);
    text.push_back(kDigits[b & 0xF]);
  }
  return text;
}

std::optional<Credentials> Credentials::from_text(std::string_view text) {
  if (text.size() % 2 != 0) return std::nullopt;
  const auto digit = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  Credentials credentials;
  for (std::size_t i = 0; i < text.size(); i += 2) {
    const int high = digit(text[i]);
    const int low = digit(text[i + 1]);
    if (high < 0 || low < 0) return std::nullopt;
    credentials.bytes.push_back(static_cast<std::uint8_t>(high * 16 + low));
  }
  if (!security::parse_credentials(credentials.bytes)) return std::nullopt;
  return credentials;
}

std::string Credentials::session() const {
  const auto own = security::parse_credentials(bytes);
  return own ? own->token.session : std::string{};
}

std::int64_t Credentials::expires_unix_s() const {
  const auto own = security::parse_credentials(bytes);
  return own ? own->token.expires_unix_s : 0;
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

Credentials SessionAuthority::invite(std::chrono::seconds validity) const {
  return invite_until(security::unix_now_s() + validity.count());
}

Credentials SessionAuthority::invite_until(std::int64_t expires_unix_s, std::string_view session) const {
  if (session.size() > security::kMaxSessionBytes) {
    throw std::invalid_argument("a token's session must be at most 64 bytes");
  }
  security::PublicKey peer_public{};
  security::SecretKey peer_secret{};
  crypto_sign_keypair(peer_public.data(), peer_secret.data());
  const auto token = security::sign_token(session.empty() ? session_ : session, expires_unix_s,
                                          peer_public, secret_key_);
  Credentials credentials = security::make_credentials(public_key(), token, peer_secret);
  sodium_memzero(peer_secret.data(), peer_secret.size());
  return credentials;
}

}  // namespace shoal
