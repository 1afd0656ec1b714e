// SPDX-License-Identifier: MIT
#include "security/handshake.hpp"

#include <sodium.h>

#include <string_view>

#include "security/sodium.hpp"

namespace shoal::security {
namespace {

constexpr std::uint8_t kMagic[2] = {'S', 'X'};
constexpr std::uint8_t kVersion = 1;
constexpr std::uint8_t kHelloKind = 1;
constexpr std::string_view kProofDomain = "shoal hello 1";

std::vector<std::uint8_t> proven_part(const PublicKey& ephemeral, const PublicKey& authority) {
  std::vector<std::uint8_t> out(kProofDomain.begin(), kProofDomain.end());
  put_bytes(out, ephemeral);
  put_bytes(out, authority);
  return out;
}

}  // namespace

std::variant<Hello, DropReason> read_hello(std::span<const std::uint8_t> bytes) {
  Reader reader(bytes);
  const auto magic = reader.take(2);
  if (reader.failed()) return DropReason::truncated;
  if (magic[0] != kMagic[0] || magic[1] != kMagic[1]) return DropReason::no_token;
  if (reader.u8() != kVersion) return DropReason::unsupported_version;
  if (reader.u8() != kHelloKind) return DropReason::unknown_kind;
  Hello hello;
  auto token = read_token(reader);
  if (!token) return DropReason::bad_token;
  hello.token = std::move(*token);
  reader.copy_to(hello.ephemeral);
  reader.copy_to(hello.proof);
  if (reader.failed()) return DropReason::truncated;
  if (reader.left() != 0) return DropReason::oversize;
  return hello;
}

Handshake::Handshake() {
  ensure_sodium();
  crypto_kx_keypair(public_.data(), secret_.data());
}

Handshake::~Handshake() { sodium_memzero(secret_.data(), secret_.size()); }

std::vector<std::uint8_t> Handshake::hello(const OwnCredentials& own) const {
  std::vector<std::uint8_t> out(std::begin(kMagic), std::end(kMagic));
  out.push_back(kVersion);
  out.push_back(kHelloKind);
  append_token(out, own.token);
  put_bytes(out, public_);
  const auto part = proven_part(public_, own.authority);
  Signature proof{};
  crypto_sign_detached(proof.data(), nullptr, part.data(), part.size(), own.peer_secret.data());
  put_bytes(out, proof);
  return out;
}

std::variant<LinkKeys, DropReason> Handshake::agree(const Hello& theirs, const OwnCredentials& own,
                                                    bool opened_here, std::int64_t now_unix_s) const {
  if (const auto refused = check_token(theirs.token, own.authority, own.token.session, now_unix_s)) return *refused;
  const auto part = proven_part(theirs.ephemeral, own.authority);
  if (crypto_sign_verify_detached(theirs.proof.data(), part.data(), part.size(), theirs.token.peer_key.data()) != 0) {
    return DropReason::bad_token;
  }
  LinkKeys keys;
  const int agreed =
      opened_here ? crypto_kx_client_session_keys(keys.receive.data(), keys.send.data(), public_.data(),
                                                  secret_.data(), theirs.ephemeral.data())
                  : crypto_kx_server_session_keys(keys.receive.data(), keys.send.data(), public_.data(),
                                                  secret_.data(), theirs.ephemeral.data());
  if (agreed != 0) return DropReason::bad_token;  // a degenerate public key
  return keys;
}

}  // namespace shoal::security
