// SPDX-License-Identifier: MIT
// One end's fresh X25519 key pair for one link (crypto_kx), and the link's two keys that it
// agrees with the other end's public key: the secret behind a secured link's handshake
// (security/handshake.hpp) and behind the hop between a relay client and the relay
// (transport/RELAY_SPEC.md, section 1). Unauthenticated by itself: whoever agrees is who sent
// the other public key; the handshake signs its key with the peer's token, the relay hop does not.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "security/envelope.hpp"

namespace shoal::security {

using ExchangeKey = std::array<std::uint8_t, 32>;

class KeyExchange {
 public:
  /// A fresh key pair, made at random.
  KeyExchange();
  ~KeyExchange();
  KeyExchange(const KeyExchange&) = delete;
  KeyExchange& operator=(const KeyExchange&) = delete;

  const ExchangeKey& public_key() const { return public_; }
  /// The link's keys with the other end's public key; `client`: this end opened the link.
  /// nullopt for a degenerate key.
  std::optional<LinkKeys> agree(const ExchangeKey& theirs, bool client) const;
  /// A message sealed to this key pair's public key (crypto_box_seal), opened; nullopt when it
  /// was not, or was tampered with.
  std::optional<std::vector<std::uint8_t>> open_sealed(std::span<const std::uint8_t> sealed) const;

 private:
  ExchangeKey public_{};
  std::array<std::uint8_t, 32> secret_{};
};

}  // namespace shoal::security
