// SPDX-License-Identifier: MIT
// The world_changes message (spawns and removals, wire version 10): its round trip, its
// byte layout as SPEC.md gives it, and what a decoder refuses.
#include <doctest/doctest.h>

#include <cstring>
#include <limits>
#include <vector>

#include "shoal/simulation.hpp"
#include "wire/control_messages.hpp"

using namespace shoal;
using namespace shoal::wire;

namespace {

WorldChanges sample() {
  WorldChanges m;
  Spawn s;
  s.frame = 120;
  s.object = kSpawnedIdBit | (2u << 16) | 7u;
  s.slot = 49;
  s.type = 11;
  s.state.position = {1.5f, 2, -3};
  s.state.linear_velocity = {4, 0, 0.25f};
  const std::uint8_t bytes[] = {9, 8, 7};
  s.bytes.assign(bytes);
  m.spawns.push_back(s);
  m.removals.push_back({118, kSpawnedIdBit | (1u << 16) | 3u});
  return m;
}

}  // namespace

TEST_CASE("world changes: spawns and removals survive a round trip") {
  const WorldChanges sent = sample();
  std::vector<std::uint8_t> bytes;
  REQUIRE(encode(sent, bytes));
  WorldChanges received;
  REQUIRE(decode(bytes, received).ok());
  CHECK(received == sent);
  WorldChanges live = sent;
  live.live_set = true;
  REQUIRE(encode(live, bytes));
  REQUIRE(decode(bytes, received).ok());
  CHECK(received.live_set);
}

TEST_CASE("world changes: the byte layout is the one SPEC.md gives") {
  std::vector<std::uint8_t> bytes;
  REQUIRE(encode(sample(), bytes));
  REQUIRE(bytes.size() == kHeaderSize + 1 + 4 + (4 + 4 + 4 + 2 + 13 * 4 + 1 + 1 + 3) + 4 + (4 + 4) + 1);
  CHECK(bytes[3] == 9);  // the world_changes kind
  CHECK(bytes[2] == kProtocolVersion);
  CHECK(kProtocolVersion >= 10);  // world_changes came with version 10
  std::uint32_t count = 0, slot = 0;
  std::memcpy(&count, bytes.data() + kHeaderSize + 1, 4);
  CHECK(count == 1);
  std::memcpy(&slot, bytes.data() + kHeaderSize + 1 + 4 + 8, 4);  // after frame and object
  CHECK(slot == 49);
  const std::size_t spawn_bytes_at = kHeaderSize + 1 + 4 + (4 + 4 + 4 + 2 + 13 * 4 + 1);  // after at_rest
  CHECK(kProtocolVersion >= 12);  // spawn bytes came with version 12
  CHECK(bytes[spawn_bytes_at] == 3);
  CHECK(bytes[spawn_bytes_at + 1] == 9);
  CHECK(bytes[spawn_bytes_at + 3] == 7);
  CHECK(bytes.back() == 0);  // live_set
}

TEST_CASE("world changes: impossible states, ids without the spawned bit and cut bodies are dropped") {
  std::vector<std::uint8_t> bytes;
  WorldChanges received;
  WorldChanges bad = sample();
  bad.spawns[0].state.position.x = std::numeric_limits<float>::quiet_NaN();
  REQUIRE(encode(bad, bytes));
  CHECK(decode(bytes, received).reason() == DropReason::malformed);
  bad = sample();
  bad.spawns[0].object = 5;  // a fixed body's id
  REQUIRE(encode(bad, bytes));
  CHECK(decode(bytes, received).reason() == DropReason::malformed);
  bad = sample();
  bad.removals[0].frame = -4;
  REQUIRE(encode(bad, bytes));
  CHECK(decode(bytes, received).reason() == DropReason::malformed);
  REQUIRE(encode(sample(), bytes));  // a spawn announcing more bytes than a spawn may carry
  bytes[kHeaderSize + 1 + 4 + (4 + 4 + 4 + 2 + 13 * 4 + 1)] = static_cast<std::uint8_t>(kMaxSpawnBytes + 1);
  REQUIRE(encode(bad, bytes));
  CHECK(decode(bytes, received).reason() == DropReason::malformed);
  REQUIRE(encode(sample(), bytes));
  bytes.pop_back();
  CHECK(decode(bytes, received).reason() == DropReason::truncated);
  REQUIRE(encode(sample(), bytes));
  bytes[kHeaderSize + 1] = 0xFF;  // a spawn count no datagram could hold
  CHECK(decode(bytes, received).reason() == DropReason::truncated);
}
