// SPDX-License-Identifier: MIT
// The handshake that opens every secured link (wire/SPEC.md, "Handshake"): the opener sends a
// hello with its join token, a fresh X25519 key for this link and its signature over that key;
// the acceptor checks the token against the session's authority and the signature against the
// key the token names, and only then answers with its own hello, which the opener checks
// likewise. The two fresh keys give the link's keys (crypto_kx), one per direction. An
// eavesdropper learns nothing of the keys; a replayed hello gets its sender nothing, since only
// the holder of the fresh secret key can use the link it opens.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <variant>
#include <vector>

#include "security/envelope.hpp"
#include "security/join_token.hpp"

namespace shoal::security {

/// What a hello carries.
struct Hello {
  JoinToken token;
  PublicKey ephemeral{};  ///< X25519, for this link only
  Signature proof{};      ///< by the token's peer key, over the ephemeral key and the authority
};

/// Reads a hello; the reason it is dropped when it is not one.
std::variant<Hello, DropReason> read_hello(std::span<const std::uint8_t> bytes);

/// One end of one link's handshake: its fresh key pair, until the keys are agreed.
class Handshake {
 public:
  Handshake();
  ~Handshake();
  Handshake(const Handshake&) = delete;
  Handshake& operator=(const Handshake&) = delete;

  /// This end's hello.
  std::vector<std::uint8_t> hello(const OwnCredentials& own) const;
  /// Checks the other end's hello (token, then proof); on success the link's keys, else why
  /// it is refused. `opened_here`: this end connected (crypto_kx's client).
  std::variant<LinkKeys, DropReason> agree(const Hello& theirs, const OwnCredentials& own, bool opened_here,
                                           std::int64_t now_unix_s) const;

 private:
  PublicKey public_{};
  std::array<std::uint8_t, 32> secret_{};
};

}  // namespace shoal::security
