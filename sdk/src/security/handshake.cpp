// SPDX-License-Identifier: MIT
#include "security/handshake.hpp"

#include <sodium.h>

#include <algorithm>
#include <string_view>

#include "security/sodium.hpp"

namespace shoal::security {
namespace {

constexpr std::uint8_t kMagic[2] = {'S', 'X'};
constexpr std::uint8_t kVersion = 1;
constexpr std::size_t kFrameHeader = 4;  // magic, version, kind
constexpr std::string_view kProofDomain = "shoal hello 1";

void put_frame_header(std::vector<std::uint8_t>& out, FrameKind kind) {
  out.assign(std::begin(kMagic), std::end(kMagic));
  out.push_back(kVersion);
  out.push_back(static_cast<std::uint8_t>(kind));
}

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
  if (reader.u8() != static_cast<std::uint8_t>(FrameKind::hello)) return DropReason::unknown_kind;
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

void write_hello(const Hello& hello, std::vector<std::uint8_t>& out) {
  put_frame_header(out, FrameKind::hello);
  append_token(out, hello.token);
  put_bytes(out, hello.ephemeral);
  put_bytes(out, hello.proof);
}

std::optional<FrameKind> frame_kind(std::span<const std::uint8_t> bytes) {
  if (bytes.size() < kFrameHeader || bytes[0] != kMagic[0] || bytes[1] != kMagic[1] || bytes[2] != kVersion) {
    return std::nullopt;
  }
  switch (static_cast<FrameKind>(bytes[3])) {
    case FrameKind::hello: return FrameKind::hello;
    case FrameKind::refusal: return FrameKind::refusal;
  }
  return std::nullopt;
}

std::vector<std::uint8_t> refusal_frame(const Hello& theirs, std::span<const std::uint8_t> message) {
  ensure_sodium();
  const std::span<const std::uint8_t> kept = message.first(std::min(message.size(), kMaxRefusalMessage));
  std::vector<std::uint8_t> out;
  put_frame_header(out, FrameKind::refusal);
  out.resize(kFrameHeader + crypto_box_SEALBYTES + kept.size());
  // The fresh key of a hello is an X25519 key (crypto_kx's), which crypto_box seals to as well.
  crypto_box_seal(out.data() + kFrameHeader, kept.data(), kept.size(), theirs.ephemeral.data());
  return out;
}

std::vector<std::uint8_t> Handshake::hello(const OwnCredentials& own) const {
  Hello hello{own.token, exchange_.public_key(), {}};
  const auto part = proven_part(hello.ephemeral, own.authority);
  crypto_sign_detached(hello.proof.data(), nullptr, part.data(), part.size(), own.peer_secret.data());
  std::vector<std::uint8_t> out;
  write_hello(hello, out);
  return out;
}

std::optional<std::vector<std::uint8_t>> Handshake::open_refusal(std::span<const std::uint8_t> bytes) const {
  if (frame_kind(bytes) != FrameKind::refusal) return std::nullopt;
  const std::span<const std::uint8_t> sealed = bytes.subspan(kFrameHeader);
  if (sealed.size() > crypto_box_SEALBYTES + kMaxRefusalMessage) return std::nullopt;
  return exchange_.open_sealed(sealed);
}

std::variant<LinkKeys, DropReason> Handshake::agree(const Hello& theirs, const OwnCredentials& own,
                                                    bool opened_here, std::int64_t now_unix_s,
                                                    bool* single_use) const {
  if (const auto refused = check_token(theirs.token, own.authority, own.token.session, now_unix_s, single_use)) {
    return *refused;
  }
  const auto part = proven_part(theirs.ephemeral, own.authority);
  if (crypto_sign_verify_detached(theirs.proof.data(), part.data(), part.size(), theirs.token.peer_key.data()) != 0) {
    return DropReason::bad_token;
  }
  const std::optional<LinkKeys> keys = exchange_.agree(theirs.ephemeral, opened_here);
  if (!keys) return DropReason::bad_token;  // a degenerate public key
  return *keys;
}

}  // namespace shoal::security
