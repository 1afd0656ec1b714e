// The sync core again over real ENet sockets on loopback, impaired by the link conditioner.
// Time is the steady clock here, so every loop is bounded in iterations and in time.
#include <doctest/doctest.h>

#include <chrono>
#include <cstring>

#include "match_harness.hpp"

using namespace shoal;
using namespace shoal::test;

namespace {

using Clock = std::chrono::steady_clock;

struct EnetMatch {
  EnetMatch(int peers, const ArenaSpec& spec, const LinkConditions& conditions, std::uint64_t seed)
      : spec_(spec) {
    for (int p = 0; p < peers; ++p) {
      Player player;
      player.physics = std::make_unique<ReferencePhysics>(arena_physics(spec));
      build_arena(*player.physics, spec);
      TransportConfig t;
      t.timeout_ms = 2000;
      t.conditioner.inbound = conditions;
      t.conditioner.outbound = conditions;
      t.conditioner.seed = seed + static_cast<std::uint64_t>(p);
      player.peer = std::make_unique<Peer>(PeerConfig{}, *player.physics, make_enet_transport(t));
      player.ball = kFirstBall + static_cast<ObjectId>(p);
      player.peer->set_controlled(player.ball);
      players.push_back(std::move(player));
    }
    players[0].peer->host();
    Address host = players[0].peer->address();
    host.host = "127.0.0.1";
    for (std::size_t p = 1; p < players.size(); ++p) players[p].peer->join(host);
  }

  // Runs for `seconds` of wall time (at most `seconds * 2000` iterations), or until `done`.
  template <class Done>
  bool run(double seconds, Done&& done) {
    const auto deadline = Clock::now() + std::chrono::duration<double>(seconds);
    for (long i = 0; i < static_cast<long>(seconds * 2000) && Clock::now() < deadline; ++i) {
      for (Player& p : players) {
        if (!p.alive) continue;
        if (p.bot && p.peer->in_match()) p.peer->set_input(p.bot->input(*p.peer, p.ball, p.peer->frame()));
        p.peer->update();
      }
      if (done()) return true;
      players[0].peer->wait(1);  // paces the loop; the conditions above decide, not the wait
    }
    return done();
  }
  void run(double seconds) { run(seconds, [] { return false; }); }

  bool connected() const {
    for (const Player& p : players) {
      if (p.alive && (!p.peer->in_match() || p.peer->peers().size() != players.size())) return false;
    }
    return true;
  }

  std::vector<Player> players;
  ArenaSpec spec_;
};


}  // namespace

TEST_CASE("over ENet: three peers at 100 ms RTT and 10% loss play, then settle identically") {
  ArenaSpec spec{3, 8, 10};
  EnetMatch m(3, spec, link(25, 0.05f, 5), 300);  // 25 ms each way at both ends: 100 ms RTT
  REQUIRE(m.run(10, [&] { return m.connected(); }));
  for (std::size_t p = 0; p < m.players.size(); ++p) m.players[p].bot.emplace(40 + p, spec.objects);
  m.run(6);
  for (Player& p : m.players) {
    p.bot.reset();
    p.peer->set_input({});
  }
  // Settled: every object's state is the same on every peer.
  const bool settled = m.run(15, [&] {
    const Divergence d = divergence(m.players, all_ids(spec));
    return d.objects_compared == static_cast<int>(all_ids(spec).size()) * 2 && d.bitwise;
  });
  CHECK(settled);
  std::uint64_t overrides = 0;
  for (Player& p : m.players) overrides += p.peer->stats().overrides;
  CHECK(overrides > 0);
}

TEST_CASE("over ENet: a peer that leaves hands its objects to the default owner") {
  ArenaSpec spec{3, 4, 10};
  EnetMatch m(3, spec, link(10, 0.02f, 5), 400);
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
