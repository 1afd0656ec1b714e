// SPDX-License-Identifier: MIT
// The game's own input bytes in a snapshot's inputs (wire version 10): they round-trip with the
// redundant inputs, trailing zeros are not sent, a repeat is one bit, and a receiver refuses
// more bytes than its game uses (oversize) or a count that is not the shortest (malformed).
#include <doctest/doctest.h>

#include <vector>

#include "wire/quantize.hpp"
#include "wire/snapshot_codec.hpp"

using namespace shoal;
using namespace shoal::wire;

namespace {

Quantizer quantizer_with(int input_bytes) {
  SnapshotConfig config;
  config.input_bytes = input_bytes;
  return Quantizer(config);
}

Snapshot with_inputs(std::vector<InputRecord> inputs) {
  Snapshot s;
  s.sender = 1;
  s.frame = 700;
  s.controlled = 3;
  s.inputs = std::move(inputs);
  return s;
}

Input aiming(std::uint8_t aim, std::uint8_t weapon) {
  Input in;
  in.bytes[0] = aim;
  in.bytes[63] = weapon;  // the last of 64
  return in;
}

}  // namespace

TEST_CASE("input bytes: 64 bytes per input round-trip with their redundant copies") {
  const Quantizer q = quantizer_with(64);
  Input full;
  for (std::size_t i = 0; i < kMaxInputBytes; ++i) full.bytes[i] = static_cast<std::uint8_t>(i * 7 + 1);
  const Snapshot s = with_inputs({{700, aiming(200, 3)}, {699, aiming(200, 3)}, {698, full}, {697, Input{}}});
  std::vector<std::uint8_t> bytes;
  REQUIRE(encode(s, q.limits(), bytes));
  Snapshot decoded;
  REQUIRE(decode(bytes, q.limits(), decoded));
  CHECK(decoded == s);
  CHECK(decoded.inputs[2].input.bytes == full.bytes);
}

TEST_CASE("input bytes: trailing zeros cost nothing and a repeat costs one bit") {
  const Quantizer q = quantizer_with(64);
  std::vector<std::uint8_t> none, short_one, repeated;
  REQUIRE(encode(with_inputs({{700, Input{}}}), q.limits(), none));
  Input two;
  two.bytes[1] = 9;
  REQUIRE(encode(with_inputs({{700, two}}), q.limits(), short_one));
  CHECK(short_one.size() <= none.size() + 2);  // a count and two bytes, in bits
  REQUIRE(encode(with_inputs({{700, aiming(1, 2)}}), q.limits(), none));
  REQUIRE(encode(with_inputs({{700, aiming(1, 2)}, {699, aiming(1, 2)}}), q.limits(), repeated));
  CHECK(repeated.size() <= none.size() + 2);  // the copy: its frame offset and the `same` bit
}

TEST_CASE("input bytes: more than the receiver's game uses is oversize, a padded count malformed") {
  const Quantizer sender = quantizer_with(64);
  const Quantizer receiver = quantizer_with(8);
  Input wide;
  wide.bytes[20] = 1;
  std::vector<std::uint8_t> bytes;
  REQUIRE(encode(with_inputs({{700, wide}}), sender.limits(), bytes));
  Snapshot decoded;
  CHECK(decode(bytes, receiver.limits(), decoded).reason() == DropReason::oversize);
  Input narrow;
  narrow.bytes[7] = 1;
  REQUIRE(encode(with_inputs({{700, narrow}}), sender.limits(), bytes));
  CHECK(decode(bytes, receiver.limits(), decoded).ok());
  CHECK_THROWS_AS(quantizer_with(65), std::invalid_argument);
  CHECK_THROWS_AS(quantizer_with(-1), std::invalid_argument);
}
