// SPDX-License-Identifier: MIT
// The reasons two peers cannot play together, as pure functions, and the refusal's bytes,
// which every wire version must read the same way.
#include <doctest/doctest.h>

#include "session/compatibility.hpp"
#include "wire/control_messages.hpp"
#include "wire/refusal.hpp"

using namespace shoal;

TEST_CASE("compatibility: equal versions and encodings give no reason") {
  const wire::EncodingSettings settings = wire::encoding_settings(SnapshotConfig{});
  CHECK(session::wire_version_mismatch(8, "the host", 8, "the joiner").empty());
  CHECK(session::encoding_mismatch(settings, "the host", settings, "the joiner").empty());
}

TEST_CASE("compatibility: a version mismatch names both versions and both sides") {
  CHECK(session::wire_version_mismatch(8, "the host", 9, "the joiner") ==
        "wire versions differ: the host speaks wire version 8, the joiner 9");
}

TEST_CASE("compatibility: an encoding mismatch names the first differing field and both values") {
  SnapshotConfig mine, theirs;
  theirs.orientation_bits = 12;
  theirs.delta = false;  // a second difference: only the first, in field order, is named
  CHECK(session::encoding_mismatch(wire::encoding_settings(mine), "the host", wire::encoding_settings(theirs),
                                   "the joiner") == "snapshot encoding differs: delta is true on the host, false on the joiner");
  theirs.delta = true;
  CHECK(session::encoding_mismatch(wire::encoding_settings(mine), "the host", wire::encoding_settings(theirs),
                                   "the joiner") == "snapshot encoding differs: orientation_bits is 15 on the host, 12 on the joiner");
  SnapshotConfig wider;
  wider.world_max.x = 600;
  CHECK(session::encoding_mismatch(wire::encoding_settings(mine), "peer 0", wire::encoding_settings(wider), "peer 2") ==
        "snapshot encoding differs: world_max is (500, 200, 500) on peer 0, (600, 200, 500) on peer 2");
}

TEST_CASE("compatibility: every encoding field takes part in the comparison and travels in the join") {
  // Changing any one encoding field must be noticed: otherwise two peers could differ in it
  // silently. Each lambda changes one field.
  const std::vector<void (*)(SnapshotConfig&)> changes = {
      [](SnapshotConfig& c) { c.quantize = false; },
      [](SnapshotConfig& c) { c.velocities_at_rest = true; },
      [](SnapshotConfig& c) { c.delta = false; },
      [](SnapshotConfig& c) { c.world_min.y = -60; },
      [](SnapshotConfig& c) { c.world_max.z = 400; },
      [](SnapshotConfig& c) { c.position_units_per_m = 2048; },
      [](SnapshotConfig& c) { c.orientation_bits = 14; },
      [](SnapshotConfig& c) { c.max_linear_speed_mps = 40; },
      [](SnapshotConfig& c) { c.max_angular_speed_radps = 40; },
      [](SnapshotConfig& c) { c.velocity_units_per_mps = 256; },
      [](SnapshotConfig& c) { c.max_baseline_age_frames = 300; },
  };
  const wire::EncodingSettings base = wire::encoding_settings(SnapshotConfig{});
  for (std::size_t i = 0; i < changes.size(); ++i) {
    SnapshotConfig changed;
    changes[i](changed);
    const wire::EncodingSettings other = wire::encoding_settings(changed);
    CHECK_MESSAGE(!session::encoding_mismatch(base, "a", other, "b").empty(), "field " << i);
    // And it survives the wire: a JoinRequest decodes to the same settings.
    wire::JoinRequest sent{"s", 1, kNoPeer, 7, other}, received;
    std::vector<std::uint8_t> bytes;
    REQUIRE(wire::encode(sent, bytes));
    REQUIRE(wire::decode(bytes, received));
    CHECK(received == sent);
  }
}

TEST_CASE("compatibility: peers whose spawn bytes' limits differ refuse each other, naming both limits") {
  // A spawn within one peer's limit but over another's would exist on the first only.
  SpawnConfig mine, theirs;
  theirs.max_spawn_bytes = 8;
  const wire::EncodingSettings a = wire::encoding_settings(SnapshotConfig{}, mine);
  const wire::EncodingSettings b = wire::encoding_settings(SnapshotConfig{}, theirs);
  CHECK(session::encoding_mismatch(a, "the host", b, "the joiner") ==
        "snapshot encoding differs: max_spawn_bytes is 32 on the host, 8 on the joiner");
  CHECK(session::encoding_mismatch(a, "the host", wire::encoding_settings(SnapshotConfig{}, mine), "the joiner").empty());
  // And the limit travels in the join.
  wire::JoinRequest sent{"s", 1, kNoPeer, 7, b}, received;
  std::vector<std::uint8_t> bytes;
  REQUIRE(wire::encode(sent, bytes));
  REQUIRE(wire::decode(bytes, received));
  CHECK(received.encoding.max_spawn_bytes == 8);
}

TEST_CASE("compatibility: a refusal is read whatever its version byte, and nothing else is") {
  std::vector<std::uint8_t> bytes;
  wire::encode(wire::Refusal{wire::kProtocolVersion, 9, "wire versions differ"}, bytes);
  // The layout every version shares: magic, version, kind 15, the refused version, the reason.
  REQUIRE(bytes.size() == 7 + std::string("wire versions differ").size());
  CHECK(bytes[0] == 'S');
  CHECK(bytes[1] == 'H');
  CHECK(bytes[2] == wire::kProtocolVersion);
  CHECK(bytes[3] == 15);
  CHECK(bytes[4] == 9);
  bytes[2] = 42;  // a refusal from a far future version
  wire::Refusal read;
  REQUIRE(wire::decode_refusal(bytes, read));
  CHECK(read.sender_version == 42);
  CHECK(read.refused_version == 9);
  CHECK(read.reason == "wire versions differ");
  bytes.push_back(0);  // a trailing byte: not a refusal
  CHECK_FALSE(wire::decode_refusal(bytes, read));
  std::vector<std::uint8_t> hello;
  REQUIRE(wire::encode(wire::Hello{1, "s", 2, {}}, hello));
  CHECK_FALSE(wire::decode_refusal(hello, read));
}
