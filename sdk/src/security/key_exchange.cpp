// SPDX-License-Identifier: MIT
#include "security/key_exchange.hpp"

#include <sodium.h>

#include "security/sodium.hpp"

namespace shoal::security {

KeyExchange::KeyExchange() {
  ensure_sodium();
  crypto_kx_keypair(public_.data(), secret_.data());
}

KeyExchange::~KeyExchange() { sodium_memzero(secret_.data(), secret_.size()); }

std::optional<LinkKeys> KeyExchange::agree(const ExchangeKey& theirs, bool client) const {
  LinkKeys keys;
  const int agreed = client ? crypto_kx_client_session_keys(keys.receive.data(), keys.send.data(), public_.data(),
                                                            secret_.data(), theirs.data())
                            : crypto_kx_server_session_keys(keys.receive.data(), keys.send.data(), public_.data(),
                                                            secret_.data(), theirs.data());
  if (agreed != 0) return std::nullopt;
  return keys;
}

std::optional<std::vector<std::uint8_t>> KeyExchange::open_sealed(std::span<const std::uint8_t> sealed) const {
  if (sealed.size() < crypto_box_SEALBYTES) return std::nullopt;
  std::vector<std::uint8_t> message(sealed.size() - crypto_box_SEALBYTES);
  // A crypto_kx key pair is an X25519 pair, which crypto_box opens with as well.
  if (crypto_box_seal_open(message.data(), sealed.data(), sealed.size(), public_.data(), secret_.data()) != 0) {
    return std::nullopt;
  }
  return message;
}

}  // namespace shoal::security
