// SPDX-License-Identifier: MIT
// The sync core on the in-process network: two to four peers at loss, late joins, leaves and
// contested objects, each ending with the same world on every peer.
// Every run is deterministic (seeded network, seeded bots, simulated time).
#include <doctest/doctest.h>

#include <cstring>

#include "match_harness.hpp"
#include "shoal/forwarding_transport.hpp"
#include "match_scenarios.hpp"

using namespace shoal;
using namespace shoal::test;

namespace {

PeerConfig base_config() {
  PeerConfig c;
  c.checksum_interval_frames = 60;
  return c;
}

// Counts the messages a peer sent that no flush() yet let out (poll() sends them too).
class FlushWatch final : public ForwardingTransport {
 public:
  using ForwardingTransport::ForwardingTransport;
  bool send(ConnectionId c, Channel channel, std::span<const std::uint8_t> bytes) override {
    ++sent;
    ++waiting;
    return inner().send(c, channel, bytes);
  }
  bool poll(TransportEvent& e) override {
    waiting = 0;
    return inner().poll(e);
  }
  void flush() override {
    waiting = 0;
    inner().flush();
  }
  int sent = 0;
  int waiting = 0;
};

}  // namespace

TEST_CASE("peers join, share one timeline within a frame, and see each other") {
  ArenaSpec spec{3, 4};
  FakeMatch m(3, spec, base_config(), 11);
  m.network().set_conditions(link(30, 0.05f, 10));
  REQUIRE(m.connect(5));
  int worst = 0;
  m.run(3, [&] { worst = std::max(worst, frames_apart(m.players)); });
  CHECK(worst <= 1);
  for (Player& p : m.players) CHECK(p.peer->peers() == std::vector<PeerId>{0, 1, 2});
}

TEST_CASE("an update lets out everything it sent before it returns") {
  // A transport that queues (ENet does) would otherwise hold this update's snapshots, pongs
  // and claims until the next update's poll, a render frame later.
  std::vector<FlushWatch*> watches;
  FakeMatch m(3, ArenaSpec{3, 4}, base_config(), 12, -1, [&](int, std::unique_ptr<Transport> t) {
    auto watch = std::make_unique<FlushWatch>(std::move(t));
    watches.push_back(watch.get());
    return std::unique_ptr<Transport>(std::move(watch));
  });
  m.enable_bots(12);
  int rounds = 0, left_waiting = 0;
  auto look = [&] {
    ++rounds;
    for (const FlushWatch* w : watches) left_waiting += w->waiting;
  };
  REQUIRE(m.connect(5));
  m.run(2, look);
  CHECK(rounds == 120);
  for (const FlushWatch* w : watches) CHECK(w->sent > 200);  // snapshots, pings, pongs, claims
  CHECK(left_waiting == 0);
}

TEST_CASE("time sync holds within one frame under 80 ms of jitter, with every one of 40 seeds") {
  // One seed says little: how far the estimate is off depends on the quickest legs the
  // jitter happened to draw. With a short sample window, 16 of seeds 1..100 left two peers two
  // frames apart for a while (seeds 5, 15 and 16 among them). From 1 s after joining: a
  // joiner's first samples are few, and at one ping per 100 ms some seed put peers two frames
  // apart then; quick pings while the window fills keep them within one.
  ArenaSpec spec{3, 2};
  int worst = 0, worst_seed = 0;
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    FakeMatch m(3, spec, base_config(), seed);
    m.network().set_conditions(link(100, 0.02f, 80));
    REQUIRE(m.connect(8));
    m.run(1);  // the joiner's first estimate
    m.run(20, [&] {
      const int apart = frames_apart(m.players);
      if (apart > worst) worst = apart, worst_seed = static_cast<int>(seed);
    });
  }
  CAPTURE(worst_seed);
  CHECK(worst <= 1);
}

TEST_CASE("two peers push the same ball from opposite sides: one owner at a time, same end state") {
  ArenaSpec spec{2, 1, 8};
  FakeMatch m(2, spec, base_config(), 21);
  m.network().set_conditions(link(50, 0.05f, 5));
  REQUIRE(m.connect(5));
  const ObjectId ball = kFirstObject;  // at the centre; the players start on either side of it
  PushContest contest{ball};
  m.run(6, [&] { contest.push(m.players); });
  CHECK(contest.not_live == 0);
  // Owners may disagree only while a change crosses the network (one-way 50 ms = 3 frames).
  CHECK(contest.disagreements < contest.looks / 10);
  CHECK(m.players[0].peer->stats().overrides + m.players[1].peer->stats().overrides > 0);
  m.disable_bots();
  m.run(6);
  CHECK(owners_agree(m.players, ball));
  const Divergence d = divergence(m.players, all_ids(spec));
  CHECK(d.objects_compared == 3);
  CHECK(d.bitwise);
}

TEST_CASE("an object rolling from one core region into another changes owner without a pop") {
  ArenaSpec spec{2, 1, 10};
  PeerConfig config = base_config();
  FakeMatch m(2, spec, config, 31);
  m.network().set_conditions(link(40, 0.05f, 5));
  REQUIRE(m.connect(5));
  const ObjectId object = kFirstObject;
  HandOffWatch watch(m.players, object);
  Frame frame = 0;
  m.run(8, [&] {
    kick_across(m.players, object, ++frame);
    watch.look(m.players, static_cast<double>(m.render_us) * 1e-6);
  });
  watch.check(config);
}

TEST_CASE("after 2 s of 50% loss all peers are consistent again within 1 s") {
  ArenaSpec spec{3, 6};
  FakeMatch m(3, spec, base_config(), 41);
  m.network().set_conditions(link(30, 0.02f, 5));
  REQUIRE(m.connect(5));
  m.enable_bots(7);
  m.run(3);
  m.network().set_conditions(link(30, 0.5f, 5));
  m.run(2);
  m.network().set_conditions(link(30, 0.0f, 5));
  m.disable_bots();
  m.run(1);
  const Divergence d = divergence(m.players, all_ids(spec));
  CHECK(d.objects_compared > 0);
  CHECK(d.position_m <= 0.001f);
  CHECK(d.rotation_rad <= 0.001f);
}

TEST_CASE("three peers at 100 ms RTT and 10% loss: 30 s of play, then the world settles identically") {
  ArenaSpec spec{3, 12, 12};
  FakeMatch m(3, spec, base_config(), 51);
  m.network().set_conditions(link(50, 0.10f, 5));
  REQUIRE(m.connect(5));
  CHECK(m.play_then_settle(99, 30, 15));
  std::uint64_t changes = 0, overrides = 0, desyncs = 0;
  for (Player& p : m.players) {
    changes += p.peer->stats().ownership_changes;
    overrides += p.peer->stats().overrides;
    desyncs += p.peer->stats().desyncs;
  }
  CHECK(changes > 0);
  CHECK(overrides > 0);
  CHECK(desyncs == 0);
  const Divergence d = divergence(m.players, all_ids(spec));
  CHECK(d.objects_compared == static_cast<int>(all_ids(spec).size()) * 2);
  CHECK(d.bitwise);  // raw floats on both sides: the same bits everywhere
  for (ObjectId id : all_ids(spec)) CHECK(owners_agree(m.players, id));
}

TEST_CASE("a peer that leaves or crashes hands its objects to the default owner, none is lost") {
  for (const bool crash : {false, true}) {
    CAPTURE(crash);
    ArenaSpec spec{3, 6};
    PeerConfig config = base_config();
    config.rejoin_grace_ms = 1000;  // a crash is final after the timeout and this
    FakeMatch m(3, spec, config, 61);
    m.network().set_conditions(link(20, 0.02f));
    REQUIRE(m.connect(5));
    m.enable_bots(5);
    m.run(3);
    const ObjectId leaver_ball = m.players[2].ball;
    REQUIRE(m.players[0].peer->owner(leaver_ball) == 2);
    for (int p = 0; p < 2; ++p) {
      for (Event e; m.players[static_cast<std::size_t>(p)].peer->poll_event(e);) {}
    }
    if (crash) {
      m.network().crash(3);
    } else {
      m.players[2].peer->leave();
    }
    m.players[2].alive = false;
    // The first owner each survivor gives the leaver's ball (a bot may claim it later).
    std::optional<PeerId> heir[2];
    m.run(crash ? 4 : 1, [&] {
      for (int p = 0; p < 2; ++p) {
        for (Event e; m.players[static_cast<std::size_t>(p)].peer->poll_event(e);) {
          if (e.kind == EventKind::ownership_changed && e.object == leaver_ball && !heir[p]) heir[p] = e.peer;
        }
      }
    });
    for (int p = 0; p < 2; ++p) {
      CHECK(m.players[static_cast<std::size_t>(p)].peer->peers() == std::vector<PeerId>{0, 1});
      for (ObjectId id : all_ids(spec)) {
        const PeerId o = m.players[static_cast<std::size_t>(p)].peer->owner(id);
        CHECK((o == 0 || o == 1));
      }
      REQUIRE(heir[p].has_value());
      CHECK(*heir[p] == 0);  // the default owner
    }
  }
}

TEST_CASE("smoothing never changes the simulation state or what is sent") {
  struct Trace {
    std::vector<ObjectState> states;
    std::vector<VisualState> visuals;
    std::uint64_t sent = 0;
  };
  const ArenaSpec spec{2, 6};
  auto run_match = [&](float warp_distance) {
    PeerConfig config = base_config();
    config.smoothing = smoothing_with_warp(config.smoothing, warp_distance);
    FakeMatch m(2, spec, config, 71);
    m.network().set_conditions(link(40, 0.1f, 10));
    REQUIRE(m.connect(5));
    m.enable_bots(3);
    Trace trace;
    m.run(5, [&] {
      for (ObjectId id : all_ids(spec)) {
        trace.states.push_back(m.players[1].peer->state(id));
        trace.visuals.push_back(m.players[1].peer->visual(id));
      }
    });
    for (Player& p : m.players) trace.sent += p.peer->stats().snapshots_sent;
    return trace;
  };
  const Trace smooth = run_match(50.0f);   // corrections blended in
  const Trace snappy = run_match(0.002f);  // nearly every correction warps
  REQUIRE(smooth.states.size() == snappy.states.size());
  CHECK(smooth.sent == snappy.sent);
  int state_differs = 0, visual_differs = 0;
  for (std::size_t i = 0; i < smooth.states.size(); ++i) {
    if (!(smooth.states[i] == snappy.states[i])) ++state_differs;
    if (distance(smooth.visuals[i].position, snappy.visuals[i].position) > 1e-4f) ++visual_differs;
  }
  CHECK(state_differs == 0);
  CHECK(visual_differs > 0);  // the rules did change what is drawn
}

TEST_CASE("each peer measures the real loss of the links it receives on") {
  for (const float loss : {0.0f, 0.2f}) {
    CAPTURE(loss);
    ArenaSpec spec{2, 4};
    FakeMatch m(2, spec, base_config(), 111);
    REQUIRE(m.connect(5));
    m.network().set_conditions(link(20, loss, 5));
    m.enable_bots(3);
    m.run(8);
    for (Player& p : m.players) {
      const PeerStats s = p.peer->stats();
      REQUIRE(s.remotes.size() == 1);
      CHECK(std::fabs(s.remotes[0].link.packet_loss - loss) < 0.06f);
    }
  }
}

TEST_CASE("a correction too deep to re-simulate snaps the state but not the drawn pose") {
  // Owner frames arrive 12 frames late, past max_resimulated_frames: every correction of the
  // remote ball is a snap. The ball only ever moves forward (+z), so its drawn pose must too:
  // a snap's correction goes into the smoothing offset once, leaving the drawn pose where it
  // was. (Given twice, the pose jumped back by the correction at every snap.)
  PeerConfig config;
  config.max_resimulated_frames = 8;
  ArenaSpec spec{2, 12};
  FakeMatch m(2, spec, config, 61);
  m.network().set_conditions(link(200, 0.0f));
  REQUIRE(m.connect(8));
  m.run(1);
  const ObjectId ball = m.players[0].ball;
  const std::uint64_t snaps_before = m.players[1].peer->stats().snaps;
  Input forward;
  forward.axis = {0, 0, 1};
  m.players[0].peer->set_input(forward);
  float last_z = m.players[1].peer->visual(ball).position.z, worst_step_back = 0;
  m.run(1.5, [&] {
    const float z = m.players[1].peer->visual(ball).position.z;
    worst_step_back = std::max(worst_step_back, last_z - z);
    last_z = z;
  });
  CHECK(m.players[1].peer->stats().snaps > snaps_before + 10);
  CHECK(m.players[1].peer->state(ball).position.z > 2.0f);  // it really went forward
  CHECK(worst_step_back < 0.001f);
}

TEST_CASE("four peers at 20% loss with duplicates, reordering and jitter play smoothly and settle identically") {
  ArenaSpec spec{4, 16, 12};
  FakeMatch m(4, spec, base_config(), 3);
  LinkConditions bad = link(40, 0.20f, 20);
  bad.duplicate = 0.05f;
  bad.reorder = 0.05f;
  m.network().set_conditions(bad);
  REQUIRE(m.connect(10));
  m.enable_bots(6);
  PopWatch pops(m.players, all_ids(spec));
  m.run(30, [&] { pops.look(m.players, static_cast<double>(m.render_us) * 1e-6); });
  CHECK(pops.worst() < 0.25f);  // no correction reached the screen as a visible jump
  CHECK(m.settle(20));
  CHECK(total(m.players, &PeerStats::overrides) > 0);
  CHECK(total(m.players, &PeerStats::desyncs) == 0);
  const Divergence d = divergence(m.players, all_ids(spec));
  CHECK(d.objects_compared == static_cast<int>(all_ids(spec).size()) * 3);
  CHECK(d.bitwise);
  for (ObjectId id : all_ids(spec)) CHECK(owners_agree(m.players, id));
}

TEST_CASE("peers that stall for up to 45 frames at a time raise no desync and settle identically") {
  // Stalls push catch-ups past their bound (snaps) and ownership changes land frames late;
  // seed 20 once made a new owner send a resting object's state as a code that dequantised
  // elsewhere, and the peers raised a desync against it.
  ArenaSpec spec{3, 8, 10};
  std::uint64_t snaps = 0;
  for (std::uint64_t seed = 17; seed <= 22; ++seed) {
    CAPTURE(seed);
    FakeMatch m(3, spec, base_config(), seed);
    m.network().set_conditions(link(50, 0.10f, 5));
    REQUIRE(m.connect(5));
    m.set_hitches(0.01, 45, seed * 7);
    m.enable_bots(seed + 40);
    m.run(30);
    m.set_hitches(0, 1, 0);
    CHECK(m.settle(15));
    CHECK(total(m.players, &PeerStats::desyncs) == 0);
    CHECK(total(m.players, &PeerStats::ownership_changes) > 0);
    snaps += total(m.players, &PeerStats::snaps);
    const Divergence d = divergence(m.players, all_ids(spec));
    CHECK(d.objects_compared == static_cast<int>(all_ids(spec).size()) * 2);
    CHECK(d.bitwise);
  }
  CHECK(snaps > 0);  // the stalls did outrun the catch-up bound
}

TEST_CASE("four peers at 5% loss and 40 ms: owners' frames are taken in within the latency and two frames, and smoothing moves a drawn object at most 5 cm a frame") {
  FakeMatch m(4, ArenaSpec{4, 30, 12}, base_config(), 61);
  m.network().set_conditions(link(40, 0.05f));
  REQUIRE(m.connect(5));
  const std::vector<PeerStats> joined = [&] {
    std::vector<PeerStats> s;
    for (const Player& p : m.players) s.push_back(p.peer->stats());
    return s;
  }();
  m.enable_bots(62);
  m.run(6);
  const double frame_ms = 1000.0 / 60;
  for (std::size_t p = 0; p < m.players.size(); ++p) {
    CAPTURE(p);
    const PeerStats s = m.players[p].peer->stats();
    const Histogram latency = s.correction_latency_ms.since(joined[p].correction_latency_ms);
    CHECK(latency.total > 600);  // a snapshot from each of three owners nearly every frame
    CHECK(latency.percentile(0.01) >= 40);  // nothing arrives before the link lets it through
    CHECK(latency.percentile(0.99) <= 40 + 2 * frame_ms);
    const Histogram visual = s.visual_correction_mm.since(joined[p].visual_correction_mm);
    CHECK(visual.total > 0);  // corrections were smoothed out
    CHECK(visual.percentile(0.99) <= 50);
  }
}
