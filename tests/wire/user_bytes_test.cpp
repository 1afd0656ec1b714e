// SPDX-License-Identifier: MIT
// User bytes on the wire: in snapshot records (absolute, and one "unchanged" bit against a
// baseline; raw snapshots too) and in late-join baselines. The receiver knows each body's size
// from its type; a datagram that disagrees with it is rejected with a reason.
#include <doctest/doctest.h>

#include "wire/control_messages.hpp"
#include "wire/snapshot_codec.hpp"

using namespace shoal;
using namespace shoal::wire;

namespace {

const std::vector<std::uint8_t> kSizes{0, 3, 0, 5};  // bodies 1 and 3 have user bytes

Snapshot quantized_snapshot(const Quantizer& q) {
  Snapshot s;
  s.sender = 1;
  s.frame = 400;
  ObjectState moving;
  moving.position = {1, 2, 3};
  moving.linear_velocity = {0, 0, 1};
  const QuantizedState base = q.quantize(moving);
  const std::vector<std::uint8_t> old_bytes{9, 8, 7, 6, 5}, new_bytes{9, 8, 7, 6, 4};
  ObjectRecord plain = make_record(0, base, nullptr, 0);
  ObjectRecord absolute = make_record(1, base, nullptr, 0);
  set_user_bytes(absolute, std::span(new_bytes).first(3), {});
  ObjectRecord unchanged = make_record(3, base, &base, 4);
  set_user_bytes(unchanged, old_bytes, old_bytes);
  s.objects = {plain, absolute, unchanged};
  return s;
}

}  // namespace

TEST_CASE("user bytes: snapshot records round-trip absolute, unchanged against a baseline, and raw") {
  const Quantizer q{SnapshotConfig{}};
  Snapshot s = quantized_snapshot(q);
  CHECK_FALSE(s.objects[1].user_bytes_unchanged);
  CHECK(s.objects[2].user_bytes_unchanged);
  std::vector<std::uint8_t> bytes;
  REQUIRE(encode(s, q.limits(), bytes));
  Snapshot decoded;
  REQUIRE(decode(bytes, q.limits(), decoded, kSizes));
  CHECK(decoded.objects.size() == 3);
  CHECK(decoded.objects[0].user_bytes.size == 0);
  CHECK(decoded.objects[1].user_bytes == s.objects[1].user_bytes);
  CHECK(decoded.objects[2].user_bytes_unchanged);

  // What the receiver makes of them: the record's bytes, or its baseline's.
  std::array<std::uint8_t, 5> out{};
  REQUIRE(apply_user_bytes(decoded.objects[1], {}, std::span(out).first(3)));
  CHECK(out[0] == 9);
  CHECK(out[2] == 7);
  const std::vector<std::uint8_t> baseline{1, 2, 3, 4, 5};
  REQUIRE(apply_user_bytes(decoded.objects[2], baseline, out));
  CHECK(std::ranges::equal(out, baseline));
  CHECK_FALSE(apply_user_bytes(decoded.objects[2], {}, out));  // the baseline is not held

  // Unchanged costs one bit; changed bytes one bit plus 8 per byte.
  ObjectRecord changed = s.objects[2];
  changed.user_bytes_unchanged = false;
  const std::size_t unchanged_bits = record_bits(s, s.objects[2], 0, q.limits());
  ObjectRecord without = s.objects[2];
  without.user_bytes = {};
  CHECK(unchanged_bits == record_bits(s, without, 0, q.limits()) + 1);
  CHECK(record_bits(s, changed, 0, q.limits()) == unchanged_bits + 5 * 8);

  Snapshot raw = s;
  raw.quantized = false;
  for (ObjectRecord& r : raw.objects) {
    r.baseline_age = 0;
    r.user_bytes_unchanged = false;
    r.raw.linear_velocity = {0, 0, 1};
  }
  REQUIRE(encode(raw, q.limits(), bytes));
  REQUIRE(decode(bytes, q.limits(), decoded, kSizes));
  CHECK(decoded.objects[2].user_bytes == raw.objects[2].user_bytes);
  CHECK(decoded.objects[2].user_bytes.size == 5);
}

TEST_CASE("user bytes: truncated, mis-sized and oversized records are rejected with a reason") {
  const Quantizer q{SnapshotConfig{}};
  const Snapshot s = quantized_snapshot(q);
  std::vector<std::uint8_t> bytes;
  REQUIRE(encode(s, q.limits(), bytes));
  Snapshot decoded;
  for (std::size_t cut = 0; cut < bytes.size(); ++cut) {
    const DecodeStatus status = decode(std::span(bytes.data(), cut), q.limits(), decoded, kSizes);
    REQUIRE_FALSE(status.ok());
    CHECK((status.reason() == DropReason::truncated || status.reason() == DropReason::malformed));
  }
  // A receiver that expects other sizes than the sender wrote never reads the records sent:
  // the datagram is rejected with a reason (or, at worst, read as other records).
  int rejected = 0;
  for (const std::vector<std::uint8_t>& sizes :
       {std::vector<std::uint8_t>{}, std::vector<std::uint8_t>{0, 4, 0, 5}, std::vector<std::uint8_t>{4, 3, 0, 5}}) {
    const DecodeStatus status = decode(bytes, q.limits(), decoded, sizes);
    if (status.ok()) {
      CHECK(decoded.objects != s.objects);
    } else {
      ++rejected;
      CHECK((status.reason() == DropReason::truncated || status.reason() == DropReason::malformed));
    }
  }
  CHECK(rejected >= 2);
  // The encoder refuses what the format cannot say.
  Snapshot bad = s;
  bad.objects[1].user_bytes.size = kMaxUserBytes + 1;
  CHECK_FALSE(encode(bad, q.limits(), bytes));
  bad = s;
  bad.objects[1].user_bytes_unchanged = true;  // "unchanged" with no baseline to be unchanged from
  CHECK_FALSE(encode(bad, q.limits(), bytes));
}

TEST_CASE("user bytes: late-join baselines carry them, oversized and truncated sizes are rejected") {
  ObjectState s;
  s.position = {1, 2, 3};
  Baseline baseline;
  baseline.frame = 77;
  baseline.objects.resize(2);
  baseline.objects[0].object = 5;
  baseline.objects[0].state = s;
  const std::array<std::uint8_t, 4> bytes_of_6{1, 2, 3, 250};
  baseline.objects[1].object = 6;
  baseline.objects[1].user_bytes.assign(bytes_of_6);
  std::vector<std::uint8_t> bytes;
  REQUIRE(encode(baseline, bytes));
  Baseline decoded;
  REQUIRE(decode(bytes, decoded));
  CHECK(decoded == baseline);
  CHECK(decoded.objects[1].user_bytes.size == 4);
  CHECK(decoded.objects[1].user_bytes.data[3] == 250);

  // The size byte of the last object sits 6 bytes before the end (then its 4 bytes and `last`).
  std::vector<std::uint8_t> oversized = bytes;
  oversized[oversized.size() - 6] = static_cast<std::uint8_t>(kMaxUserBytes + 1);
  DecodeStatus status = decode(oversized, decoded);
  REQUIRE_FALSE(status.ok());
  CHECK(status.reason() == DropReason::malformed);
  std::vector<std::uint8_t> longer = bytes;
  longer[longer.size() - 6] = 5;  // announces more than the datagram holds
  status = decode(longer, decoded);
  REQUIRE_FALSE(status.ok());
  CHECK(status.reason() == DropReason::truncated);
}
