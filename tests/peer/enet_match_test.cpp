// SPDX-License-Identifier: MIT
// The sync core again over real ENet sockets on loopback, impaired by the link conditioner.
// Time is the steady clock here, so every loop is bounded in iterations and in time.
#include <doctest/doctest.h>

#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <functional>
#include <stdexcept>
#include <string>

#include "test_credentials.hpp"
#include "arrival_gate.hpp"
#include "match_harness.hpp"
#include "match_scenarios.hpp"
#include "spawn_match.hpp"
#include "shoal/recording.hpp"
#include "shoal/security.hpp"
#include "transport/enet_transport.hpp"
#include "wire/packet_header.hpp"

using namespace shoal;
using namespace shoal::test;

namespace {

using Clock = std::chrono::steady_clock;

std::int64_t steady_us() {
  return std::chrono::duration_cast<std::chrono::microseconds>(Clock::now().time_since_epoch()).count();
}

/// A link's impairments applied once on the way, by the sender: what they mean on the
/// in-process network, whose tests these mirror.
ConditionerConfig one_way(const LinkConditions& conditions) {
  ConditionerConfig c;
  c.outbound = conditions;
  return c;
}

/// The same impairments at both ends: every datagram passes two conditioners, so latencies add
/// up and losses compound.
ConditionerConfig both_ends(const LinkConditions& conditions) {
  ConditionerConfig c;
  c.outbound = conditions;
  c.inbound = conditions;
  return c;
}

struct EnetMatch {
  /// `prepare`, if given, sees each player before it hosts or joins (to record it, say).
  EnetMatch(int peers, const ArenaSpec& spec, const ConditionerConfig& conditions, std::uint64_t seed,
            const PeerConfig& config = {}, const TransportWrapper& wrap = {},
            const std::function<void(Player&, int)>& prepare = {}, const SimulationWrapper& adapt = {})
      : spec_(spec), seed_(seed) {
    for (int p = 0; p < peers; ++p) {
      TransportConfig t = test::secured();
      t.timeout_ms = 2000;
      t.conditioner = seeded(conditions, static_cast<std::size_t>(p));
      // As make_enet_transport builds it, keeping a view of the ENet transport.
      auto enet = std::make_unique<transport::EnetTransport>(t);
      enets.push_back(enet.get());
      auto gate = std::make_unique<ArrivalGate>(make_secure_transport(std::move(enet), t.security));
      gates_.push_back(gate.get());
      std::unique_ptr<Transport> transport = std::move(gate);
      if (wrap) transport = wrap(p, std::move(transport));
      players.push_back(make_player(spec, p, config, std::move(transport), adapt));
      if (prepare) prepare(players.back(), p);
    }
    players[0].peer->host();
    Address host = players[0].peer->address();
    host.host = "127.0.0.1";
    // One after another: the host numbers joiners in the order their requests arrive, which
    // over real sockets on a loaded machine need not be the order they were sent, and the
    // tests name each peer by its index.
    for (std::size_t p = 1; p < players.size(); ++p) {
      players[p].peer->join(host);
      if (!run(10, [&] { return players[p].peer->id() != kNoPeer; }) || players[p].peer->id() != p) {
        throw std::runtime_error("player " + std::to_string(p) + " did not join as peer " + std::to_string(p));
      }
    }
  }

  /// Each peer's conditioner keeps its own seed, so that a failure replays.
  ConditionerConfig seeded(ConditionerConfig conditions, std::size_t p) const {
    conditions.seed = seed_ + p;
    return conditions;
  }
  void set_conditions(const ConditionerConfig& conditions) {
    for (std::size_t p = 0; p < players.size(); ++p) players[p].peer->set_conditions(seeded(conditions, p));
  }

  void enable_bots(std::uint64_t seed) { shoal::test::enable_bots(players, seed, spec_.objects); }
  void disable_bots() { shoal::test::disable_bots(players); }

  // Runs for `seconds` of wall time (at most `seconds * 2000` iterations), or until `done`,
  // which is asked once after each round of updates. Every peer updates at the same instant of
  // a round, so their frames compare directly.
  template <class Done>
  bool run(double seconds, Done&& done) {
    const auto deadline = Clock::now() + std::chrono::duration<double>(seconds);
    for (long i = 0; i < static_cast<long>(seconds * 2000) && Clock::now() < deadline; ++i) {
      for (ArrivalGate* gate : gates_) gate->open_round();  // before the clock: see arrival_gate.hpp
      now_us_ = steady_us();
      rounds_us.push_back(now_us_);
      for (Player& p : players) update_player(p, now_us_);
      if (done()) return true;
      players[0].peer->wait(1);  // paces the loop; the conditions above decide, not the wait
    }
    return false;
  }
  void run(double seconds) { run(seconds, [] { return false; }); }

  bool connected() const {
    for (const Player& p : players) {
      if (p.alive && (!p.peer->in_match() || p.peer->peers().size() != players.size())) return false;
    }
    return true;
  }
  /// When the peers last updated.
  std::int64_t now_us() const { return now_us_; }

  std::vector<Player> players;
  ArenaSpec spec_;
  std::uint64_t seed_;
  std::int64_t now_us_ = 0;
  std::vector<std::int64_t> rounds_us;  ///< when every round updated the peers, the joins' included
  std::vector<ArrivalGate*> gates_;  // each peer's, owned by its transport chain
  std::vector<transport::EnetTransport*> enets;  // each peer's, under its security layer
};

/// Every live peer holds every object at the newest common frame, bit for bit the same.
bool identical(const std::vector<Player>& players, const std::vector<ObjectId>& ids) {
  const Divergence d = divergence(players, ids);
  int others = -1;
  for (const Player& p : players) others += p.alive ? 1 : 0;
  return d.objects_compared == static_cast<int>(ids.size()) * others && d.bitwise;
}

/// Consistent as the in-process loss test means it: within 1 mm and 1 mrad at the newest
/// common frame.
bool consistent(const std::vector<Player>& players, const std::vector<ObjectId>& ids) {
  const Divergence d = divergence(players, ids);
  return d.objects_compared > 0 && d.position_m <= 0.001f && d.rotation_rad <= 0.001f;
}

/// One owner of every object and the same bits of it on every live peer.
bool agree(const std::vector<Player>& players, const std::vector<ObjectId>& ids) {
  for (ObjectId id : ids) {
    if (!owners_agree(players, id)) return false;
  }
  return identical(players, ids);
}

bool at_rest(const std::vector<Player>& players, const std::vector<ObjectId>& ids) {
  for (const Player& p : players) {
    for (ObjectId id : ids) {
      if (p.alive && !p.peer->state(id).at_rest) return false;
    }
  }
  return true;
}

}  // namespace

TEST_CASE("over ENet: three peers at 100 ms RTT and 10% loss: 30 s of play, then the world settles identically") {
  ArenaSpec spec{3, 8, 10};
  EnetMatch m(3, spec, both_ends(link(25, 0.05f, 5)), 300);  // 25 ms each way at both ends: 100 ms RTT
  REQUIRE(m.run(10, [&] { return m.connected(); }));
  m.enable_bots(40);
  m.run(30);  // mostly waiting: little CPU, so it costs the suite little beside its -j neighbours
  m.disable_bots();
  // Not waiting for rest as well (the fake test does): that takes some 6 s more of real time.
  CHECK(m.run(15, [&] { return agree(m.players, all_ids(spec)); }));
  CHECK(total(m.players, &PeerStats::ownership_changes) > 0);
  CHECK(total(m.players, &PeerStats::overrides) > 0);
  CHECK(total(m.players, &PeerStats::desyncs) == 0);
}

TEST_CASE("over ENet: made without conditions, every peer's ENet owns its public socket, and conditions set mid-match take hold") {
  ArenaSpec spec{3, 6};
  EnetMatch m(3, spec, ConditionerConfig{}, 800);
  REQUIRE(m.run(10, [&] { return m.connected(); }));
  m.enable_bots(8);
  m.run(2);
  for (const transport::EnetTransport* enet : m.enets) {
    CHECK(enet->direct());
    CHECK(enet->conditioner() == nullptr);
    CHECK(enet->counters().datagrams_sent > 100);  // about 60 a second to each of two peers
    CHECK(enet->counters().datagrams_received > 100);
  }
  CHECK(total(m.players, &PeerStats::snapshots_received) > 0);

  // 10% loss on each peer's way out, from now on: the conditioner goes in front of ENet and
  // the open connections carry on through it.
  m.set_conditions(one_way(link(20, 0.1f, 5)));
  m.run(2);
  for (const transport::EnetTransport* enet : m.enets) {
    CHECK_FALSE(enet->direct());
    REQUIRE(enet->conditioner() != nullptr);
    CHECK(enet->conditioner()->pipe_count() == 2);
    std::uint64_t submitted = 0, lost = 0;
    for (const Player& other : m.players) {
      const auto* outbound = enet->conditioner()->outbound_counters(transport::resolve({"127.0.0.1", other.peer->address().port}));
      if (outbound == nullptr) continue;
      submitted += outbound->submitted;
      lost += outbound->dropped_loss;
    }
    CHECK(submitted > 100);
    CHECK(lost > submitted / 20);  // the loss was real
  }
  m.disable_bots();
  CHECK(m.run(10, [&] { return agree(m.players, all_ids(spec)); }));
  CHECK(m.connected());  // nobody timed out across the switch
  CHECK(total(m.players, &PeerStats::desyncs) == 0);
}

TEST_CASE("over ENet: a peer that leaves hands its objects to the default owner") {
  ArenaSpec spec{3, 4, 10};
  EnetMatch m(3, spec, both_ends(link(10, 0.02f, 5)), 400);
  REQUIRE(m.run(10, [&] { return m.connected(); }));
  REQUIRE(m.run(5, [&] { return m.players[1].peer->owner(m.players[2].ball) == 2; }));
  m.players[2].peer->leave();
  m.players[2].alive = false;
  const bool handed = m.run(5, [&] {
    return m.players[0].peer->owner(m.players[2].ball) == 0 &&
           m.players[1].peer->owner(m.players[2].ball) == 0 &&
           m.players[1].peer->peers() == std::vector<PeerId>{0, 1};
  });
  CHECK(handed);
}

TEST_CASE("over ENet: two peers push the same ball from opposite sides: one owner at a time, same end state") {
  ArenaSpec spec{2, 1, 8};
  EnetMatch m(2, spec, one_way(link(50, 0.05f, 5)), 500);
  REQUIRE(m.run(10, [&] { return m.connected(); }));
  const ObjectId ball = kFirstObject;  // at the centre; the players start on either side of it
  // Peer 1 sets off a second early, so that the ball changes hands (from the default owner)
  // before the two meet, as it does in the in-process run; started together, who gets there
  // first would be down to real time.
  const Frame start = m.players[0].peer->frame();
  PushContest contest{ball};
  m.run(6, [&] {
    contest.push(m.players, m.players[0].peer->frame() - start >= 60);
    return false;
  });
  CAPTURE(contest.looks);
  CHECK(contest.not_live == 0);
  CHECK(contest.peer_1_owned);
  // Owners may disagree only while a change crosses the network (one-way 50 ms).
  CHECK(contest.disagreements < contest.looks / 10);
  CHECK(total(m.players, &PeerStats::overrides) > 0);
  m.disable_bots();
  CHECK(m.run(10, [&] { return at_rest(m.players, all_ids(spec)) && agree(m.players, all_ids(spec)); }));
}

TEST_CASE("over ENet: an object rolling from one core region into another changes owner without a pop") {
  ArenaSpec spec{2, 1, 10};
  PeerConfig config;
  EnetMatch m(2, spec, one_way(link(40, 0.05f, 5)), 600, config);
  REQUIRE(m.run(10, [&] { return m.connected(); }));
  const ObjectId object = kFirstObject;
  HandOffWatch watch(m.players, object);
  const Frame start = m.players[0].peer->frame();
  std::int64_t last_us = m.now_us();
  m.run(8, [&] {
    kick_across(m.players, object, m.players[0].peer->frame() - start);
    // Real time between looks varies, so the speed allowance does too.
    watch.look(m.players, static_cast<double>(m.now_us() - last_us) * 1e-6);
    last_us = m.now_us();
    return false;
  });
  watch.check(config);
}

TEST_CASE("over ENet: after 2 s of 50% loss all peers are consistent again within 1 s") {
  ArenaSpec spec{3, 6};
  EnetMatch m(3, spec, one_way(link(30, 0.02f, 5)), 700);
  REQUIRE(m.run(10, [&] { return m.connected(); }));
  m.enable_bots(7);
  m.run(3);
  const std::uint64_t sent = total(m.players, &PeerStats::snapshots_sent);
  const std::uint64_t received = total(m.players, &PeerStats::snapshots_received);
  m.set_conditions(one_way(link(30, 0.5f, 5)));
  int inconsistent = 0;
  m.run(2, [&] {
    inconsistent += consistent(m.players, all_ids(spec)) ? 0 : 1;
    return false;
  });
  CHECK(inconsistent > 0);  // there is something to recover from
  // The loss was real: about half of what was sent in those 2 s never arrived.
  const auto lost = 1.0 - static_cast<double>(total(m.players, &PeerStats::snapshots_received) - received) /
                              static_cast<double>(total(m.players, &PeerStats::snapshots_sent) - sent);
  CHECK(lost > 0.3);
  m.set_conditions(one_way(link(30, 0.0f, 5)));
  m.disable_bots();
  m.run(1);
  CHECK(consistent(m.players, all_ids(spec)));
  CHECK(m.connected());  // nobody timed out in the loss
}

TEST_CASE("over ENet: smoothing never changes the simulation state or what is sent") {
  // Real ENet cannot deliver the same packets twice, so peer 1 records itself and is replayed
  // (shoal::Replay) with other smoothing rules: the first run draws corrections blended in, the
  // replay warps nearly every one. The replay checks the states, the sends and the events
  // after every update against the recording.
  const ArenaSpec spec{2, 6};
  const std::uint64_t bot_seed = 3;
  PeerConfig smooth;
  smooth.smoothing = smoothing_with_warp(smooth.smoothing, 50.0f);
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("shoal-smoothing-" + std::to_string(::getpid()) + ".shoalrec")).string();
  std::vector<VisualState> drawn;  // peer 1's, after every update once the match is under way
  {
    EnetMatch m(2, spec, one_way(link(40, 0.1f, 10)), 800, smooth, {},
                [&](Player& player, int p) { if (p == 1) player.peer->record(path); });
    m.enable_bots(bot_seed);
    auto look = [&] {
      for (ObjectId id : all_ids(spec)) drawn.push_back(m.players[1].peer->visual(id));
    };
    REQUIRE(m.run(10, [&] { look(); return m.connected(); }));
    m.run(5, [&] { look(); return false; });
    REQUIRE(total(m.players, &PeerStats::overrides) > 0);
  }  // peer 1's recording is complete

  ReplayOptions snappy;
  snappy.smoothing = smoothing_with_warp(smooth.smoothing, 0.002f);
  std::vector<VisualState> redrawn;
  ReferencePhysics physics(arena_physics(spec));
  build_arena(physics, spec);
  const ReplayReport report = Replay(path).run(physics, [&](const Peer& peer) {
    for (ObjectId id : all_ids(spec)) redrawn.push_back(peer.visual(id));
  }, snappy);
  std::filesystem::remove(path);
  INFO(report.first_difference);
  CHECK(report.identical);  // the same states, sends and events, update after update
  CHECK(report.checks > 100);
  REQUIRE(redrawn.size() >= drawn.size());
  // The last updates of both runs, side by side: the rules did change what is drawn.
  int visual_differs = 0;
  for (std::size_t i = 0; i < drawn.size(); ++i) {
    const VisualState& a = drawn[i];
    const VisualState& b = redrawn[redrawn.size() - drawn.size() + i];
    if (distance(a.position, b.position) > 1e-4f) ++visual_differs;
  }
  CHECK(visual_differs > 0);
}

TEST_CASE("over ENet: under 80 ms of jitter time sync keeps the peers within one frame") {
  ArenaSpec spec{3, 2};
  EnetMatch m(3, spec, one_way(link(100, 0.02f, 80)), 900);
  REQUIRE(m.run(10, [&] { return m.connected(); }));
  m.run(2);  // converge
  const Frame first = m.players[0].peer->frame();
  int worst = 0, looks = 0;
  // For a failure's report: when the widest gap was seen, and how long the test's loop had
  // gone without updating the peers before it (a stalled process makes every peer catch up).
  const std::int64_t start_us = m.now_us();
  std::int64_t worst_at_us = 0, worst_after_us = 0, previous_us = start_us;
  m.run(10, [&] {
    const int apart = frames_apart(m.players);
    if (apart > worst) {
      worst = apart;
      worst_at_us = m.now_us() - start_us;
      worst_after_us = m.now_us() - previous_us;
    }
    previous_us = m.now_us();
    ++looks;
    return false;
  });
  CAPTURE(looks);
  CAPTURE(worst_at_us);
  CAPTURE(worst_after_us);
  CHECK(m.players[0].peer->frame() - first > 300);  // the match really ran for those seconds
  CHECK(worst <= 1);
}

TEST_CASE("over ENet: three peers at 80 ms and 10% loss fire projectiles for 30 s: the same live set everywhere, then none") {
  ArenaSpec spec{3, 6, 12};
  EnetMatch m(3, spec, one_way(link(80, 0.10f)), 600, spawn_config(), {}, {}, with_spawn_slots);
  REQUIRE(m.run(10, [&] { return m.connected(); }));
  m.enable_bots(60);
  Guns guns(5, 90);
  const Frame first = m.players[0].peer->frame();
  m.run(30, [&] {  // 30 s: hundreds of spawns and removals under loss
    guns.fire(m.players, true);
    return false;
  });
  // A loaded machine slows the match's pace: the guns fire by frames, 5 a second of match time.
  const Frame played = m.players[0].peer->frame() - first;
  CHECK(played >= 600);
  CHECK(guns.fired >= 3 * (played / 12) - 3);
  // Firing stops and the removals due wait, until every change has arrived everywhere.
  CHECK(m.run(10, [&] {
    guns.fire(m.players, false, false);
    return same_live_sets(m.players) && m.players[0].peer->spawned_objects().size() > 10 &&
           identical(m.players, m.players[0].peer->spawned_objects());
  }));
  // Then every lifetime passes: only the fixed bodies remain, on every peer.
  m.disable_bots();
  CHECK(m.run(15, [&] {
    guns.fire(m.players, false);
    if (!guns.all_expired() || !same_live_sets(m.players)) return false;
    return m.players[0].peer->spawned_objects().empty();
  }));
  for (const Player& p : m.players) {
    CHECK(p.peer->spawned_objects().empty());
    CHECK(p.peer->stats().objects_spawned == static_cast<std::uint64_t>(guns.fired));
    CHECK(p.peer->stats().dropped[DropReason::bad_spawn] == 0);
  }
}

TEST_CASE("over ENet: game messages at 60 ms and 10% loss: the reliable ones arrive once each and in order") {
  ArenaSpec spec{2, 6, 12};
  EnetMatch m(2, spec, one_way(link(60, 0.10f)), 700);
  REQUIRE(m.run(10, [&] { return m.connected(); }));
  m.enable_bots(70);
  constexpr std::uint32_t kCount = 1000;
  std::uint32_t sent = 0, next = 0, unreliable_sent = 0, unreliable_got = 0;
  bool in_order = true;
  Peer& sender = *m.players[1].peer;
  CHECK(m.run(30, [&] {
    // 10 a round at most: under the default 600 a second, whatever the rounds' pace.
    for (int i = 0; i < 10 && sent < kCount; ++i) {
      std::uint8_t bytes[8] = {};
      std::memcpy(bytes, &sent, 4);
      if (sender.send_message(0, bytes, Delivery::reliable, sender.frame())) ++sent;
    }
    const std::uint8_t note[3] = {1, 2, 3};
    if (sent < kCount && sender.send_message(kNoPeer, note, Delivery::unreliable)) ++unreliable_sent;
    for (Event e; m.players[0].peer->poll_event(e);) {
      if (e.kind != EventKind::message) continue;
      if (!e.reliable) {
        unreliable_got += e.bytes.size() == 3 ? 1 : 0;
        continue;
      }
      std::uint32_t n = 0;
      std::memcpy(&n, e.bytes.data(), 4);
      in_order = in_order && n == next && e.peer == 1 && e.frame >= 0;
      ++next;
    }
    return next == kCount;
  }));
  CHECK(next == kCount);
  CHECK(in_order);
  CHECK(unreliable_sent > 0);
  CHECK(unreliable_got > unreliable_sent / 2);  // most of them, through the loss
  CHECK(unreliable_got <= unreliable_sent);
  CHECK(m.players[0].peer->stats().dropped[DropReason::over_limit] == 0);
}
