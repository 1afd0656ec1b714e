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

}  // namespace shoal::wire
