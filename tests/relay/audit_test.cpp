// SPDX-License-Identifier: MIT
// The auditing relay: a 3-peer match through an in-process relay whose auditor re-simulates
// sampled owner frames in its own copy of the arena. A peer that lies about the positions of
// the objects it owns is expelled and its objects pass to the default owner; honest peers on
// a lossy network are not.
#include <doctest/doctest.h>

#include <stdexcept>

#include "audit_arena.hpp"
#include "relay_harness.hpp"
#include "peer/hostile_peers.hpp"
#include "shoal/audit.hpp"
#include "shoal/forwarding_transport.hpp"

using namespace shoal;
using namespace shoal::test;

namespace {

const ArenaSpec kSpec{3, 6, 10};
const std::string kSession = "audited";

AuditConfig audit_config() {
  AuditConfig c = arena_audit_config(kSpec);
  c.sample_probability = 0.5f;  // more checks per second than the default: a short test
  c.seed = 7;
  return c;
}

AuditingRelayConfig relay_config() {
  AuditingRelayConfig c;
  c.bind_host = "127.0.0.1";
  c.port = 0;
  c.audit = audit_config();
  return c;
}

struct AuditedMatch {
  AuditingRelay relay{relay_config()};
  std::vector<Player> players;
  std::vector<RelayTransport*> relay_links;  // each player's relay client, for its slot

  // `disclose`: the game gives the members the relay's audit key (else their links are sealed
  // to the relay like any other).
  AuditedMatch(bool peer_2_lies, float loss_each_way, bool disclose = true) {
    for (int p = 0; p < 3; ++p) {
      Player player;
      player.physics = std::make_unique<ReferencePhysics>(arena_physics(kSpec));
      build_arena(*player.physics, kSpec);
      RelayClientConfig config = client_config(relay.address(), kSession, p == 0 ? kRelayHostSlot : 0);
      config.resume_timeout_ms = 1500;  // an expelled peer is given up soon
      // Secured links whose keys the members disclose to the auditor, as the game tells them.
      if (disclose) config.local.security.audit_key = relay.audit_key();
      config.local.conditioner.outbound.loss = loss_each_way;
      config.local.conditioner.inbound.loss = loss_each_way;
      config.local.conditioner.seed = 40 + static_cast<std::uint64_t>(p);
      std::unique_ptr<RelayTransport> link = make_relay_transport(config);
      relay_links.push_back(link.get());
      std::unique_ptr<Transport> transport = std::move(link);
      if (peer_2_lies && p == 2) transport = std::make_unique<LyingTransport>(std::move(transport), 82);
      player.peer = std::make_unique<Peer>(PeerConfig{}, *player.physics, std::move(transport));
      player.ball = kFirstBall + static_cast<ObjectId>(p);
      player.peer->set_controlled(player.ball);
      players.push_back(std::move(player));
    }
    players[0].peer->host();
    for (std::size_t p = 1; p < players.size(); ++p) players[p].peer->join(relay_host_address());
  }

  // Pumps relay and peers until done() or `seconds` pass.
  template <class Done>
  bool run(double seconds, Done&& done) { return run_peers(relay, players, seconds, done); }

  bool connected() const { return all_connected(players); }

  void start_bots() {
    for (std::size_t p = 0; p < players.size(); ++p) players[p].bot.emplace(31 + p, kSpec.objects);
  }

  AuditPeerStats stats_of(std::uint16_t slot) const {
    for (const AuditPeerStats& s : relay.audit_stats(kSession)) {
      if (s.slot == slot) return s;
    }
    throw std::logic_error("the auditor never saw this slot send");
  }
};

}  // namespace

TEST_CASE("an auditing relay expels a peer that lies about its objects' positions") {
  AuditedMatch m(true, 0);
  REQUIRE(m.run(10, [&] { return m.connected(); }));
  const std::uint16_t liar = m.relay_links[2]->status().slot;
  const PeerId liar_id = m.players[2].peer->id();
  m.start_bots();
  const auto start = Clock::now();
  REQUIRE(m.run(20, [&] { return !m.relay.expelled(kSession).empty(); }));
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  const AuditPeerStats s = m.stats_of(liar);
  MESSAGE("liar expelled after " << seconds << " s: " << s.mismatches << "/" << s.samples
                                 << " samples mismatched, " << s.skipped << " skipped, max error "
                                 << s.max_error_m << " m");
  CHECK(m.relay.expelled(kSession) == std::vector<std::uint16_t>{liar});
  CHECK(s.peer == liar_id);
  CHECK(s.suspect);
  CHECK(s.mismatch_ratio() > 0.5);

  // The others see it go and take its objects; it cannot come back.
  const ObjectId liar_ball = m.players[2].ball;
  std::vector<PeerId> honest_ids{m.players[0].peer->id(), m.players[1].peer->id()};
  std::sort(honest_ids.begin(), honest_ids.end());
  const auto taken_over = [&] {
    for (int p = 0; p < 2; ++p) {
      const Peer& peer = *m.players[static_cast<std::size_t>(p)].peer;
      if (peer.peers() != honest_ids || peer.owner(liar_ball) != honest_ids.front()) return false;
    }
    return true;
  };
  CHECK(m.run(10, taken_over));
  CHECK(m.relay_links[2]->status().error.find("expelled") != std::string::npos);
  CHECK(m.relay.members(kSession) == 2);
  for (std::uint16_t honest : {m.relay_links[0]->status().slot, m.relay_links[1]->status().slot}) {
    const AuditPeerStats h = m.stats_of(honest);
    MESSAGE("honest slot " << honest << ": " << h.mismatches << "/" << h.samples << " samples mismatched, max error "
                           << h.max_error_m << " m");
    CHECK(h.mismatches <= h.samples / 10);
  }
}

TEST_CASE("an auditing relay expels nobody from an honest match under 10% loss") {
  AuditedMatch m(false, 0.05f);  // 5% each way on every client: about 10% end to end
  REQUIRE(m.run(15, [&] { return m.connected(); }));
  m.start_bots();
  m.run(8, [] { return false; });
  std::uint64_t samples = 0, mismatches = 0;
  for (const AuditPeerStats& s : m.relay.audit_stats(kSession)) {
    MESSAGE("slot " << s.slot << " peer " << s.peer << ": " << s.mismatches << "/" << s.samples
                    << " samples mismatched, " << s.skipped << " skipped, max error " << s.max_error_m << " m");
    samples += s.samples;
    mismatches += s.mismatches;
    CHECK(!s.suspect);
  }
  CHECK(m.relay.expelled(kSession).empty());
  CHECK(m.relay.audit_stats(kSession).size() == 3);
  CHECK(samples >= 40);  // enough checks for the verdict to mean something
  CHECK(static_cast<double>(mismatches) <= 0.1 * static_cast<double>(samples));
  CHECK(m.connected());
}

TEST_CASE("an auditor refuses a config it cannot use, naming the field") {
  AuditConfig c = audit_config();
  c.horizon_frames = 0;
  CHECK_THROWS_WITH_AS(Auditor{c}, doctest::Contains("horizon_frames"), std::invalid_argument);
  c = audit_config();
  c.max_acceleration_mps2 = -1;
  CHECK_THROWS_WITH_AS(Auditor{c}, doctest::Contains("max_acceleration_mps2"), std::invalid_argument);
  c = audit_config();
  c.world = nullptr;
  CHECK_THROWS_WITH_AS(Auditor{c}, doctest::Contains("world"), std::invalid_argument);
  c = audit_config();
  c.world = [] { return std::unique_ptr<Simulation>(); };
  CHECK_THROWS_WITH_AS(Auditor{c}, doctest::Contains("world"), std::invalid_argument);
  AuditingRelayConfig relay = relay_config();
  relay.audit.sample_probability = 0;
  CHECK_THROWS_WITH_AS(AuditingRelay{relay}, doctest::Contains("sample_probability"), std::invalid_argument);
}

TEST_CASE("an auditing relay reads a secured match only with the keys the game told the members to disclose") {
  const auto owner_frames = [](const AuditedMatch& m) {
    std::uint64_t frames = 0;
    for (const AuditPeerStats& s : m.relay.audit_stats(kSession)) frames += s.owner_frames;
    return frames;
  };
  AuditedMatch undisclosed(false, 0, false);
  REQUIRE(undisclosed.run(10, [&] { return undisclosed.connected(); }));
  undisclosed.start_bots();
  undisclosed.run(3, [] { return false; });
  CHECK(owner_frames(undisclosed) == 0);  // sealed: not one snapshot decoded

  AuditedMatch disclosed(false, 0, true);
  REQUIRE(disclosed.run(10, [&] { return disclosed.connected(); }));
  disclosed.start_bots();
  disclosed.run(3, [] { return false; });
  CHECK(owner_frames(disclosed) > 100);
}
