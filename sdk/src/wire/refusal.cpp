// SPDX-License-Identifier: MIT
#include "wire/refusal.hpp"

#include <algorithm>

#include "wire/packet_header.hpp"

namespace shoal::wire {

namespace {
// magic (2), version, kind, refused version, u16 length
constexpr std::size_t kFixedSize = 7;
}  // namespace

void encode(const Refusal& refusal, std::vector<std::uint8_t>& out) {
  out.clear();
  out.push_back(static_cast<std::uint8_t>(kProtocolMagic & 0xFF));
  out.push_back(static_cast<std::uint8_t>(kProtocolMagic >> 8));
  out.push_back(kProtocolVersion);  // always this build's: the refused side reads it
  out.push_back(kRefusalKind);
  out.push_back(refusal.refused_version);
  const std::size_t length = std::min(refusal.reason.size(), kMaxRefusalReason);
  out.push_back(static_cast<std::uint8_t>(length & 0xFF));
  out.push_back(static_cast<std::uint8_t>(length >> 8));
  out.insert(out.end(), refusal.reason.begin(), refusal.reason.begin() + static_cast<std::ptrdiff_t>(length));
}

bool decode_refusal(std::span<const std::uint8_t> datagram, Refusal& refusal) {
  if (datagram.size() < kFixedSize || version_of(datagram) < 0 || datagram[3] != kRefusalKind) return false;
  const std::size_t length = datagram[5] | (std::size_t{datagram[6]} << 8);
  if (length > kMaxRefusalReason || datagram.size() != kFixedSize + length) return false;
  refusal.sender_version = datagram[2];
  refusal.refused_version = datagram[4];
  refusal.reason.assign(datagram.begin() + kFixedSize, datagram.end());
  return true;
}

int version_of(std::span<const std::uint8_t> datagram) {
  if (datagram.size() < kHeaderSize) return -1;
  const auto magic = static_cast<std::uint16_t>(datagram[0] | (datagram[1] << 8));
  return magic == kProtocolMagic ? datagram[2] : -1;
}

int kind_of_any_version(std::span<const std::uint8_t> datagram) {
  return version_of(datagram) < 0 ? -1 : datagram[3];
}

std::string wire_version_mismatch(int first_version, std::string_view first, int second_version,
                                  std::string_view second) {
  if (first_version == second_version) return {};
  return "wire versions differ: " + std::string(first) + " speaks wire version " + std::to_string(first_version) +
         ", " + std::string(second) + " " + std::to_string(second_version);
}

std::optional<Refusal> refuse_introduction(std::span<const std::uint8_t> datagram) {
  const int theirs = version_of(datagram);
  if (theirs < 0 || theirs == kProtocolVersion) return std::nullopt;
  const auto refusal = [&](std::string_view self, std::string_view other) {
    return Refusal{kProtocolVersion, static_cast<std::uint8_t>(theirs),
                   wire_version_mismatch(kProtocolVersion, self, theirs, other)};
  };
  switch (kind_of_any_version(datagram)) {
    case static_cast<int>(MessageKind::join_request): return refusal("the host", "the joiner");
    case static_cast<int>(MessageKind::hello): return refusal("this peer", "the other peer");
    default: return std::nullopt;
  }
}

}  // namespace shoal::wire
