#include <doctest/doctest.h>

#include <cstring>
#include <limits>
#include <vector>

#include "allocation_counter.hpp"
#include "wire/snapshot_codec.hpp"

using namespace shoal;
using namespace shoal::wire;

namespace {

Snapshot sample_snapshot(std::size_t object_count) {
  Snapshot snapshot;
  snapshot.sender = 3;
  snapshot.frame = 98765;
  snapshot.controlled = 42;
  snapshot.inputs = {{98764, {{0.5f, -1.0f, 0.0f}, 0x5}}, {98765, {{1.0f, 0.0f, -0.25f}, 0}}};
  for (std::size_t i = 0; i < object_count; ++i) {
    const float f = static_cast<float>(i);
    ObjectState state;
    state.position = {f, -2.5f * f, 1e6f};
    state.orientation = axis_angle({1, 2, 3}, 0.1f * f);
    state.linear_velocity = {0.1f, f, -f};
    state.angular_velocity = {0, 3.25f, -1e-7f};
    state.at_rest = (i % 3) == 0;
    snapshot.objects.push_back({static_cast<ObjectId>(1000 + i), state});
  }
  return snapshot;
}

constexpr std::size_t kFirstObject = kSnapshotFixedBytes + 2 * kInputRecordBytes;

void put_float(std::vector<std::uint8_t>& bytes, std::size_t at, float value) {
  REQUIRE(at + 4 <= bytes.size());
  std::memcpy(bytes.data() + at, &value, 4);
}

}  // namespace

TEST_CASE("snapshot: round trip keeps every bit") {
  for (const std::size_t objects : {0, 1, 17}) {
    CAPTURE(objects);
    const Snapshot sent = sample_snapshot(objects);
    std::vector<std::uint8_t> bytes;
    REQUIRE(encode(sent, bytes));
    CHECK(bytes.size() == encoded_size(sent));
    Snapshot received;
    REQUIRE(decode(bytes, received).ok());
    CHECK(received == sent);
  }
  Snapshot none;
  none.controlled = kNoObject;
  std::vector<std::uint8_t> bytes;
  REQUIRE(encode(none, bytes));
  Snapshot received;
  REQUIRE(decode(bytes, received).ok());
  CHECK(received.controlled == kNoObject);
}

TEST_CASE("snapshot: encode and decode allocate nothing once buffers are warm") {
  const Snapshot sent = sample_snapshot(12);
  std::vector<std::uint8_t> bytes;
  Snapshot received;
  REQUIRE(encode(sent, bytes));
  REQUIRE(decode(bytes, received).ok());

  test::start_counting_allocations();
  for (int i = 0; i < 10; ++i) {
    REQUIRE(encode(sent, bytes));
    REQUIRE(decode(bytes, received).ok());
  }
  CHECK(test::counted_allocations().count == 0);
  CHECK(received == sent);
}

TEST_CASE("snapshot: oversize snapshots are refused by encode and dropped by decode") {
  const std::size_t fits = (kMaxUnreliableDatagram - kSnapshotFixedBytes - 2 * kInputRecordBytes) /
                           kObjectRecordBytes;
  Snapshot largest = sample_snapshot(fits);
  std::vector<std::uint8_t> bytes;
  CHECK(encode(largest, bytes));
  largest.objects.push_back({});
  CHECK_FALSE(encode(largest, bytes));
  CHECK(bytes.empty());

  std::vector<std::uint8_t> padded(kMaxUnreliableDatagram + 1, 0);
  REQUIRE(encode(sample_snapshot(0), bytes));
  std::memcpy(padded.data(), bytes.data(), bytes.size());
  Snapshot received;
  CHECK(decode(padded, received).reason() == DropReason::oversize);
}

TEST_CASE("snapshot: damaged snapshots are dropped with the right reason") {
  std::vector<std::uint8_t> bytes;
  REQUIRE(encode(sample_snapshot(2), bytes));
  Snapshot received;

  SUBCASE("every truncation") {
    for (std::size_t size = 0; size < bytes.size(); ++size) {
      CAPTURE(size);
      CHECK(decode(std::span(bytes.data(), size), received).reason() == DropReason::truncated);
    }
  }
  SUBCASE("counts larger than the bytes") {
    const std::size_t input_count_at = kSnapshotFixedBytes - 4;
    bytes[input_count_at] = 0xFF;
    bytes[input_count_at + 1] = 0xFF;
    CHECK(decode(bytes, received).reason() == DropReason::truncated);
    CHECK(received.inputs.capacity() == 0);
  }
  SUBCASE("trailing bytes") {
    bytes.push_back(0);
    CHECK(decode(bytes, received).reason() == DropReason::malformed);
  }
  SUBCASE("NaN or infinity anywhere") {
    for (const float bad : {std::numeric_limits<float>::quiet_NaN(),
                            std::numeric_limits<float>::infinity()}) {
      auto in_input = bytes;
      put_float(in_input, kSnapshotFixedBytes - 2 + 4, bad);  // first input's axis.x
      CHECK(decode(in_input, received).reason() == DropReason::malformed);
      auto in_velocity = bytes;
      put_float(in_velocity, kFirstObject + 4 + 7 * 4, bad);  // linear_velocity.x
      CHECK(decode(in_velocity, received).reason() == DropReason::malformed);
    }
  }
  SUBCASE("orientation that is not a unit quaternion") {
    put_float(bytes, kFirstObject + 4 + 3 * 4, 1.01f);  // orientation.w
    CHECK(decode(bytes, received).reason() == DropReason::malformed);
  }
  SUBCASE("reserved flag bits") {
    bytes[kFirstObject + kObjectRecordBytes - 1] = 0x80;
    CHECK(decode(bytes, received).reason() == DropReason::malformed);
  }
}

TEST_CASE("snapshot: small quaternion drift is accepted") {
  Snapshot snapshot = sample_snapshot(1);
  snapshot.objects[0].state.orientation = {1.0002f, 0, 0, 0};
  std::vector<std::uint8_t> bytes;
  REQUIRE(encode(snapshot, bytes));
  Snapshot received;
  CHECK(decode(bytes, received).ok());
}
