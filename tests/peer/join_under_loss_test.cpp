// SPDX-License-Identifier: MIT
// Joining under loss, and joins that cannot complete: every join ends, joined or failed with
// the step it was stuck in, within PeerConfig::join_timeout_ms.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>

#include "match_harness.hpp"

using namespace shoal;
using namespace shoal::test;

namespace {

constexpr std::int64_t kFrameUs = 16'667;

LinkConditions awful_link() {
  LinkConditions l = link(30, 0.3f, 10);
  l.duplicate = 0.1f;
  l.reorder = 0.1f;
  return l;
}

// A host, and joiners brought in and thrown out round after round on one in-process network.
struct JoinRig {
  JoinRig(const ArenaSpec& arena, const PeerConfig& peer_config, std::uint64_t seed)
      : spec(arena), config(peer_config), net(seed) {
    host = make_player(spec, 0, config, net.create_endpoint(1, 1000));
    host.peer->host();
  }

  Player& add_joiner(std::uint16_t port, int ball, std::uint32_t transport_timeout_ms = 1000) {
    joiners.push_back(make_player(spec, ball, config, net.create_endpoint(port, transport_timeout_ms)));
    joiners.back().peer->join(host.peer->address());
    return joiners.back();
  }

  void step() {
    now_us += kFrameUs;
    net.set_time_us(now_us);
    update_player(host, now_us);
    for (Player& j : joiners) update_player(j, now_us);
  }

  // Steps until `done`, for at most `seconds`; returns whether it held.
  template <class Done>
  bool run_until(double seconds, Done&& done) {
    for (int i = 0; i < static_cast<int>(seconds * 1e6 / kFrameUs); ++i) {
      if (done()) return true;
      step();
    }
    return done();
  }

  ArenaSpec spec;
  PeerConfig config;
  MemoryNetwork net;
  Player host;
  std::vector<Player> joiners;
  std::int64_t now_us = 1'000'000;
};

bool joined(const Player& p) { return p.peer->join_progress().step == JoinStep::joined; }

// The first join_failed event of a peer (others are consumed).
std::optional<Event> join_failure(Peer& peer) {
  for (Event e; peer.poll_event(e);) {
    if (e.kind == EventKind::join_failed) return e;
  }
  return std::nullopt;
}

}  // namespace

TEST_CASE("joining: 100 joins at 30% loss each way, with duplication and reordering, all complete") {
  constexpr int kRounds = 20;
  constexpr int kJoinersPerRound = 5;  // joining at once, so they mesh with each other too
  PeerConfig config;
  config.rejoin_grace_ms = 0;  // a joiner thrown out is gone at its timeout
  JoinRig rig({kJoinersPerRound + 1, 8}, config, 39);
  rig.net.set_conditions(awful_link());
  std::int64_t worst_ms = 0;
  int completed = 0;
  for (int round = 0; round < kRounds; ++round) {
    for (int j = 0; j < kJoinersPerRound; ++j) {
      rig.add_joiner(static_cast<std::uint16_t>(10 + round * kJoinersPerRound + j), 1 + j);
    }
    const bool all_joined = rig.run_until(8, [&] { return std::all_of(rig.joiners.begin(), rig.joiners.end(), joined); });
    CHECK_MESSAGE(all_joined, "round " << round);
    for (Player& j : rig.joiners) {
      if (!joined(j)) continue;
      ++completed;
      worst_ms = std::max(worst_ms, j.peer->join_progress().elapsed_ms);
      CHECK(j.peer->peers().size() == kJoinersPerRound + 1);  // the host and every other joiner
    }
    // Out they go, silently (as if crashed), and the host forgets them before the next round.
    for (Player& j : rig.joiners) rig.net.crash(static_cast<std::uint16_t>(j.peer->address().port));
    rig.joiners.clear();
    CHECK(rig.run_until(5, [&] { return rig.host.peer->peers().size() == 1; }));
  }
  CHECK(completed == kRounds * kJoinersPerRound);
  std::printf("joining: %d of %d joins completed at 30%% loss; worst join %lld ms\n", completed,
              kRounds * kJoinersPerRound, static_cast<long long>(worst_ms));
  CHECK(worst_ms > 0);
  CHECK(worst_ms < config.join_timeout_ms);
}

TEST_CASE("joining: progress goes through the steps in order, with their counts") {
  JoinRig rig({4, 6}, PeerConfig{}, 40);
  rig.net.set_conditions(link(20, 0.05f));
  rig.add_joiner(10, 1);
  REQUIRE(rig.run_until(5, [&] { return joined(rig.joiners[0]); }));
  // A second joiner meets the first (meshing), syncs, then waits for two baselines.
  Player& late = rig.add_joiner(11, 2);
  std::vector<JoinStep> seen;
  bool counts_sane = true;
  REQUIRE(rig.run_until(5, [&] {
    const JoinProgress p = late.peer->join_progress();
    if (seen.empty() || seen.back() != p.step) seen.push_back(p.step);
    counts_sane = counts_sane && p.done >= 0 && p.done <= p.needed;
    if (p.step == JoinStep::baselines) counts_sane = counts_sane && p.needed == 2;
    return p.step == JoinStep::joined;
  }));
  CHECK(counts_sane);
  // Each step at most once, in order; meshing and syncing cannot be skipped here (the
  // baselines, asked for once meshed, may all be in by the start).
  CHECK(std::is_sorted(seen.begin(), seen.end()));
  CHECK(std::find(seen.begin(), seen.end(), JoinStep::meshing) != seen.end());
  CHECK(std::find(seen.begin(), seen.end(), JoinStep::syncing) != seen.end());
  CHECK(rig.host.peer->join_progress().step == JoinStep::joined);
  CHECK(late.peer->join_progress().elapsed_ms > 0);
}

TEST_CASE("joining: a joiner whose host has vanished fails in the connecting step within its deadline") {
  PeerConfig config;
  config.join_timeout_ms = 1500;
  JoinRig rig({2, 2}, config, 41);
  rig.net.crash(1);  // the host is gone before anyone asks it
  Player& joiner = rig.add_joiner(10, 1);
  std::optional<Event> failure;
  REQUIRE(rig.run_until(5, [&] { return (failure = join_failure(*joiner.peer)).has_value(); }));
  CHECK(failure->step == JoinStep::connecting);
  CHECK(failure->failure == JoinFailure::no_answer);
  CHECK(failure->peer == kNoPeer);  // the host
  const JoinProgress p = joiner.peer->join_progress();
  CHECK(p.step == JoinStep::failed);
  CHECK(p.elapsed_ms >= config.join_timeout_ms);
  CHECK(p.elapsed_ms <= config.join_timeout_ms + 2 * kFrameUs / 1000);
  CHECK_FALSE(joiner.peer->in_match());
}

TEST_CASE("joining: a host lost while the joiner syncs fails the join, naming syncing") {
  PeerConfig config;
  config.join_timeout_ms = 4000;
  config.ping_interval_ms = 400;  // slow pings: syncing lasts long enough to be cut short
  JoinRig rig({2, 2}, config, 42);
  rig.net.set_conditions(link(100, 0));
  Player& joiner = rig.add_joiner(10, 1, 500);
  REQUIRE(rig.run_until(3, [&] { return joiner.peer->join_progress().step == JoinStep::syncing; }));
  rig.net.crash(1);
  rig.host.alive = false;
  std::optional<Event> failure;
  REQUIRE(rig.run_until(5, [&] { return (failure = join_failure(*joiner.peer)).has_value(); }));
  CHECK(failure->step == JoinStep::syncing);
  CHECK(failure->failure == JoinFailure::host_lost);
  CHECK(joiner.peer->join_progress().step == JoinStep::failed);
  CHECK_FALSE(joiner.peer->in_match());
}

TEST_CASE("joining: a member that never answers holds the joiner in meshing, and the failure names it") {
  PeerConfig config;
  config.join_timeout_ms = 2000;
  JoinRig rig({3, 2}, config, 43);
  // The host keeps a silent member for 10 s (its transport timeout): long past the newcomer's
  // deadline.
  Player& mute = rig.add_joiner(10, 1, 10'000);
  REQUIRE(rig.run_until(5, [&] { return joined(mute); }));
  rig.net.crash(10);
  mute.alive = false;
  Player& joiner = rig.add_joiner(11, 2);
  std::optional<Event> failure;
  REQUIRE(rig.run_until(5, [&] { return (failure = join_failure(*joiner.peer)).has_value(); }));
  CHECK(failure->step == JoinStep::meshing);
  CHECK(failure->failure == JoinFailure::no_answer);
  CHECK(failure->peer == 1);
  // It said goodbye: the host does not keep it as a member.
  CHECK(rig.run_until(1, [&] {
    const std::vector<PeerId> peers = rig.host.peer->peers();
    return std::find(peers.begin(), peers.end(), PeerId{2}) == peers.end();
  }));
}
