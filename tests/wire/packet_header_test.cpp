// SPDX-License-Identifier: MIT
#include <doctest/doctest.h>

#include <vector>

#include "wire/control_messages.hpp"
#include "wire/packet_header.hpp"

using namespace shoal;
using namespace shoal::wire;

namespace {

std::vector<std::uint8_t> valid_ping() {
  std::vector<std::uint8_t> bytes;
  REQUIRE(encode(Ping{1234}, bytes));
  return bytes;
}

// Decodes a ping datagram and counts a failure, as a receiver would.
DecodeStatus receive(const std::vector<std::uint8_t>& bytes, DropCounters& drops) {
  Ping ping;
  const DecodeStatus status = decode(bytes, ping);
  if (!status) drops.add(status.reason());
  return status;
}

}  // namespace

TEST_CASE("header: a written header reads back with its kind") {
  for (const MessageKind kind : {MessageKind::join_request, MessageKind::checksum,
                                 MessageKind::baseline_request, MessageKind::baseline, MessageKind::pong, MessageKind::snapshot}) {
    std::vector<std::uint8_t> bytes{9, 9, 9};
    write_header(kind, bytes);
    REQUIRE(bytes.size() == kHeaderSize);
    CHECK(bytes[0] == 'S');
    CHECK(bytes[1] == 'H');
    CHECK(bytes[2] == kProtocolVersion);
    MessageKind read{};
    CHECK(read_header(bytes, read).ok());
    CHECK(read == kind);
  }
}

TEST_CASE("header: kinds map to their channels and limits") {
  CHECK(channel_of(MessageKind::welcome) == Channel::control);
  CHECK(channel_of(MessageKind::ping) == Channel::time);
  CHECK(channel_of(MessageKind::snapshot) == Channel::state);
  CHECK(max_datagram_size(MessageKind::ownership) == kMaxControlDatagram);
  CHECK(max_datagram_size(MessageKind::snapshot) == kMaxUnreliableDatagram);
  CHECK(is_known_kind(16));
  CHECK_FALSE(is_known_kind(0));
  CHECK(is_known_kind(8));
  CHECK(is_known_kind(9));  // world_changes, since version 10
  CHECK(channel_of(MessageKind::world_changes) == Channel::control);
  CHECK(is_known_kind(10));  // game_message, since version 12
  CHECK(is_known_kind(18));  // game_datagram, since version 12
  CHECK(is_known_kind(11));  // dismissal, since version 14
  CHECK(is_known_kind(12));  // link_notice, since version 14
  CHECK(channel_of(MessageKind::dismissal) == Channel::control);
  CHECK_FALSE(is_known_kind(13));
  CHECK_FALSE(is_known_kind(19));
  CHECK_FALSE(is_known_kind(255));
}

TEST_CASE("header: each kind of bad header is dropped with its own reason and counted") {
  DropCounters drops;
  REQUIRE(receive(valid_ping(), drops).ok());

  auto wrong_magic = valid_ping();
  wrong_magic[1] = 'X';
  CHECK(receive(wrong_magic, drops).reason() == DropReason::bad_magic);

  auto future_version = valid_ping();
  future_version[2] = kProtocolVersion + 1;
  CHECK(receive(future_version, drops).reason() == DropReason::unsupported_version);

  auto unknown_kind = valid_ping();
  unknown_kind[3] = 99;
  CHECK(receive(unknown_kind, drops).reason() == DropReason::unknown_kind);

  auto other_kind = valid_ping();
  other_kind[3] = static_cast<std::uint8_t>(MessageKind::pong);
  CHECK(receive(other_kind, drops).reason() == DropReason::unknown_kind);

  const std::vector<std::uint8_t> short_header{'S', 'H', kProtocolVersion};
  CHECK(receive(short_header, drops).reason() == DropReason::truncated);

  auto oversize = valid_ping();
  oversize.resize(kMaxUnreliableDatagram + 1);
  CHECK(receive(oversize, drops).reason() == DropReason::oversize);

  CHECK(drops[DropReason::bad_magic] == 1);
  CHECK(drops[DropReason::unsupported_version] == 1);
  CHECK(drops[DropReason::unknown_kind] == 2);
  CHECK(drops[DropReason::truncated] == 1);
  CHECK(drops[DropReason::oversize] == 1);
  CHECK(drops[DropReason::malformed] == 0);
  CHECK(drops.total() == 6);
}

TEST_CASE("header: drop reasons have distinct names") {
  std::vector<std::string_view> names;
  for (std::size_t i = 0; i < kDropReasonCount; ++i) {
    const std::string_view name = to_string(static_cast<DropReason>(i));
    CHECK(name != "unknown");
    for (const std::string_view other : names) CHECK(name != other);
    names.push_back(name);
  }
  CHECK(to_string(DropReason::not_owner) == "not_owner");
  CHECK(to_string(static_cast<DropReason>(200)) == "unknown");
  DropCounters drops;
  drops.add(static_cast<DropReason>(200));  // out of range: ignored, not a memory error
  CHECK(drops.total() == 0);
}
