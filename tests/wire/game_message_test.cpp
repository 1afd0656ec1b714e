// SPDX-License-Identifier: MIT
// The game message layout (SPEC.md, "Game messages"): both kinds, the example bytes, and every
// way a decoder refuses one.
#include <doctest/doctest.h>

#include <vector>

#include "wire/game_message.hpp"

using namespace shoal;
using namespace shoal::wire;

TEST_CASE("game message: the spec's example, both ways") {
  const std::vector<std::uint8_t> hi{'h', 'i'};
  std::vector<std::uint8_t> out;
  REQUIRE(encode(GameMessage{7, hi}, true, out));
  const std::vector<std::uint8_t> expected{0x53, 0x48, kProtocolVersion, 10, 7, 0, 0, 0, 'h', 'i'};
  CHECK(out == expected);
  GameMessage back;
  REQUIRE(decode(out, back));
  CHECK(back.frame == 7);
  CHECK(std::vector<std::uint8_t>(back.bytes.begin(), back.bytes.end()) == hi);
  REQUIRE(encode(GameMessage{kNoFrame, {}}, false, out));
  CHECK(out[3] == 18);
  CHECK(channel_of(MessageKind::game_datagram) == Channel::time);  // never the snapshots' sequenced channel
  CHECK(channel_of(MessageKind::game_message) == Channel::control);
  REQUIRE(decode(out, back));
  CHECK(back.frame == kNoFrame);
  CHECK(back.bytes.empty());
}

TEST_CASE("game message: what the decoder refuses, and the encoder") {
  std::vector<std::uint8_t> out;
  CHECK_FALSE(encode(GameMessage{-2, {}}, true, out));
  CHECK(out.empty());
  const std::vector<std::uint8_t> too_big(kMaxUnreliableDatagram);  // no room for the header and tag
  CHECK_FALSE(encode(GameMessage{0, too_big}, false, out));
  CHECK(encode(GameMessage{0, too_big}, true, out));  // the control channel takes it
  const std::vector<std::uint8_t> fits(kMaxUnreliableDatagram - 8);
  CHECK(encode(GameMessage{0, fits}, false, out));
  GameMessage m;
  std::vector<std::uint8_t> d{0x53, 0x48, kProtocolVersion, 10, 7, 0, 0};
  CHECK(decode(d, m).reason() == DropReason::truncated);
  d = {0x53, 0x48, kProtocolVersion, 10, 0xFE, 0xFF, 0xFF, 0xFF};  // frame -2
  CHECK(decode(d, m).reason() == DropReason::malformed);
  d = {0x53, 0x48, kProtocolVersion, 4, 0, 0, 0, 0};  // peer_left
  CHECK(decode(d, m).reason() == DropReason::unknown_kind);
  d.assign(kMaxUnreliableDatagram + 1, 0);
  d[0] = 0x53, d[1] = 0x48, d[2] = kProtocolVersion, d[3] = 18;
  CHECK(decode(d, m).reason() == DropReason::oversize);
}
