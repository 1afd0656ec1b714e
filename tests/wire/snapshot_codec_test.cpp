// SPDX-License-Identifier: MIT
// The snapshot codec: seeded random states through every encoding path (absolute; small,
// medium and large relative; relative that falls back to absolute; unchanged; at rest with
// and without velocities; raw floats), the acks, and clean rejection of cut or corrupt bytes.
#include <doctest/doctest.h>

#include <algorithm>
#include <limits>

#include "core/random.hpp"
#include "wire/snapshot_codec.hpp"

using namespace shoal;
using namespace shoal::wire;

namespace {

const SnapshotConfig kConfig;

ObjectState random_state(core::Random& r, bool at_rest) {
  auto u = [&](double a, double b) { return static_cast<float>(r.uniform(a, b)); };
  ObjectState s;
  s.position = {u(-400, 400), u(0, 100), u(-400, 400)};
  s.orientation = normalized(Quat{u(-1, 1), u(-1, 1), u(-1, 1), u(-1, 1)});
  s.at_rest = at_rest;
  if (!at_rest) {
    s.linear_velocity = {u(-20, 20), u(-20, 20), u(-20, 20)};
    s.angular_velocity = {u(-20, 20), u(-20, 20), u(-20, 20)};
  }
  return s;
}

// The state moved by `scale` (metres, radians, m/s) from `from`.
ObjectState nudged(core::Random& r, const ObjectState& from, float scale, bool at_rest) {
  auto u = [&] { return static_cast<float>(r.uniform(-scale, scale)); };
  ObjectState s = from;
  s.position += Vec3{u(), u(), u()};
  s.orientation = normalized(s.orientation * axis_angle({u(), u(), u() + 1e-3f}, u()));
  s.at_rest = at_rest;
  s.linear_velocity = at_rest ? Vec3{} : from.linear_velocity + Vec3{u(), u(), u()};
  s.angular_velocity = at_rest ? Vec3{} : from.angular_velocity + Vec3{u(), u(), u()};
  return s;
}

Snapshot header(bool quantized, bool velocities_at_rest) {
  Snapshot s;
  s.sender = 3;
  s.frame = 5000;
  s.sequence = 65530;
  s.quantized = quantized;
  s.velocities_at_rest = velocities_at_rest;
  return s;
}

// `bytes` with one field's lowest bit set as in `other`: where `like` and `other`, encodings
// that differ in that bit only, differ. Then decoded, it must be refused as malformed.
void expect_malformed_with_bit_of(std::vector<std::uint8_t> bytes, const std::vector<std::uint8_t>& like,
                                  const std::vector<std::uint8_t>& other, const Quantizer& q) {
  REQUIRE(like.size() == other.size());
  std::vector<std::size_t> differing;
  for (std::size_t i = 0; i < like.size() * 8; ++i) {
    if (((like[i / 8] ^ other[i / 8]) >> (i % 8)) & 1u) differing.push_back(i);
  }
  REQUIRE(differing.size() == 1);
  Snapshot decoded;
  REQUIRE(decode(bytes, q.limits(), decoded));
  bytes[differing[0] / 8] = static_cast<std::uint8_t>(bytes[differing[0] / 8] ^ (1u << (differing[0] % 8)));
  const DecodeStatus status = decode(bytes, q.limits(), decoded);
  REQUIRE_FALSE(status.ok());
  CHECK(status.reason() == DropReason::malformed);
}

}  // namespace

TEST_CASE("snapshot: seeded random states round-trip through every encoding path") {
  const Quantizer q(kConfig);
  core::Random random(2024);
  std::vector<std::uint8_t> bytes;
  Snapshot decoded;
  int codings[3][3] = {};  // [field: position, orientation, velocity][unchanged, delta, absolute]
  for (int round = 0; round < 300; ++round) {
    const bool velocities_at_rest = round % 3 == 0;
    Snapshot s = header(true, velocities_at_rest);
    std::vector<QuantizedState> baselines, currents;
    BodyIndex index = static_cast<BodyIndex>(random.next_u64() % 50);
    for (int k = 0; k < 12; ++k) {
      const ObjectState base_state = random_state(random, random.chance(0.3));
      const float scales[] = {0.0f, 0.001f, 0.05f, 0.5f, 20.0f};
      const float scale = scales[random.next_u64() % 5];
      const ObjectState now_state = scale == 0 ? base_state : nudged(random, base_state, scale, random.chance(0.3));
      const QuantizedState base = q.quantize(base_state), now = q.quantize(now_state);
      const bool with_baseline = random.chance(0.8);
      const auto age = static_cast<std::uint32_t>(1 + random.next_u64() % kMaxBaselineAge);
      s.objects.push_back(make_record(index, now, with_baseline ? &base : nullptr, with_baseline ? age : 0));
      baselines.push_back(base);
      currents.push_back(now);
      index += 1 + static_cast<BodyIndex>(random.next_u64() % (random.chance(0.1) ? 5000 : 10));
    }
    REQUIRE(encode(s, q.limits(), bytes));
    REQUIRE(decode(bytes, q.limits(), decoded));
    CHECK(decoded.frame == s.frame);
    CHECK(decoded.sequence == s.sequence);
    REQUIRE(decoded.objects.size() == s.objects.size());
    // The measured size is the encoded size.
    std::size_t bits = header_bits(s);
    BodyIndex next = 0;
    for (const ObjectRecord& r : s.objects) {
      bits += record_bits(s, r, r.index - next, q.limits());
      next = r.index + 1;
    }
    CHECK(datagram_bytes(bits) == bytes.size());
    // Only the index code depends on the gap: what a sender's size estimates rely on.
    for (const ObjectRecord& r : s.objects) {
      for (const BodyIndex gap : {0u, 1u, 8u, 9u, 136u, 137u, 5000u}) {
        const BodyIndex possible = std::min(gap, r.index);  // a gap cannot reach below index 0
        CHECK(record_bits(s, r, possible, q.limits()) ==
              record_bits(s, r, 0, q.limits()) - index_bits(0) + index_bits(possible));
      }
    }
    CHECK(index_bits(0) < index_bits(1));
    CHECK(index_bits(8) < index_bits(9));
    CHECK(index_bits(136) < index_bits(137));
    for (std::size_t k = 0; k < s.objects.size(); ++k) {
      const ObjectRecord& r = decoded.objects[k];
      CHECK(r.index == s.objects[k].index);
      const auto state = apply_record(r, &baselines[k], q);
      REQUIRE(state.has_value());
      CHECK(*state == currents[k]);
      ++codings[0][static_cast<int>(r.position.coding)];
      ++codings[1][static_cast<int>(r.orientation.coding)];
      if (!r.at_rest || velocities_at_rest) ++codings[2][static_cast<int>(r.linear_velocity.coding)];
    }
  }
  for (auto& field : codings) {
    for (int count : field) CHECK(count > 0);  // every path was taken
  }
}

TEST_CASE("snapshot: relative encodings are smaller, and an unchanged object at rest costs a few bits") {
  const Quantizer q(kConfig);
  Snapshot s = header(true, false);
  ObjectState resting;
  resting.position = {3, 0.2f, 4};
  resting.at_rest = true;
  const QuantizedState rest = q.quantize(resting);
  const ObjectRecord unchanged = make_record(1, rest, &rest, 10);
  const ObjectRecord whole = make_record(1, rest, nullptr, 0);
  CHECK(record_bits(s, unchanged, 0, q.limits()) <= 12);
  CHECK(record_bits(s, whole, 0, q.limits()) > 100);
  ObjectState moving = resting;
  moving.at_rest = false;
  moving.linear_velocity = {1, 0, 0};
  ObjectState moved = moving;
  moved.position.x += 0.01f;
  const QuantizedState a = q.quantize(moving), b = q.quantize(moved);
  CHECK(record_bits(s, make_record(1, b, &a, 1), 0, q.limits()) < record_bits(s, make_record(1, b, nullptr, 0), 0, q.limits()) / 2);
}

TEST_CASE("snapshot: raw floats and acks round-trip") {
  const Quantizer q(kConfig);
  core::Random random(5);
  Snapshot s = header(false, false);
  s.controlled = 42;
  s.has_ack = true;
  s.ack = {65535, 0x80000001, {0, 7, kMaxBodies - 1}};
  // The ends of the input window: 16 frames ahead (a sender's input delay), 239 behind.
  s.inputs = {{5000 + kMaxInputFramesAhead, {{1, 0, -1}, 3}}, {5000 - kMaxInputFramesBack, {{0, 0, 0}, 0}}};
  for (BodyIndex i = 0; i < 15; ++i) {
    ObjectRecord r;
    r.index = i * 7;
    r.raw = random_state(random, i % 4 == 0);
    r.at_rest = r.raw.at_rest;
    s.objects.push_back(r);
  }
  std::vector<std::uint8_t> bytes;
  REQUIRE(encode(s, q.limits(), bytes));
  Snapshot decoded;
  REQUIRE(decode(bytes, q.limits(), decoded));
  CHECK(decoded == s);
  std::vector<std::uint8_t> refused;
  Snapshot outside = s;
  outside.inputs[0].frame += 1;  // one frame further ahead than the format holds
  CHECK_FALSE(encode(outside, q.limits(), refused));
  outside = s;
  outside.inputs[1].frame -= 1;  // one frame further back
  CHECK_FALSE(encode(outside, q.limits(), refused));

  SnapshotAckMessage ack{9, {12, 0xFFFFFFFF, {1, 2, 3}}}, ack_back;
  REQUIRE(encode(ack, bytes));
  REQUIRE(decode(bytes, ack_back));
  CHECK(ack_back == ack);
}

TEST_CASE("snapshot: an input whose frame would fall outside the frame range is malformed, not wrapped") {
  const Quantizer q(kConfig);
  // Frames INT32_MIN + 3 and + 2 differ only in the frame field's lowest bit: where it lies.
  const auto encoded_at = [&](Frame frame) {
    Snapshot s = header(false, false);
    s.frame = frame;
    s.inputs = {{frame - 1, {{1, 0, 0}, 0}}};  // one frame back
    std::vector<std::uint8_t> bytes;
    REQUIRE(encode(s, q.limits(), bytes));
    return bytes;
  };
  constexpr Frame kLowest = std::numeric_limits<Frame>::min();
  // Frame INT32_MIN + 1 with its input one frame back, its frame bit 0 cleared: a snapshot of
  // frame INT32_MIN whose input would be frame INT32_MIN - 1.
  expect_malformed_with_bit_of(encoded_at(kLowest + 1), encoded_at(kLowest + 3), encoded_at(kLowest + 2), q);
}

TEST_CASE("snapshot: an index gap past the last index the field holds is malformed") {
  const Quantizer q(kConfig);
  const auto encoded = [&](std::vector<BodyIndex> indices) {
    Snapshot s = header(false, false);
    for (BodyIndex index : indices) {
      ObjectRecord r;
      r.index = index;
      r.raw.at_rest = r.at_rest = true;
      s.objects.push_back(r);
    }
    std::vector<std::uint8_t> bytes;
    REQUIRE(encode(s, q.limits(), bytes));
    return bytes;
  };
  // Records 2^20 - 2 and the next one (gap 0), the first made 2^20 - 1 (one record written as
  // its index itself, 2^20 - 2 or - 1, shows where that field's lowest bit is): the gap then
  // names index 2^20, which no body has and the encoder refuses.
  expect_malformed_with_bit_of(encoded({kMaxBodies - 2, kMaxBodies - 1}), encoded({kMaxBodies - 2}),
                               encoded({kMaxBodies - 1}), q);
}

TEST_CASE("snapshot: records encoded once go into packets of any header, each as encode writes it") {
  const Quantizer q(kConfig);
  core::Random random(31);
  for (const bool quantized : {true, false}) {
    Snapshot s = header(quantized, false);
    std::vector<std::uint8_t> user(kMaxUserBytes);
    for (BodyIndex i = 0; i < 12; ++i) {
      const ObjectState state = random_state(random, i % 5 == 1);
      ObjectRecord r = make_record(i * 3, q.quantize(state), nullptr, 0);
      if (quantized && r.at_rest) {  // not sent at rest, and read back as unchanged
        r.linear_velocity = r.angular_velocity = VectorField{Coding::unchanged, {}};
      }
      if (!quantized) {
        r = ObjectRecord{};
        r.index = i * 3;
        r.raw = state;
        r.at_rest = state.at_rest;
      }
      for (std::uint8_t& byte : user) byte = static_cast<std::uint8_t>(random.next_u64());
      // Up to the most user bytes a type may have: the longest record there is.
      if (i % 3 == 0) set_user_bytes(r, std::span(user).first(i == 0 ? kMaxUserBytes : i), {});
      s.objects.push_back(r);
    }
    std::vector<EncodedRecord> encoded(s.objects.size());
    std::vector<EncodedRef> refs;
    for (std::size_t k = 0; k < s.objects.size(); ++k) {
      REQUIRE(encode_record(s, s.objects[k], q.limits(), encoded[k]));
      refs.push_back({s.objects[k].index, &encoded[k]});
    }
    // The longest record uses every word.
    if (!quantized) CHECK(encoded[0].bits > 64 * (encoded[0].words.size() - 1));
    std::vector<std::uint8_t> sizes(s.objects.back().index + 1);
    for (const ObjectRecord& r : s.objects) sizes[r.index] = r.user_bytes.size;
    // Headers of different lengths put the records at different bit offsets.
    for (std::size_t inputs = 0; inputs <= 6; ++inputs) {
      Snapshot h = s;
      h.has_ack = inputs % 2 == 1;
      if (h.has_ack) h.ack = {7, 0x5, {}};
      for (std::size_t k = 0; k < inputs; ++k) {
        h.inputs.push_back({h.frame - static_cast<Frame>(k), {{static_cast<float>(k), 0, 1}, 1}});
      }
      std::vector<std::uint8_t> spliced, whole;
      REQUIRE(encode(h, refs, spliced));
      REQUIRE(encode(h, q.limits(), whole));
      CHECK(spliced == whole);
      Snapshot decoded;
      REQUIRE(decode(spliced, q.limits(), decoded, sizes));
      CHECK(decoded == h);
    }
    // A record the format refused is not written.
    refs[4].encoded = nullptr;
    std::vector<std::uint8_t> bytes{1};
    CHECK_FALSE(encode(s, refs, bytes));
    CHECK(bytes.empty());
  }
}

TEST_CASE("snapshot: what the format cannot carry is refused by the encoder") {
  const Quantizer q(kConfig);
  std::vector<std::uint8_t> bytes{1};
  Snapshot s = header(true, false);
  s.objects = {make_record(5, QuantizedState{}, nullptr, 0), make_record(5, QuantizedState{}, nullptr, 0)};
  CHECK_FALSE(encode(s, q.limits(), bytes));  // indices must ascend
  CHECK(bytes.empty());
  s.objects = {make_record(kMaxBodies, QuantizedState{}, nullptr, 0)};
  CHECK_FALSE(encode(s, q.limits(), bytes));
  s.objects.clear();
  s.inputs.assign(kMaxInputRecords + 1, {s.frame, {}});
  CHECK_FALSE(encode(s, q.limits(), bytes));
  s.inputs = {{s.frame - 256, {}}};  // further back than the offset field reaches
  CHECK_FALSE(encode(s, q.limits(), bytes));
  s.inputs.clear();
  s.objects.assign(1500, make_record(0, QuantizedState{}, nullptr, 0));
  for (BodyIndex i = 0; i < 1500; ++i) s.objects[i].index = i;
  CHECK_FALSE(encode(s, q.limits(), bytes));  // over the datagram limit
}

TEST_CASE("snapshot: every truncation and corrupted field is rejected with a reason, never a crash") {
  const Quantizer q(kConfig);
  core::Random random(8);
  Snapshot s = header(true, false);
  s.has_ack = true;
  s.ack = {7, 3, {4}};
  for (BodyIndex i = 0; i < 20; ++i) {
    const ObjectState base = random_state(random, false);
    const QuantizedState b = q.quantize(base);
    s.objects.push_back(make_record(i * 3, q.quantize(nudged(random, base, 0.05f, i % 5 == 0)), &b, 4));
  }
  std::vector<std::uint8_t> bytes;
  REQUIRE(encode(s, q.limits(), bytes));
  Snapshot decoded;
  for (std::size_t cut = 0; cut < bytes.size(); ++cut) {
    const DecodeStatus status = decode(std::span(bytes.data(), cut), q.limits(), decoded);
    REQUIRE_FALSE(status.ok());
    CHECK((status.reason() == DropReason::truncated || status.reason() == DropReason::malformed));
  }
  int rejected = 0, accepted = 0;
  for (std::size_t i = 0; i < bytes.size() * 8; ++i) {
    std::vector<std::uint8_t> flipped = bytes;
    flipped[i / 8] = static_cast<std::uint8_t>(flipped[i / 8] ^ (1u << (i % 8)));
    const DecodeStatus status = decode(flipped, q.limits(), decoded);
    if (status) {
      ++accepted;
      std::vector<std::uint8_t> again;
      REQUIRE(encode(decoded, q.limits(), again));
      CHECK(again == flipped);  // one encoding per value
    } else {
      ++rejected;
      CHECK(status.reason() < DropReason::count);
    }
  }
  CHECK(rejected > 0);
  CHECK(accepted > 0);  // flips inside values decode as other values: that is what acks and checksums are for
}
