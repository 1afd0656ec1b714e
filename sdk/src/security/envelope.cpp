// SPDX-License-Identifier: MIT
#include "security/envelope.hpp"

#include <sodium.h>

#include <limits>

#include "security/sodium.hpp"

namespace shoal::security {
namespace {

using Nonce = std::array<std::uint8_t, crypto_aead_chacha20poly1305_IETF_NPUBBYTES>;

// Keys differ per direction, so a nonce need only be unique per key: the stream (a channel, or
// the own frames') and its sequence make it so.
Nonce nonce_of(std::size_t stream, std::uint32_t sequence) {
  Nonce nonce{};
  nonce[0] = static_cast<std::uint8_t>(stream);
  for (int i = 0; i < 4; ++i) nonce[4 + i] = static_cast<std::uint8_t>(sequence >> (8 * i));
  return nonce;
}

}  // namespace

Envelope::Envelope(const LinkKeys& keys) : keys_(keys) { ensure_sodium(); }

Envelope::~Envelope() { sodium_memzero(&keys_, sizeof keys_); }

bool Envelope::seal(Channel channel, std::span<const std::uint8_t> message, std::vector<std::uint8_t>& out) {
  const auto index = static_cast<std::size_t>(channel);
  if (index >= kChannelCount || next_send_[index] == kOwnFrameBit) return false;
  return seal_on(index, message, out);
}

bool Envelope::seal_own(std::span<const std::uint8_t> frame, std::vector<std::uint8_t>& out) {
  if (next_send_[kOwnStream] == std::numeric_limits<std::uint32_t>::max()) return false;
  return seal_on(kOwnStream, frame, out);
}

bool Envelope::seal_on(std::size_t stream, std::span<const std::uint8_t> message, std::vector<std::uint8_t>& out) {
  const std::uint32_t sequence = next_send_[stream]++;
  out.resize(message.size() + kOverhead);
  for (std::size_t i = 0; i < kSequenceBytes; ++i) out[i] = static_cast<std::uint8_t>(sequence >> (8 * i));
  const Nonce nonce = nonce_of(stream, sequence);
  unsigned long long written = 0;
  // The clear sequence is additional data: authenticated along with the message.
  crypto_aead_chacha20poly1305_ietf_encrypt(out.data() + kSequenceBytes, &written, message.data(), message.size(),
                                            out.data(), kSequenceBytes, nullptr, nonce.data(),
                                            keys_.send.data());
  out.resize(kSequenceBytes + written);
  return true;
}

std::optional<DropReason> Envelope::open(Channel channel, std::span<const std::uint8_t> sealed,
                                         std::vector<std::uint8_t>& out, bool* own) {
  auto stream = static_cast<std::size_t>(channel);
  if (stream >= kChannelCount) return DropReason::malformed;
  if (sealed.size() < kOverhead) return DropReason::truncated;
  std::uint32_t sequence = 0;
  for (std::size_t i = 0; i < kSequenceBytes; ++i) sequence |= std::uint32_t{sealed[i]} << (8 * i);
  if ((sequence & kOwnFrameBit) != 0) {
    if (channel != Channel::control) return DropReason::forged;  // own frames travel there only
    stream = kOwnStream;
  }
  // Refused before decrypting: a replay costs the receiver no cryptography.
  if ((sequence & ~kOwnFrameBit) == 0 || !received_[stream].fresh(sequence)) return DropReason::replayed;
  const Nonce nonce = nonce_of(stream, sequence);
  out.resize(sealed.size() - kOverhead);
  unsigned long long written = 0;
  if (crypto_aead_chacha20poly1305_ietf_decrypt(out.data(), &written, nullptr, sealed.data() + kSequenceBytes,
                                                sealed.size() - kSequenceBytes, sealed.data(), kSequenceBytes,
                                                nonce.data(), keys_.receive.data()) != 0) {
    out.clear();
    return DropReason::forged;
  }
  out.resize(written);
  received_[stream].accept(sequence);
  if (own != nullptr) *own = stream == kOwnStream;
  return std::nullopt;
}

}  // namespace shoal::security
