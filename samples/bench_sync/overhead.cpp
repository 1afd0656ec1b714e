// Peer 1 (not the host) is timed: its update() time minus the time its Simulation spent in
// step() (straight and re-simulated) is the SDK's cost, catch-up bookkeeping included; the
// physics step is the mean straight step. Ratios are taken per block of frames and the median
// reported.
//
// Run shared, the timed peer's every update starts with the caches holding the other peers'
// worlds (each several MB): at 8 peers that dominates what it costs. So the same peer is then
// run again alone, on a ReplayTransport, with its world's copy as the only one in the process.
#include "overhead.hpp"

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "bench_world.hpp"
#include "medians.hpp"
#include "shoal/memory_network.hpp"
#include "sync/state_compare.hpp"
#include "traffic_replay.hpp"

namespace shoal::bench {
namespace {

using Clock = std::chrono::steady_clock;

constexpr std::int64_t kStartUs = 1'000'000;
constexpr std::int64_t kRenderUs = 16'667;
constexpr int kBlockFrames = kOverheadBlockFrames;
constexpr int kMaxConnectFrames = 60 * 20;
constexpr int kWarmupFrames = 120;  // bots under way, buffers grown
constexpr PeerId kTimedPeer = 1;

struct BenchPlayer {
  std::unique_ptr<samples::EngineWorld> world;
  std::unique_ptr<TimedSimulation> timed;
  std::unique_ptr<Peer> peer;
  std::optional<Bot> bot;
  ObjectId ball = 0;
  std::int64_t update_ns = 0;  // in timed updates, since the last block began

  BenchPlayer(const WorldSpec& spec, PeerId id, std::uint64_t seed, std::unique_ptr<Transport> transport,
              bool measure_cost = false)
      : world(build_arena(spec)) {
    timed = std::make_unique<TimedSimulation>(world->simulation());
    PeerConfig config = bench_peer_config(spec, *world);
    config.measure_update_cost = measure_cost;
    peer = std::make_unique<Peer>(config, *timed, std::move(transport));
    ball = kFirstBall + static_cast<ObjectId>(id);
    peer->set_controlled(ball);
    bot.emplace(seed * 31 + id, spec.objects, *world);
  }

  void set_input() {
    if (peer->in_match()) peer->set_input(bot->input(*peer, ball, peer->frame()));
  }
};

// The timed peer's update; kept out of line so that a profiler's call stacks tell it apart
// from the other peers' updates.
[[gnu::noinline]] void measured_update(BenchPlayer& player, std::int64_t now_us) {
  const auto start = Clock::now();
  player.peer->update_at(now_us);
  player.update_ns += std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count();
}

// Times `frames` render frames of `measured`, which render_frame() updates through
// measured_update(), in blocks of kBlockFrames.
template <class RenderFrame>
OverheadFigures time_blocks(int frames, BenchPlayer& measured, RenderFrame&& render_frame) {
  std::vector<double> ratios, steps, sdks;
  const TimedSimulation& timed = *measured.timed;
  for (int done = 0; done < frames; done += kBlockFrames) {
    measured.update_ns = 0;
    const std::int64_t straight_ns = timed.straight_ns();
    const std::int64_t straight_steps = timed.straight_steps();
    const std::int64_t resimulated_ns = timed.resimulated_ns();
    const Frame first = measured.peer->frame();
    for (int i = 0; i < kBlockFrames; ++i) render_frame();
    const std::int64_t step_ns = timed.straight_ns() - straight_ns;
    const std::int64_t stepped = timed.straight_steps() - straight_steps;
    const std::int64_t all_steps_ns = step_ns + timed.resimulated_ns() - resimulated_ns;
    const Frame advanced = measured.peer->frame() - first;
    if (stepped == 0 || advanced == 0) continue;
    const double step_us = static_cast<double>(step_ns) / static_cast<double>(stepped) * 1e-3;
    const double sdk_us = static_cast<double>(measured.update_ns - all_steps_ns) / advanced * 1e-3;
    steps.push_back(step_us);
    sdks.push_back(sdk_us);
    ratios.push_back(sdk_us / step_us);
  }
  OverheadFigures f;
  f.blocks = static_cast<int>(ratios.size());
  f.step_us = median(steps);
  f.sdk_us = median(sdks);
  f.ratio = median(ratios);
  std::tie(f.ratio_low, f.ratio_high) = quartiles(ratios);
  return f;
}

// What the timed peer ends a run with, to check that its replay did the same.
struct Outcome {
  Frame frame = kNoFrame;
  std::vector<ObjectState> states;
  std::uint64_t overrides = 0, catchup_frames = 0, ownership_changes = 0;

  Outcome(const Peer& peer, const WorldSpec& spec) : frame(peer.frame()) {
    for (int p = 0; p < spec.balls; ++p) states.push_back(peer.state(kFirstBall + static_cast<ObjectId>(p)));
    for (int i = 0; i < spec.objects; ++i) states.push_back(peer.state(kFirstObject + static_cast<ObjectId>(i)));
    const PeerStats s = peer.stats();
    overrides = s.overrides;
    catchup_frames = s.catchup_frames;
    ownership_changes = s.ownership_changes;
  }
  bool same_as(const Outcome& o) const {
    if (frame != o.frame || overrides != o.overrides || catchup_frames != o.catchup_frames ||
        ownership_changes != o.ownership_changes || states.size() != o.states.size()) {
      return false;
    }
    for (std::size_t i = 0; i < states.size(); ++i) {
      if (!sync::bitwise_equal(states[i], o.states[i])) return false;
    }
    return true;
  }
};

// The timed peer replayed alone on its recorded traffic: `frames_before` render frames, then
// `frames` timed ones. Throws ReplayDiverged unless it ends as the recorded peer did. With
// `costs`, the peer measures its update cost, and *costs gets the timed frames' share of it.
OverheadFigures replay_alone(const WorldSpec& spec, std::uint64_t seed, const TrafficLog& log,
                             int frames_before, int frames, const Outcome& recorded,
                             PhaseCosts* costs = nullptr) {
  auto replay = std::make_unique<ReplayTransport>(log);
  const ReplayTransport& replayed = *replay;
  BenchPlayer alone(spec, kTimedPeer, seed, std::move(replay), costs != nullptr);
  alone.peer->join(Address{});  // the address is in the replayed answers
  std::int64_t now_us = kStartUs;
  auto render_frame = [&] {
    now_us += kRenderUs;
    alone.set_input();
    measured_update(alone, now_us);
  };
  for (int i = 0; i < frames_before; ++i) render_frame();
  const PeerStats before = alone.peer->stats();
  const OverheadFigures figures = time_blocks(frames, alone, render_frame);
  if (!replayed.finished() || !Outcome(*alone.peer, spec).same_as(recorded)) {
    throw ReplayDiverged("the replayed peer ended in another state than the recorded one");
  }
  if (costs != nullptr) {
    const PeerStats after = alone.peer->stats();
    const double per_frame_us = 1e-3 / static_cast<double>(after.frame - before.frame);
    auto us = [&](std::int64_t UpdateCost::*phase) {
      return static_cast<double>(after.cost.*phase - before.cost.*phase) * per_frame_us;
    };
    costs->receive_us = us(&UpdateCost::receive_ns);
    costs->correct_us = us(&UpdateCost::correct_ns);
    costs->step_us = us(&UpdateCost::step_ns);
    costs->authority_us = us(&UpdateCost::authority_ns);
    costs->send_us = us(&UpdateCost::send_ns);
    costs->present_us = us(&UpdateCost::present_ns);
    costs->session_us = us(&UpdateCost::session_ns);
    costs->physics_us = us(&UpdateCost::physics_ns);
    costs->resimulated_physics_us = us(&UpdateCost::resimulated_physics_ns);
  }
  return figures;
}

}  // namespace

OverheadResult measure_overhead(const WorldSpec& spec, int frames, std::uint64_t seed) {
  const int peers = spec.balls;
  OverheadResult r;
  r.physics = spec.physics;
  r.objects = spec.objects;
  r.peers = peers;
  r.input_delay_frames = spec.input_delay_frames;
  r.freeze_outside_simulated_region = spec.freeze_outside_simulated_region;
  r.restore_contacts = spec.restore_contacts;
  r.frames = frames;
  TrafficLog log;
  log.reserve();
  int frames_before = 0;  // render frames before the measured ones
  std::optional<Outcome> shared_outcome;
  {
    MemoryNetwork net(seed);
    LinkConditions link;
    link.latency_ms = 30;  // 60 ms round trip
    link.jitter_ms = 5;
    link.loss = 0.05f;
    net.set_conditions(link);
    std::vector<BenchPlayer> players;
    players.reserve(static_cast<std::size_t>(peers));
    for (int p = 0; p < peers; ++p) {
      std::unique_ptr<Transport> endpoint = net.create_endpoint(static_cast<std::uint16_t>(p + 1), 5000);
      if (p == kTimedPeer) endpoint = std::make_unique<RecordingTransport>(std::move(endpoint), log);
      players.emplace_back(spec, static_cast<PeerId>(p), seed, std::move(endpoint));
    }
    players[0].peer->host();
    for (int p = 1; p < peers; ++p) players[static_cast<std::size_t>(p)].peer->join(players[0].peer->address());

    BenchPlayer& measured = players[kTimedPeer];
    std::int64_t now_us = kStartUs;
    auto render_frame = [&] {
      now_us += kRenderUs;
      net.set_time_us(now_us);
      for (BenchPlayer& p : players) {
        p.set_input();
        if (&p == &measured) {
          measured_update(p, now_us);
        } else {
          p.peer->update_at(now_us);
        }
      }
    };
    auto everyone_connected = [&] {
      for (BenchPlayer& p : players) {
        if (!p.peer->in_match() || p.peer->peers().size() != players.size()) return false;
      }
      return true;
    };
    for (; frames_before < kMaxConnectFrames && !everyone_connected(); ++frames_before) render_frame();
    if (!everyone_connected()) {
      throw std::runtime_error("the " + std::to_string(peers) + " peers did not connect within 20 s");
    }
    for (int i = 0; i < kWarmupFrames; ++i, ++frames_before) render_frame();

    const PeerStats before = measured.peer->stats();
    r.shared = time_blocks(frames, measured, render_frame);
    const PeerStats after = measured.peer->stats();
    const double seconds = static_cast<double>(frames) * static_cast<double>(kRenderUs) * 1e-6;
    auto rate = [&](std::uint64_t a, std::uint64_t b) { return static_cast<double>(b - a) / seconds; };
    r.overrides_per_s = rate(before.overrides, after.overrides);
    r.catchup_frames_per_s = rate(before.catchup_frames, after.catchup_frames);
    r.ownership_changes_per_s = rate(before.ownership_changes, after.ownership_changes);
    r.snaps_per_s = rate(before.snaps, after.snaps);
    r.owned_objects = after.owned_objects;
    shared_outcome.emplace(*measured.peer, spec);
  }  // the other peers' worlds are gone before the replay

  r.alone = replay_alone(spec, seed, log, frames_before, frames, *shared_outcome);
  // Once more with the peer's own phase timing on (a dozen clock reads per update, kept out of
  // the figures above).
  replay_alone(spec, seed, log, frames_before, frames, *shared_outcome, &r.phases);
  return r;
}

}  // namespace shoal::bench
