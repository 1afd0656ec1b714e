// SPDX-License-Identifier: MIT
// The bit packer: one serialize function writes, reads and measures alike; the reader is
// bounds-checked and says why it stops.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <limits>
#include <span>
#include <vector>

#include "core/random.hpp"
#include "wire/bit_stream.hpp"

using namespace shoal;
using namespace shoal::wire;

namespace {

struct Sample {
  std::uint32_t small = 0;   // 0..5
  std::int32_t signed_value = 0;  // -1000..1000
  bool flag = false;
  float real = 0;
  std::uint32_t wide = 0;    // 32 bits

  bool operator==(const Sample&) const = default;
};

template <class Stream>
bool serialize(Stream& s, Sample& x) {
  return serialize_uint(s, x.small, 0, 5) && serialize_int(s, x.signed_value, -1000, 1000) &&
         serialize_bool(s, x.flag) && serialize_float(s, x.real) && s.bits(x.wide, 32);
}

}  // namespace

TEST_CASE("bit stream: seeded values round-trip, and the measurer counts what the writer writes") {
  core::Random random(7);
  for (int i = 0; i < 2000; ++i) {
    Sample in;
    in.small = static_cast<std::uint32_t>(random.next_u64() % 6);
    in.signed_value = static_cast<std::int32_t>(random.next_u64() % 2001) - 1000;
    in.flag = random.chance(0.5);
    in.real = static_cast<float>(random.uniform(-1e6, 1e6));
    in.wide = static_cast<std::uint32_t>(random.next_u64());
    std::vector<std::uint8_t> bytes;
    BitWriter writer(bytes);
    REQUIRE(serialize(writer, in));
    writer.finish();
    BitMeasurer measurer;
    REQUIRE(serialize(measurer, in));
    CHECK(measurer.bits_used() == writer.bits_used());
    CHECK(writer.bits_used() == 3 + 11 + 1 + 32 + 32);
    CHECK(bytes.size() == (writer.bits_used() + 7) / 8);
    Sample out;
    BitReader reader(bytes);
    REQUIRE(serialize(reader, out));
    CHECK(reader.finish());
    CHECK(out == in);
  }
}

TEST_CASE("bit stream: bits written once into words append as if written field by field") {
  core::Random random(11);
  for (int i = 0; i < 500; ++i) {
    std::vector<Sample> samples(1 + random.next_u64() % 5);
    for (Sample& x : samples) {
      x.small = static_cast<std::uint32_t>(random.next_u64() % 6);
      x.flag = random.chance(0.5);
      x.real = static_cast<float>(random.uniform(-1e6, 1e6));
      x.wide = static_cast<std::uint32_t>(random.next_u64());
    }
    std::array<std::uint64_t, 8> words{};
    words.fill(~std::uint64_t{0});  // a writer must not depend on cleared words
    WordWriter once(words);
    for (Sample& x : samples) REQUIRE(serialize(once, x));
    // Appended after every lead of 0..63 bits, to meet every alignment.
    const auto lead = static_cast<int>(random.next_u64() % 64);
    std::uint32_t lead_bits = static_cast<std::uint32_t>(random.next_u64());
    std::vector<std::uint8_t> direct, appended;
    {
      BitWriter writer(direct);
      std::uint32_t first = lead_bits >> 8;
      REQUIRE(writer.bits(lead_bits, std::min(lead, 32)));
      if (lead > 32) REQUIRE(writer.bits(first, lead - 32));
      for (Sample& x : samples) REQUIRE(serialize(writer, x));
    }
    {
      BitWriter writer(appended);
      std::uint32_t first = lead_bits >> 8;
      REQUIRE(writer.bits(lead_bits, std::min(lead, 32)));
      if (lead > 32) REQUIRE(writer.bits(first, lead - 32));
      writer.append(words, once.bits_used());
      CHECK(writer.bits_used() == static_cast<std::size_t>(lead) + once.bits_used());
    }
    CHECK(appended == direct);
  }
  // Full words refuse more, rather than write past them.
  std::array<std::uint64_t, 1> one{};
  WordWriter full(one);
  std::uint32_t value = 5;
  CHECK(full.bits(value, 32));
  CHECK(full.bits(value, 32));
  CHECK_FALSE(full.bits(value, 1));
  CHECK(full.bits_used() == 64);
}

TEST_CASE("bit stream: bounds are honoured on both sides") {
  Sample extreme{5, -1000, true, -0.0f, 0xFFFFFFFF};
  std::vector<std::uint8_t> bytes;
  BitWriter writer(bytes);
  REQUIRE(serialize(writer, extreme));
  writer.finish();
  Sample out;
  BitReader reader(bytes);
  REQUIRE(serialize(reader, out));
  CHECK(out == extreme);

  // A writer refuses what would not fit instead of writing something else.
  std::vector<std::uint8_t> scratch;
  BitWriter refusing(scratch);
  std::uint32_t too_big = 6;
  CHECK_FALSE(serialize_uint(refusing, too_big, 0, 5));
  std::int32_t too_small = -1001;
  CHECK_FALSE(serialize_int(refusing, too_small, -1000, 1000));

  // A reader rejects a value in range of its bits but outside its bounds as malformed.
  std::vector<std::uint8_t> seven{7};
  BitReader out_of_range(seven);
  std::uint32_t v = 0;
  CHECK_FALSE(serialize_uint(out_of_range, v, 0, 5));
  CHECK(out_of_range.reason() == DropReason::malformed);

  // NaN and infinity are not floats a peer sends.
  for (const float bad : {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity()}) {
    std::vector<std::uint8_t> b;
    BitWriter w(b);
    float value = bad;
    REQUIRE(serialize_float(w, value));
    w.finish();
    BitReader r(b);
    float got = 0;
    CHECK_FALSE(serialize_float(r, got));
    CHECK(r.reason() == DropReason::malformed);
  }
}

TEST_CASE("bit stream: every truncation fails cleanly as truncated, trailing bits are malformed") {
  Sample in{3, 77, true, 1.5f, 123456};
  std::vector<std::uint8_t> bytes;
  BitWriter writer(bytes);
  REQUIRE(serialize(writer, in));
  writer.finish();
  for (std::size_t cut = 0; cut < bytes.size(); ++cut) {
    CAPTURE(cut);
    BitReader reader(std::span<const std::uint8_t>(bytes.data(), cut));
    Sample out;
    CHECK_FALSE(serialize(reader, out));
    CHECK(reader.reason() == DropReason::truncated);
  }
  std::vector<std::uint8_t> longer = bytes;
  longer.push_back(0);
  BitReader extra(longer);
  Sample out;
  REQUIRE(serialize(extra, out));
  CHECK_FALSE(extra.finish());
  CHECK(extra.reason() == DropReason::malformed);

  std::vector<std::uint8_t> dirty = bytes;
  dirty.back() = static_cast<std::uint8_t>(dirty.back() | 0x80);  // a padding bit set
  BitReader padding(dirty);
  REQUIRE(serialize(padding, out));
  CHECK_FALSE(padding.finish());
}

TEST_CASE("bit stream: bytes are packed least significant bit first, at any width and length") {
  // A bit-by-bit reference packer against the writer's whole-byte copies and the reader's
  // 8-byte loads (and its byte-wise reads within a message's last 7 bytes): short streams, so
  // that most reads are near the end, and long ones.
  core::Random random(11);
  for (int stream = 0; stream < 400; ++stream) {
    const int fields = stream % 2 == 0 ? 1 + static_cast<int>(random.next_u64() % 6) : 200;
    std::vector<int> widths;
    std::vector<std::uint32_t> values;
    std::vector<std::uint8_t> expected;
    std::size_t bit = 0;
    for (int f = 0; f < fields; ++f) {
      const int width = static_cast<int>(random.next_u64() % 33);
      const auto value = static_cast<std::uint32_t>(random.next_u64() & low_mask(width));
      widths.push_back(width);
      values.push_back(value);
      for (int b = 0; b < width; ++b, ++bit) {
        if (bit % 8 == 0) expected.push_back(0);
        expected.back() = static_cast<std::uint8_t>(expected.back() | (((value >> b) & 1u) << (bit % 8)));
      }
    }
    std::vector<std::uint8_t> bytes{0xAB};  // a header byte the writer must leave alone
    BitWriter writer(bytes);
    for (int f = 0; f < fields; ++f) REQUIRE(writer.bits(values[static_cast<std::size_t>(f)], widths[static_cast<std::size_t>(f)]));
    writer.finish();
    REQUIRE(bytes.size() == expected.size() + 1);
    CHECK(bytes[0] == 0xAB);
    CHECK(std::equal(expected.begin(), expected.end(), bytes.begin() + 1));
    BitReader reader(std::span<const std::uint8_t>(bytes).subspan(1));
    for (int f = 0; f < fields; ++f) {
      std::uint32_t got = 0;
      REQUIRE(reader.bits(got, widths[static_cast<std::size_t>(f)]));
      CHECK(got == values[static_cast<std::size_t>(f)]);
    }
    CHECK(reader.finish());
  }
}
