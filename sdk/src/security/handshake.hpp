// SPDX-License-Identifier: MIT
// The handshake that opens every secured link (wire/SPEC.md, "Handshake"): the opener sends a
// hello with its join token, a fresh X25519 key for this link and its signature over that key;
// the acceptor checks the token against the session's authority and the signature against the
// key the token names, and only then answers with its own hello, which the opener checks
// likewise. The two fresh keys give the link's keys (crypto_kx), one per direction. An
// eavesdropper learns nothing of the keys; a replayed hello gets its sender nothing, since only
// the holder of the fresh secret key can use the link it opens.
//
// An acceptor that turns a hello down may answer with a refusal frame instead: a dismissal
// (wire/dismissal.hpp) sealed to the hello's fresh key, so that only the peer that made that
// hello reads why (wire/SPEC.md, "Refusal frame").
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <variant>
#include <vector>

#include "security/envelope.hpp"
#include "security/join_token.hpp"
#include "security/key_exchange.hpp"

namespace shoal::security {

/// What a hello carries.
struct Hello {
  JoinToken token;
  PublicKey ephemeral{};  ///< X25519, for this link only
  Signature proof{};      ///< by the token's peer key, over the ephemeral key and the authority
};

/// Reads a hello; the reason it is dropped when it is not one.
std::variant<Hello, DropReason> read_hello(std::span<const std::uint8_t> bytes);
/// A hello's bytes (read_hello reads them back).
void write_hello(const Hello& hello, std::vector<std::uint8_t>& out);

/// What the first bytes of a handshake frame say it is.
enum class FrameKind : std::uint8_t { hello = 1, refusal = 2 };
/// The kind of a frame of this handshake version ('S' 'X', version 1), or nullopt.
std::optional<FrameKind> frame_kind(std::span<const std::uint8_t> bytes);
/// Longest message a refusal frame carries (a dismissal with its longest reason).
inline constexpr std::size_t kMaxRefusalMessage = 4 + 1 + 2 + 512;
/// A refusal frame to the sender of `theirs`: `message` (cut at kMaxRefusalMessage) sealed to
/// its fresh key.
std::vector<std::uint8_t> refusal_frame(const Hello& theirs, std::span<const std::uint8_t> message);

/// One end of one link's handshake: its fresh key pair, until the keys are agreed.
class Handshake {
 public:

  /// This end's hello.
  std::vector<std::uint8_t> hello(const OwnCredentials& own) const;
  /// Checks the other end's hello (token, then proof); on success the link's keys (and, in
  /// `single_use` if given, whether its token is single-use), else why it is refused.
  /// `opened_here`: this end connected (crypto_kx's client).
  std::variant<LinkKeys, DropReason> agree(const Hello& theirs, const OwnCredentials& own, bool opened_here,
                                           std::int64_t now_unix_s, bool* single_use = nullptr) const;
  /// The message in a refusal frame answering this end's hello; nullopt when `bytes` are not
  /// one that this end's fresh key opens.
  std::optional<std::vector<std::uint8_t>> open_refusal(std::span<const std::uint8_t> bytes) const;

 private:
  KeyExchange exchange_;
};

}  // namespace shoal::security
