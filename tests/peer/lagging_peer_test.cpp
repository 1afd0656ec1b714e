// SPDX-License-Identifier: MIT
// The match's pace, end to end over the in-process network: a peer that cannot simulate its
// frames as fast as the timeline runs (its game updates it at 7.5 Hz, and one update may
// advance at most 4 frames: 30 frames a second of the 60 due) makes the host slow the whole
// match, so that it keeps up instead of falling ever further behind; once it keeps up again
// the match returns to full speed. Without pacing the same peer falls seconds behind.
#include <doctest/doctest.h>

#include <cstdlib>

#include "match_harness.hpp"

using namespace shoal;
using namespace shoal::test;

namespace {

struct PacedRun {
  Frame slow_peer_lag = 0;       // host's frame minus the slow peer's, at the end of the slow phase
  float slowest_pace = 1.0f;     // the host's, during the slow phase
  float pace_seen_by_slow = 1.0f;  // the slow peer's idea of it, at the end of the slow phase
  float pace_after_recovery = 0;  // the host's, after everyone kept up for a while
  Frame lag_after_recovery = 0;
};

PacedRun run_with_a_slow_peer(bool pacing) {
  ArenaSpec spec;
  spec.balls = 3;
  spec.objects = 8;
  PeerConfig config;
  config.pace.enabled = pacing;
  FakeMatch match(3, spec, config, 5);
  match.network().set_conditions(link(20, 0.0f));
  REQUIRE(match.connect());
  match.enable_bots(9);
  PacedRun result;
  std::int64_t now = match.now_us();
  constexpr std::int64_t kRenderUs = 16'667;
  auto run = [&](double seconds, int slow_every) {
    const int frames = static_cast<int>(seconds * 60);
    for (int i = 0; i < frames; ++i) {
      now += kRenderUs;
      match.network().set_time_us(now);
      for (std::size_t p = 0; p < match.players.size(); ++p) {
        if (p == 2 && i % slow_every != 0) continue;  // peer 2's game updates it rarely
        update_player(match.players[p], now);
      }
      result.slowest_pace = std::min(result.slowest_pace, match.players[0].peer->stats().pace);
    }
  };
  run(10, 8);
  result.slow_peer_lag = match.players[0].peer->frame() - match.players[2].peer->frame();
  result.pace_seen_by_slow = match.players[2].peer->stats().pace;
  run(8, 1);
  result.pace_after_recovery = match.players[0].peer->stats().pace;
  result.lag_after_recovery = std::abs(match.players[0].peer->frame() - match.players[2].peer->frame());
  return result;
}

}  // namespace

TEST_CASE("a peer that cannot keep up slows the whole match instead of falling behind, and full speed returns") {
  const PacedRun paced = run_with_a_slow_peer(true);
  const PacedRun unpaced = run_with_a_slow_peer(false);
  INFO("paced: lag ", paced.slow_peer_lag, " frames, slowest pace ", paced.slowest_pace, "; unpaced: lag ",
       unpaced.slow_peer_lag);
  // Without pacing the slow peer simulates 30 of every 60 frames due: 10 s leave it ~300 behind.
  CHECK(unpaced.slow_peer_lag > 120);
  CHECK(unpaced.slowest_pace == 1.0f);
  // With it, the match runs at about half speed and the slow peer stays within a few updates.
  CHECK(paced.slowest_pace < 0.6f);
  CHECK(paced.slowest_pace >= PaceConfig{}.min_rate);
  CHECK(paced.slow_peer_lag < 30);
  CHECK(paced.pace_seen_by_slow < 0.75f);  // the host's pace reached the others
  CHECK(paced.pace_after_recovery == 1.0f);
  CHECK(paced.lag_after_recovery < 8);
}
