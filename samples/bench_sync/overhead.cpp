// SPDX-License-Identifier: MIT
// Peer 1 (not the host) is timed: its update() time minus the time its Simulation spent in
// step() (straight and re-simulated) is the SDK's cost, catch-up bookkeeping included; the
// physics step is the mean straight step. Ratios are taken per block of frames and the median
// reported.
//
// Run shared, the timed peer's every update starts with the caches holding the other peers'
// worlds (each several MB): at 8 peers that dominates what it costs. So the timed peer records
// itself (Peer::record) and is then replayed alone (shoal::ReplaySession), with its world's copy
// as the only one in the process: same inputs, same times, same work, checked update by update.
#include "overhead.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "bench_world.hpp"
#include "medians.hpp"
#include "process.hpp"
#include "shoal/memory_network.hpp"
#include "shoal/security.hpp"
#include "transport_clock.hpp"
#include "sync/state_compare.hpp"
#include "shoal/recording.hpp"

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
  Gun gun;
  ObjectId ball = 0;
  std::int64_t update_ns = 0;  // in timed updates, since the last block began

  BenchPlayer(const WorldSpec& spec, PeerId id, std::uint64_t seed, std::unique_ptr<Transport> transport,
              bool measure_cost = false)
      : world(build_arena(spec)), gun(spec) {
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

// The timed peer's update, timed into *update_ns; kept out of line so that a profiler's call
// stacks tell it apart from the other peers' updates.
template <class Update>
[[gnu::noinline]] void measured_update(std::int64_t& update_ns, Update&& update) {
  const auto start = Clock::now();
  update();
  update_ns += std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count();
}

// Times `frames` render frames of the peer on `timed`, which render_frame() updates through
// measured_update(update_ns, ...), in blocks of kBlockFrames.
template <class RenderFrame>
OverheadFigures time_blocks(int frames, const Peer& peer, const TimedSimulation& timed, std::int64_t& update_ns,
                            RenderFrame&& render_frame) {
  std::vector<double> ratios, steps, sdks, updates;
  for (int done = 0; done < frames; done += kBlockFrames) {
    update_ns = 0;
    const std::int64_t straight_ns = timed.straight_ns();
    const std::int64_t straight_steps = timed.straight_steps();
    const std::int64_t resimulated_ns = timed.resimulated_ns();
    const Frame first = peer.frame();
    for (int i = 0; i < kBlockFrames; ++i) render_frame();
    const std::int64_t step_ns = timed.straight_ns() - straight_ns;
    const std::int64_t stepped = timed.straight_steps() - straight_steps;
    const std::int64_t all_steps_ns = step_ns + timed.resimulated_ns() - resimulated_ns;
    const Frame advanced = peer.frame() - first;
    if (stepped == 0 || advanced == 0) continue;
    const double step_us = static_cast<double>(step_ns) / static_cast<double>(stepped) * 1e-3;
    const double sdk_us = static_cast<double>(update_ns - all_steps_ns) / advanced * 1e-3;
    steps.push_back(step_us);
    sdks.push_back(sdk_us);
    ratios.push_back(sdk_us / step_us);
    updates.push_back(static_cast<double>(update_ns) / advanced * 1e-3);
  }
  OverheadFigures f;
  f.blocks = static_cast<int>(ratios.size());
  f.step_us = median(steps);
  f.sdk_us = median(sdks);
  f.ratio = median(ratios);
  std::tie(f.ratio_low, f.ratio_high) = quartiles(ratios);
  f.update_us = median(updates);
  return f;
}

// The timed peer replayed alone from its recording: `frames_before` render frames, then `frames`
// timed ones. Throws std::runtime_error unless it does exactly what the recorded peer did. With
// `costs`, the peer measures its update cost, and *costs gets the timed frames' share of it.
// With `record_to`, the replayed peer records itself there (Peer::record) all along.
OverheadFigures replay_alone(const WorldSpec& spec, const Replay& recording, int frames_before, int frames,
                             PhaseCosts* costs = nullptr, const std::string* record_to = nullptr,
                             double* bytes_per_object = nullptr) {
  const std::unique_ptr<samples::EngineWorld> world = build_arena(spec);
  TimedSimulation timed(world->simulation());
  ReplayOptions options;
  options.measure_update_cost = costs != nullptr;
  const std::optional<std::size_t> heap_before = shoal::samples::heap_bytes_in_use();
  ReplaySession session(recording, timed, options);
  if (record_to != nullptr) session.peer().record(*record_to);
  std::int64_t update_ns = 0;
  auto render_frame = [&] {
    if (session.next()) measured_update(update_ns, [&] { session.update(); });
  };
  for (int i = 0; i < frames_before; ++i) render_frame();
  if (bytes_per_object != nullptr && heap_before) {  // else left as it was: not measured here
    const double bodies = static_cast<double>(spec.objects + spec.balls);
    *bytes_per_object = (static_cast<double>(*shoal::samples::heap_bytes_in_use()) - static_cast<double>(*heap_before)) / bodies;
  }
  const PeerStats before = session.peer().stats();
  const OverheadFigures figures = time_blocks(frames, session.peer(), timed, update_ns, render_frame);
  while (session.next()) session.update();  // the recording's end: its final states compared
  if (const ReplayReport report = session.report(); !report.identical) {
    throw std::runtime_error("the replayed peer did not do what the recorded one did: " + report.first_difference);
  }
  if (costs != nullptr) {
    const PeerStats after = session.peer().stats();
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

// A file in the temporary folder, removed when it goes.
struct TempFile {
  explicit TempFile(const std::string& name) : path((std::filesystem::temp_directory_path() / name).string()) {}
  ~TempFile() { std::filesystem::remove(path); }
  std::string path;
};

}  // namespace

OverheadResult measure_overhead(const WorldSpec& spec, int frames, std::uint64_t seed, bool recording) {
  const int peers = spec.balls;
  OverheadResult r;
  r.physics = spec.physics;
  r.objects = spec.objects;
  r.peers = peers;
  r.input_delay_frames = spec.input_delay_frames;
  r.freeze_outside_simulated_region = spec.freeze_outside_simulated_region;
  r.restore_contacts = spec.restore_contacts;
  r.frames = frames;
  const std::string name = "shoal-bench-sync-" + std::to_string(shoal::samples::current_process_id()) + "-" + std::to_string(spec.objects) + "-" +
                           std::to_string(peers);
  const TempFile timed_peer(name + ".shoalrec");
  int frames_before = 0;  // render frames before the measured ones
  {
    MemoryNetwork net(seed);
    LinkConditions link;
    link.latency_ms = 30;  // 60 ms round trip
    link.jitter_ms = 5;
    link.loss = 0.05f;
    net.set_conditions(link);
    std::vector<BenchPlayer> players;
    players.reserve(static_cast<std::size_t>(peers));
    // Links secured as over ENet by default; the timed peer's security layer between two clocks.
    const SessionAuthority authority("bench-sync");
    TransportClock* above = nullptr;
    TransportClock* below = nullptr;
    for (int p = 0; p < peers; ++p) {
      std::unique_ptr<Transport> transport = net.create_endpoint(static_cast<std::uint16_t>(p + 1), 5000);
      if (p == kTimedPeer) {
        auto clock = std::make_unique<TransportClock>(std::move(transport));
        below = clock.get();
        transport = std::move(clock);
      }
      SecurityConfig security;
      security.credentials = authority.invite();
      transport = make_secure_transport(std::move(transport), security);
      if (p == kTimedPeer) {
        auto clock = std::make_unique<TransportClock>(std::move(transport));
        above = clock.get();
        transport = std::move(clock);
      }
      players.emplace_back(spec, static_cast<PeerId>(p), seed, std::move(transport));
    }
    // A recording does not hold spawns yet: a match with projectiles is measured shared only.
    if (!spec.spawn_slots) players[kTimedPeer].peer->record(timed_peer.path);
    players[0].peer->host();
    for (int p = 1; p < peers; ++p) players[static_cast<std::size_t>(p)].peer->join(players[0].peer->address());

    BenchPlayer& measured = players[kTimedPeer];
    std::int64_t now_us = kStartUs;
    double live_sum = 0;  // live spawned objects the timed peer held, summed over render frames
    auto render_frame = [&] {
      now_us += kRenderUs;
      net.set_time_us(now_us);
      for (BenchPlayer& p : players) {
        p.set_input();
        if (&p == &measured) {
          // Spawning and removing are the SDK's work too.
          measured_update(measured.update_ns, [&] {
            p.peer->update_at(now_us);
            p.gun.fire(*p.peer, p.ball);
          });
        } else {
          p.peer->update_at(now_us);
          p.gun.fire(*p.peer, p.ball);
        }
      }
      live_sum += static_cast<double>(measured.peer->spawned_objects().size());
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
    const std::int64_t above_ns = above->ns, below_ns = below->ns;
    const std::uint64_t messages = above->messages;
    const Frame first_frame = measured.peer->frame();
    live_sum = 0;
    r.shared = time_blocks(frames, *measured.peer, *measured.timed, measured.update_ns, render_frame);
    const PeerStats after = measured.peer->stats();
    const double simulated = std::max(1.0, static_cast<double>(measured.peer->frame() - first_frame));
    r.security.security_us = static_cast<double>((above->ns - above_ns) - (below->ns - below_ns)) * 1e-3 / simulated;
    r.security.messages_per_frame = static_cast<double>(above->messages - messages) / simulated;
    r.security.update_us_secured = r.shared.update_us;
    r.security.update_us_clear = r.shared.update_us - r.security.security_us;
    r.security.share = r.shared.update_us > 0 ? r.security.security_us / r.shared.update_us : 0;
    const double seconds = static_cast<double>(frames) * static_cast<double>(kRenderUs) * 1e-6;
    auto rate = [&](std::uint64_t a, std::uint64_t b) { return static_cast<double>(b - a) / seconds; };
    r.overrides_per_s = rate(before.overrides, after.overrides);
    r.catchup_frames_per_s = rate(before.catchup_frames, after.catchup_frames);
    r.ownership_changes_per_s = rate(before.ownership_changes, after.ownership_changes);
    r.snaps_per_s = rate(before.snaps, after.snaps);
    r.owned_objects = after.owned_objects;
    r.live_spawned = live_sum / std::max(frames, 1);
    r.spawns_per_s = rate(before.objects_spawned, after.objects_spawned);
    for (const RemotePeerStats& remote : after.remotes) {
      r.kbps_out += remote.link.bytes_out_per_s * 8.0 / 1000.0;
      r.kbps_in += remote.link.bytes_in_per_s * 8.0 / 1000.0;
    }
  }  // the other peers' worlds are gone before the replay; the timed peer's recording is complete

  if (spec.spawn_slots) return r;
  const Replay recording_of_timed_peer(timed_peer.path);
  r.alone = replay_alone(spec, recording_of_timed_peer, frames_before, frames, nullptr, nullptr, &r.bytes_per_object);
  // Once more with the peer's own phase timing on (a dozen clock reads per update, kept out of
  // the figures above).
  replay_alone(spec, recording_of_timed_peer, frames_before, frames, &r.phases);
  if (recording) {
    // Off and on in turn, three times each: the machine's noise falls on both alike.
    const TempFile again(name + "-again.shoalrec");
    std::vector<double> off, on;
    for (int i = 0; i < 3; ++i) {
      off.push_back(replay_alone(spec, recording_of_timed_peer, frames_before, frames).update_us);
      on.push_back(replay_alone(spec, recording_of_timed_peer, frames_before, frames, nullptr, &again.path).update_us);
    }
    const double seconds = static_cast<double>(frames_before + frames) * static_cast<double>(kRenderUs) * 1e-6;
    r.recording = {true, median(off), median(on), median(on) / median(off) - 1,
                   static_cast<double>(std::filesystem::file_size(again.path)) / seconds};
  }
  return r;
}

}  // namespace shoal::bench
