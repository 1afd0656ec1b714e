// PeerConfig::snapshot_interval_frames sets how often owners send, by priority or not.
#include <doctest/doctest.h>

#include "match_harness.hpp"

using namespace shoal;
using namespace shoal::test;

namespace {

struct Sent {
  std::uint64_t packets = 0, bytes = 0;
  bool settled_alike = false;
};

Sent play(bool prioritize, int interval) {
  ArenaSpec spec{2, 12, 10};
  PeerConfig config;
  config.snapshots.prioritize = prioritize;
  config.snapshot_interval_frames = interval;
  FakeMatch m(2, spec, config, 61);
  m.network().set_conditions(link(30, 0.02f, 5));
  REQUIRE(m.connect(5));
  const PeerStats before = m.players[1].peer->stats();
  m.enable_bots(5);
  m.run(6);
  const PeerStats after = m.players[1].peer->stats();
  Sent s;
  s.packets = after.snapshots_sent - before.snapshots_sent;
  s.bytes = after.snapshot_bytes_sent - before.snapshot_bytes_sent;
  m.settle(15);
  s.settled_alike = divergence(m.players, all_ids(spec)).bitwise;
  return s;
}

}  // namespace

TEST_CASE("snapshot_interval_frames = 3 sends a third of the snapshots, by priority or not") {
  for (const bool prioritize : {true, false}) {
    CAPTURE(prioritize);
    const Sent every = play(prioritize, 1);
    const Sent third = play(prioritize, 3);
    CAPTURE(every.packets);
    CAPTURE(third.packets);
    // 6 s at 60 Hz to one peer: about 360 snapshots every frame, 120 every third.
    CHECK(every.packets >= 330);
    CHECK(third.packets * 10 >= every.packets * 3);
    CHECK(third.packets * 10 <= every.packets * 4);
    CHECK(third.bytes < every.bytes);
    CHECK(every.settled_alike);
    CHECK(third.settled_alike);
  }
}
