// SPDX-License-Identifier: MIT
// A secured link over the in-process network, with an attacker's tap under the receiving
// end's security layer: replayed and tampered messages are dropped and counted, never handed up.
#include <doctest/doctest.h>

#include <algorithm>

#include "secure_pair.hpp"

using namespace shoal;
using namespace shoal::test;

namespace {

// a connects to b; both are invited by the tests' authority.
struct Linked {
  MemoryNetwork net{7};
  End a = make_end(net, 1, test_credentials());
  End b = make_end(net, 2, test_credentials());

  Linked() {
    a.transport->connect(b.transport->local_address());
    REQUIRE(drive(net, a, b, [&] { return a.connection != kNoConnection && b.connection != kNoConnection; }));
  }
};

}  // namespace

TEST_CASE("messages on a secured link arrive on every channel, sealed on the way") {
  Linked l;
  REQUIRE(l.a.send(Channel::control, "control text"));
  REQUIRE(l.a.send(Channel::state, "state text"));
  REQUIRE(l.a.send(Channel::time, "time text"));
  REQUIRE(drive(l.net, l.a, l.b, [&] { return l.b.texts.size() == 3; }));
  CHECK(l.b.texts == std::vector<std::string>{"control text", "state text", "time text"});
  // What crossed the network is not the text: the tap saw sealed bytes only.
  for (const auto& bytes : l.b.tap->seen) {
    const std::string raw(bytes.begin(), bytes.end());
    CHECK(raw.find("text") == std::string::npos);
  }
  CHECK(l.b.transport->drops().total() == 0);
}

TEST_CASE("a replayed datagram is dropped") {
  Linked l;
  // Every message b receives from here on arrives twice, as a replay on the path would deliver it.
  l.b.tap->alter = [&](Channel channel, std::vector<std::uint8_t>& bytes) {
    l.b.tap->injected.push_back({l.b.connection, channel, bytes});
  };
  REQUIRE(l.a.send(Channel::state, "move the crate"));
  REQUIRE(l.a.send(Channel::control, "claim the crate"));
  REQUIRE(drive(l.net, l.a, l.b, [&] { return l.b.dropped(DropReason::replayed) >= 2; }));
  l.b.tap->alter = nullptr;
  // Each once (the two channels may arrive in either order).
  std::ranges::sort(l.b.texts);
  CHECK(l.b.texts == std::vector<std::string>{"claim the crate", "move the crate"});
  CHECK(l.b.dropped(DropReason::replayed) == 2);
  CHECK(l.b.dropped(DropReason::forged) == 0);

  // A much older message (more than a replay window ago) is refused too.
  const auto old = l.b.tap->seen.back();
  for (int i = 0; i < 300; ++i) REQUIRE(l.a.send(Channel::control, "tick"));
  REQUIRE(drive(l.net, l.a, l.b, [&] { return l.b.texts.size() == 302; }));
  l.b.tap->injected.push_back({l.b.connection, Channel::control, old});
  l.b.drain();
  CHECK(l.b.texts.size() == 302);
  CHECK(l.b.dropped(DropReason::replayed) == 3);
}

TEST_CASE("a tampered datagram is dropped") {
  Linked l;
  int altered = 0;
  // One bit of each message flipped: in the clear sequence number, the ciphertext or the tag.
  l.b.tap->alter = [&](Channel, std::vector<std::uint8_t>& bytes) {
    const std::size_t at = static_cast<std::size_t>(altered * 7) % bytes.size();
    bytes[at] ^= 0x10;
    ++altered;
  };
  for (int i = 0; i < 6; ++i) REQUIRE(l.a.send(Channel::state, "position 3.25"));
  REQUIRE(drive(l.net, l.a, l.b, [&] { return altered == 6; }));
  CHECK(l.b.texts.empty());
  CHECK(l.b.dropped(DropReason::forged) == 6);

  // The link itself is unharmed: the same message untouched gets through.
  l.b.tap->alter = nullptr;
  REQUIRE(l.a.send(Channel::state, "position 3.25"));
  REQUIRE(drive(l.net, l.a, l.b, [&] { return l.b.texts.size() == 1; }));
  CHECK(l.b.texts.front() == "position 3.25");
}
