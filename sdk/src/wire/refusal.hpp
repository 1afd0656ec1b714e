// SPDX-License-Identifier: MIT
// The refusal: how a peer tells another that they cannot play together (another wire version,
// another snapshot encoding). Its layout is frozen in every wire version from 8 on, and it is
// read before the header's version is checked, so that a peer of another version still learns
// both versions instead of waiting for a join that never comes (SPEC.md, "Refusal").
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace shoal::wire {

/// Longest reason a refusal carries; longer ones are cut.
inline constexpr std::size_t kMaxRefusalReason = 512;
/// Byte 3 of a refusal, in every version.
inline constexpr std::uint8_t kRefusalKind = 15;

struct Refusal {
  std::uint8_t sender_version = 0;   ///< the refuser's wire version (byte 2 of the header)
  std::uint8_t refused_version = 0;  ///< the refused peer's wire version, as the refuser saw it
  std::string reason;                ///< for a person: names both sides' values

  bool operator==(const Refusal&) const = default;
};

/// [magic 'S' 'H'][this build's version][15][refused version][u16 length][reason], replacing
/// `out`; the reason is cut at kMaxRefusalReason bytes.
void encode(const Refusal& refusal, std::vector<std::uint8_t>& out);

/// True, filling `refusal`, when `datagram` is a refusal of any wire version.
bool decode_refusal(std::span<const std::uint8_t> datagram, Refusal& refusal);

/// The wire version byte of a Shoal datagram of any version (magic checked), or -1.
int version_of(std::span<const std::uint8_t> datagram);
/// The kind byte of a Shoal datagram of any version (magic checked), or -1.
int kind_of_any_version(std::span<const std::uint8_t> datagram);

/// "wire versions differ: the host speaks wire version 8, the joiner 9", naming each side by
/// the role given; empty when the versions are equal.
std::string wire_version_mismatch(int first_version, std::string_view first, int second_version,
                                  std::string_view second);

/// The answer to a stranger's introduction of another wire version (bytes 0-3 of a
/// join_request or a hello mean the same in every version): a refusal naming both versions,
/// from "the host" to "the joiner" or from "this peer" to "the other peer". nullopt for any
/// other datagram. The peer sends it, and so does a secured transport to a peer in the clear.
std::optional<Refusal> refuse_introduction(std::span<const std::uint8_t> datagram);

}  // namespace shoal::wire
