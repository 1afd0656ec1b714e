// SPDX-License-Identifier: MIT
// The envelope of every message on a secured link (wire/SPEC.md, "Envelope"): a sequence number
// in the clear, then the message encrypted and authenticated with the link's key for that
// direction (ChaCha20-Poly1305, IETF), the channel and the sequence making the nonce. Each
// channel counts its own sequence and keeps its own replay window, so a reliable message resent
// late is never taken for a replay by the traffic of another channel.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "security/replay_window.hpp"
#include "shoal/drop_reason.hpp"
#include "shoal/transport.hpp"

namespace shoal::security {

using SymmetricKey = std::array<std::uint8_t, 32>;

/// One link's two keys, from the handshake.
struct LinkKeys {
  SymmetricKey send{};
  SymmetricKey receive{};
};

class Envelope {
 public:
  static constexpr std::size_t kSequenceBytes = 4;
  static constexpr std::size_t kTagBytes = 16;
  static constexpr std::size_t kOverhead = kSequenceBytes + kTagBytes;
  /// Set in the sequence of the layer's own frames, clear in every message's.
  static constexpr std::uint32_t kOwnFrameBit = 0x80000000u;

  explicit Envelope(const LinkKeys& keys);
  ~Envelope();
  Envelope(const Envelope&) = delete;
  Envelope& operator=(const Envelope&) = delete;

  /// `message` sealed into `out` (replacing it). False when the channel's sequence numbers are
  /// used up (2^31 messages): the link must end rather than reuse a nonce.
  bool seal(Channel channel, std::span<const std::uint8_t> message, std::vector<std::uint8_t>& out);
  /// One of the layer's own frames sealed into `out`, to send on the control channel; false
  /// when their sequence numbers are used up.
  bool seal_own(std::span<const std::uint8_t> frame, std::vector<std::uint8_t>& out);
  /// The message (or own frame: `own` is then set) in `sealed`, into `out`; or why it is
  /// dropped (truncated, replayed, forged).
  std::optional<DropReason> open(Channel channel, std::span<const std::uint8_t> sealed,
                                 std::vector<std::uint8_t>& out, bool* own = nullptr);

 private:
  // Channels 0-2, and the own frames' (nonce byte 3).
  static constexpr std::size_t kStreams = kChannelCount + 1;
  static constexpr std::size_t kOwnStream = kChannelCount;
  bool seal_on(std::size_t stream, std::span<const std::uint8_t> message, std::vector<std::uint8_t>& out);

  LinkKeys keys_;
  /// From 1: sequence 0 is the audit disclosure's (security/audit_disclosure.hpp).
  std::array<std::uint32_t, kStreams> next_send_{1, 1, 1, kOwnFrameBit | 1};
  std::array<ReplayWindow, kStreams> received_;
};

}  // namespace shoal::security
