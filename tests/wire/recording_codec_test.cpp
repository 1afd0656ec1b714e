// SPDX-License-Identifier: MIT
// The recording codec's reader on damaged headers: it reports, never throws (RECORDING_SPEC.md).
// Found by the `recording` fuzz target: a header cut short read its smoothing rule as zeros, and
// SmoothingRules threw std::invalid_argument out of RecordingReader::header.
#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <vector>

#include "wire/recording_codec.hpp"

using namespace shoal;
using namespace shoal::wire;

namespace {

std::vector<std::uint8_t> header_bytes(const PeerConfig& config) {
  RecordingHeader header;
  header.config = config;
  header.world = {1, 2, 3};
  std::vector<std::uint8_t> bytes;
  RecordingWriter(bytes).header(header);
  return bytes;
}

}  // namespace

TEST_CASE("recording codec: a header cut short anywhere is refused with a reason, never thrown") {
  const std::vector<std::uint8_t> whole = header_bytes(PeerConfig{});
  RecordingHeader read;
  REQUIRE(RecordingReader(whole).header(read).ok());
  for (std::size_t size = 0; size < whole.size(); ++size) {
    const std::span<const std::uint8_t> cut(whole.data(), size);
    DecodeStatus status = DecodeStatus::success();
    REQUIRE_NOTHROW(status = RecordingReader(cut).header(read));
    CHECK_FALSE(status.ok());
    CHECK((status.reason() == DropReason::truncated || status.reason() == DropReason::bad_magic));
  }
}

TEST_CASE("recording codec: a header whose smoothing rule no peer accepts is malformed, not thrown") {
  // Where the rule's min_closing_speed_low lies: the one field two headers differ in. 2.5f and
  // 3.5f are 0x40200000 and 0x40600000, written little-endian: they differ first in the third
  // byte of the float.
  static_assert(std::bit_cast<std::uint32_t>(SmoothingRule{}.min_closing_speed_low) == 0x40200000u);
  PeerConfig other;
  SmoothingRule faster;
  faster.min_closing_speed_low = 3.5f;
  other.smoothing = SmoothingRules(faster);
  std::vector<std::uint8_t> bytes = header_bytes(PeerConfig{});
  const std::vector<std::uint8_t> changed = header_bytes(other);
  REQUIRE(bytes.size() == changed.size());
  const auto differs = static_cast<std::size_t>(std::mismatch(bytes.begin(), bytes.end(), changed.begin()).first - bytes.begin());
  REQUIRE(differs >= 2);
  REQUIRE(differs + 2 <= bytes.size());
  std::fill_n(bytes.begin() + static_cast<std::ptrdiff_t>(differs - 2), 4, std::uint8_t{0});  // 0 m/s: no rule allows it
  RecordingHeader read;
  DecodeStatus status = DecodeStatus::success();
  REQUIRE_NOTHROW(status = RecordingReader(bytes).header(read));
  CHECK_FALSE(status.ok());
}

TEST_CASE("recording codec: the header carries the spawning limits (version 2)") {
  PeerConfig config;
  config.spawning.max_objects_per_peer = 17;
  config.spawning.max_spawns_per_second = 9;
  config.spawning.removed_on_leave = {3, 11, 400};
  const std::vector<std::uint8_t> bytes = header_bytes(config);
  RecordingHeader read;
  REQUIRE(RecordingReader(bytes).header(read).ok());
  CHECK(read.config.spawning.max_objects_per_peer == 17);
  CHECK(read.config.spawning.max_spawns_per_second == 9);
  CHECK(read.config.spawning.removed_on_leave == std::vector<std::uint16_t>{3, 11, 400});
  CHECK(kRecordingVersion == 5);
}

TEST_CASE("recording codec: the header carries the message limits (version 4)") {
  PeerConfig config;
  config.messages.max_message_bytes = 3000;
  config.messages.max_bytes_per_second = 123456;
  config.messages.max_messages_per_second = 77;
  config.messages.max_queued = 9;
  config.log.level = LogLevel::debug;  // not recorded: a replay logs as its own config says
  const std::vector<std::uint8_t> bytes = header_bytes(config);
  RecordingHeader read;
  REQUIRE(RecordingReader(bytes).header(read).ok());
  CHECK(read.config.messages.max_message_bytes == 3000);
  CHECK(read.config.messages.max_bytes_per_second == 123456);
  CHECK(read.config.messages.max_messages_per_second == 77);
  CHECK(read.config.messages.max_queued == 9);
  CHECK(read.config.log.level == LogLevel::info);
}

TEST_CASE("recording codec: spawns, removals and max_spawn_bytes survive a round trip (version 4)") {
  CHECK(kRecordingVersion == 5);
  PeerConfig config;
  config.spawning.max_spawn_bytes = 7;
  std::vector<std::uint8_t> bytes = header_bytes(config);
  RecordingWriter writer(bytes);
  ObjectState state;
  state.position = {1, 2, 3};
  state.linear_velocity = {-4, 0, 0.5f};
  const std::uint8_t spawn_bytes[] = {9, 0, 7};
  writer.spawn(11, state, spawn_bytes, kSpawnedIdBit | (2u << 16) | 5u);
  writer.remove(kSpawnedIdBit | (1u << 16) | 3u);
  RecordingReader reader(bytes);
  RecordingHeader header;
  REQUIRE(reader.header(header).ok());
  CHECK(header.config.spawning.max_spawn_bytes == 7);
  Record record;
  bool at_end = false;
  REQUIRE(reader.next(record, at_end).ok());
  CHECK(record.kind == RecordKind::spawn);
  CHECK(record.type == 11);
  CHECK(record.state.position.y == 2);
  CHECK(record.state.linear_velocity.z == 0.5f);
  CHECK(std::ranges::equal(record.spawn_bytes.view(), spawn_bytes));
  CHECK(record.object == (kSpawnedIdBit | (2u << 16) | 5u));
  REQUIRE(reader.next(record, at_end).ok());
  CHECK(record.kind == RecordKind::remove);
  CHECK(record.object == (kSpawnedIdBit | (1u << 16) | 3u));
  REQUIRE(reader.next(record, at_end).ok());
  CHECK(at_end);
  // A spawn announcing more bytes than a spawn may carry is malformed.
  std::vector<std::uint8_t> bad = header_bytes(config);
  const std::size_t at = bad.size();
  RecordingWriter(bad).spawn(11, state, spawn_bytes, 1);
  bad[at + 1 + 1 + 13 * 4 + 1] = static_cast<std::uint8_t>(kMaxSpawnBytes + 1);  // kind, type, state: the count
  RecordingReader damaged(bad);
  REQUIRE(damaged.header(header).ok());
  CHECK(damaged.next(record, at_end).reason() == DropReason::malformed);
}

TEST_CASE("recording codec: game messages and the events the game took survive a round trip (version 5)") {
  CHECK(kRecordingVersion == 5);
  std::vector<std::uint8_t> bytes = header_bytes(PeerConfig{});
  RecordingWriter writer(bytes);
  const std::uint8_t payload[] = {1, 2, 3, 0, 5};
  writer.message(kNoPeer, Delivery::reliable, 812, payload, true);
  writer.message(3, Delivery::unreliable, kNoFrame, {}, false);
  writer.events_taken(4096);
  RecordingReader reader(bytes);
  RecordingHeader header;
  REQUIRE(reader.header(header).ok());
  Record record;
  bool at_end = false;
  REQUIRE(reader.next(record, at_end).ok());
  CHECK(record.kind == RecordKind::message);
  CHECK(record.peer == kNoPeer);
  CHECK(record.delivery == Delivery::reliable);
  CHECK(record.frame == 812);
  CHECK(std::ranges::equal(record.payload, payload));
  CHECK(record.sent);
  REQUIRE(reader.next(record, at_end).ok());
  CHECK(record.kind == RecordKind::message);
  CHECK(record.peer == 3);
  CHECK(record.delivery == Delivery::unreliable);
  CHECK(record.frame == kNoFrame);
  CHECK(record.payload.empty());
  CHECK_FALSE(record.sent);
  REQUIRE(reader.next(record, at_end).ok());
  CHECK(record.kind == RecordKind::events_taken);
  CHECK(record.count == 4096);
  REQUIRE(reader.next(record, at_end).ok());
  CHECK(at_end);
  // A delivery that is neither, and a message longer than any message, are malformed.
  for (const std::size_t field : {std::size_t{2}, std::size_t{4}}) {
    std::vector<std::uint8_t> bad = header_bytes(PeerConfig{});
    const std::size_t at = bad.size();
    RecordingWriter(bad).message(3, Delivery::reliable, 1, payload, true);
    // kind, peer, delivery, frame, then the length: 0x80 0x81 0x01 is 16512, past 16384.
    bad[at + field] = field == 2 ? 2 : 0x80;
    if (field == 4) bad.insert(bad.begin() + static_cast<std::ptrdiff_t>(at + 5), {0x81, 0x01});
    RecordingReader damaged(bad);
    REQUIRE(damaged.header(header).ok());
    CAPTURE(field);
    CHECK(damaged.next(record, at_end).reason() == DropReason::malformed);
  }
}
