// SPDX-License-Identifier: MIT
// The 4-byte header every Shoal datagram starts with (wire/packet_header.hpp): any bytes get a
// verdict; an accepted header is exactly the one write_header writes, within the kind's limit.
#include <algorithm>
#include <vector>

#include "fuzz_target.hpp"
#include "wire/packet_header.hpp"

using namespace shoal;
using namespace shoal::wire;

SHOAL_FUZZ_TARGET(packet_header) {
  const std::span<const std::uint8_t> datagram(data, size);
  MessageKind kind{};
  const DecodeStatus status = read_header(datagram, kind);
  if (!status) {
    FUZZ_CHECK(status.reason() < DropReason::count, "a rejected header names a reason");
    FUZZ_CHECK(!expect_header(datagram, MessageKind::snapshot), "expect_header agrees with read_header");
    return 0;
  }
  FUZZ_CHECK(size >= kHeaderSize && size <= max_datagram_size(kind), "an accepted datagram fits its kind's limit");
  FUZZ_CHECK(is_known_kind(static_cast<std::uint8_t>(kind)), "an accepted kind is a known one");
  FUZZ_CHECK(expect_header(datagram, kind).ok(), "expect_header accepts what read_header accepted");
  std::vector<std::uint8_t> header;
  write_header(kind, header);
  FUZZ_CHECK(std::equal(header.begin(), header.end(), datagram.begin()),
             "an accepted header is the one write_header writes");
  return 0;
}
