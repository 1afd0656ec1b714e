// SPDX-License-Identifier: MIT
// Three shoal::Peer play entirely through the relay: the Peer is unchanged, only its
// Transport is the relay client. The match settles to the same state on every peer.
#include <doctest/doctest.h>

#include "relay_harness.hpp"

using namespace shoal;
using namespace shoal::test;

TEST_CASE("a 3-peer match entirely through the relay stays consistent") {
  transport::RelayServer relay({});
  const ArenaSpec spec{3, 6, 10};
  std::vector<Player> players;
  for (int p = 0; p < 3; ++p) {
    Player player;
    player.physics = std::make_unique<ReferencePhysics>(arena_physics(spec));
    build_arena(*player.physics, spec);
    RelayClientConfig config = client_config(relay.address(), "three-way", p == 0 ? kRelayHostSlot : 0);
    player.peer = std::make_unique<Peer>(PeerConfig{}, *player.physics, make_relay_transport(config));
    player.ball = kFirstBall + static_cast<ObjectId>(p);
    player.peer->set_controlled(player.ball);
    players.push_back(std::move(player));
  }
  players[0].peer->host();
  for (std::size_t p = 1; p < players.size(); ++p) players[p].peer->join(relay_host_address());

  const auto run = [&](double seconds, auto&& done) { return run_peers(relay, players, seconds, done); };
  const auto connected = [&] { return all_connected(players); };
  REQUIRE(run(10, connected));
  const bool settled = play_then_settle(relay, players, spec, 77);
  const auto ids = all_ids(spec);
  const Divergence d = divergence(players, ids);
  INFO("divergence " << d.position_m << " m, " << d.rotation_rad << " rad at frame " << d.frame);
  CHECK(settled);
  CHECK(connected());
  CHECK(d.objects_compared == static_cast<int>(ids.size() * (players.size() - 1)));
  for (const Player& p : players) CHECK(p.peer->stats().snapshots_received > 0);
  CHECK(relay.session_stats().at(0).members == 3);
}
