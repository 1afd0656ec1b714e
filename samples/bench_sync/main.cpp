// shoal-bench-sync: what Shoal's sync layer costs per frame, next to the physics it wraps.
//
// 1. SDK overhead: peers play a bot match on the in-process network (latency, jitter and loss,
//    so overrides, catch-up and ownership changes really happen). Peer 1 (not the host) is
//    timed: its update() time minus the time its Simulation spent in step() (straight and
//    re-simulated) is the SDK's cost, catch-up bookkeeping included; the physics step is the
//    mean straight step. Ratios are taken per block of frames and the median reported.
// 2. Catch-up: the same arena driven through the Resimulator directly; 8 step_forward calls
//    and a resimulate() over those 8 frames (with replayed owned bodies and injected owner
//    frames) alternate, and the median ratio is reported.
//
// Targets (issue 3): SDK overhead <= 10% of a physics step at 1,000 objects; an 8-frame
// catch-up <= 1.1x 8 straight steps.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench_world.hpp"
#include "shoal/memory_network.hpp"
#include "sync/resimulator.hpp"
#include "world/frame_history.hpp"

#ifndef SHOAL_BENCH_BUILD_TYPE
#define SHOAL_BENCH_BUILD_TYPE "unknown"
#endif

namespace shoal::bench {
namespace {

using Clock = std::chrono::steady_clock;

std::int64_t ns_since(Clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count();
}

double median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const std::size_t mid = values.size() / 2;
  return values.size() % 2 == 1 ? values[mid] : 0.5 * (values[mid - 1] + values[mid]);
}

struct Options {
  int frames = 600;        // measured render frames per case at <= 1,000 objects
  int catchup_reps = 200;  // catch-up repetitions at <= 1,000 objects
  std::vector<int> objects{100, 1000, 5000};
  std::vector<int> peers{2, 4, 8};
  std::optional<std::string> json_path;
};

constexpr const char* kUsage =
    "usage: shoal-bench-sync [--frames N] [--catchup-reps N] [--objects N] [--peers N]\n"
    "                        [--json FILE]\n"
    "  --frames N        render frames measured per case at up to 1,000 objects (60..100000,\n"
    "                    default 600); 5,000 objects measure N/4\n"
    "  --catchup-reps N  8-frame catch-ups timed per world size (10..100000, default 200;\n"
    "                    5,000 objects run N/4)\n"
    "  --objects N       measure only worlds of N objects (10..20000; for profiling)\n"
    "  --peers N         measure only matches of N peers (2..16; for profiling)\n"
    "  --json FILE       also write the figures to FILE as JSON\n";

int parse_count(const std::string& flag, const char* text, int low, int high) {
  char* end = nullptr;
  const long value = std::strtol(text, &end, 10);
  if (end == text || *end != '\0' || value < low || value > high) {
    throw std::invalid_argument(flag + " expects a whole number from " + std::to_string(low) +
                                " to " + std::to_string(high) + ", got '" + text + "'");
  }
  return static_cast<int>(value);
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (flag == "--help" || flag == "-h") {
      std::fputs(kUsage, stdout);
      std::exit(0);
    }
    const bool takes_value = flag == "--frames" || flag == "--catchup-reps" ||
                             flag == "--objects" || flag == "--peers" || flag == "--json";
    if (!takes_value) throw std::invalid_argument("unknown option '" + flag + "'");
    if (i + 1 >= argc) throw std::invalid_argument(flag + " needs a value");
    const char* value = argv[++i];
    if (flag == "--frames") o.frames = parse_count(flag, value, 60, 100000);
    if (flag == "--catchup-reps") o.catchup_reps = parse_count(flag, value, 10, 100000);
    if (flag == "--objects") o.objects = {parse_count(flag, value, 10, 20000)};
    if (flag == "--peers") o.peers = {parse_count(flag, value, 2, 16)};
    if (flag == "--json") {
      if (*value == '\0') throw std::invalid_argument("--json needs a file name");
      o.json_path = value;
    }
  }
  return o;
}

// ---------------------------------------------------------------- 1. per-frame overhead

struct OverheadResult {
  int objects = 0, peers = 0, frames = 0, blocks = 0;
  double step_us = 0;       // median over blocks of the mean straight physics step
  double sdk_us = 0;        // median over blocks of the SDK's cost per simulated frame
  double ratio = 0;         // median over blocks of sdk / step
  double ratio_low = 0, ratio_high = 0;  // the blocks' quartiles
  double overrides_per_s = 0, catchup_frames_per_s = 0, ownership_changes_per_s = 0;
  double snaps_per_s = 0;
  std::size_t owned_objects = 0;
};

struct BenchPlayer {
  std::unique_ptr<ReferencePhysics> physics;
  std::unique_ptr<TimedSimulation> timed;
  std::unique_ptr<Peer> peer;
  std::optional<Bot> bot;
  ObjectId ball = 0;
};

constexpr std::int64_t kRenderUs = 16'667;
constexpr int kBlockFrames = 20;

// The timed peer's update, in nanoseconds; kept out of line so that a profiler's call stacks
// tell it apart from the other peers' updates.
[[gnu::noinline]] std::int64_t measured_update(Peer& peer, std::int64_t now_us) {
  const auto start = Clock::now();
  peer.update_at(now_us);
  return ns_since(start);
}

OverheadResult measure_overhead(int objects, int peers, int frames, std::uint64_t seed) {
  MemoryNetwork net(seed);
  LinkConditions link;
  link.latency_ms = 30;  // 60 ms round trip
  link.jitter_ms = 5;
  link.loss = 0.05f;
  net.set_conditions(link);

  const WorldSpec spec{objects, peers};
  PeerConfig config;
  std::vector<BenchPlayer> players;
  for (int p = 0; p < peers; ++p) {
    BenchPlayer player;
    player.physics = std::make_unique<ReferencePhysics>(arena_physics(spec));
    build_arena(*player.physics, spec);
    player.timed = std::make_unique<TimedSimulation>(*player.physics);
    player.peer = std::make_unique<Peer>(
        config, *player.timed, net.create_endpoint(static_cast<std::uint16_t>(p + 1), 5000));
    player.ball = kFirstBall + static_cast<ObjectId>(p);
    player.peer->set_controlled(player.ball);
    player.bot.emplace(seed * 31 + static_cast<std::uint64_t>(p), objects);
    players.push_back(std::move(player));
  }
  players[0].peer->host();
  for (int p = 1; p < peers; ++p) players[static_cast<std::size_t>(p)].peer->join(players[0].peer->address());

  std::int64_t now_us = 1'000'000;
  BenchPlayer& measured = players[1];
  std::int64_t update_ns = 0;
  auto render_frame = [&] {
    now_us += kRenderUs;
    net.set_time_us(now_us);
    for (BenchPlayer& p : players) {
      if (p.peer->in_match()) p.peer->set_input(p.bot->input(*p.peer, p.ball, p.peer->frame()));
      if (&p == &measured) {
        update_ns += measured_update(*p.peer, now_us);
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
  for (int i = 0; i < 60 * 20 && !everyone_connected(); ++i) render_frame();
  if (!everyone_connected()) {
    throw std::runtime_error("the " + std::to_string(peers) + " peers did not connect within 20 s");
  }
  for (int i = 0; i < 120; ++i) render_frame();  // warm-up: bots under way, buffers grown

  const PeerStats before = measured.peer->stats();
  std::vector<double> ratios, steps, sdks;
  for (int done = 0; done < frames; done += kBlockFrames) {
    update_ns = 0;
    const std::int64_t straight_ns = measured.timed->straight_ns();
    const std::int64_t straight_steps = measured.timed->straight_steps();
    const std::int64_t resimulated_ns = measured.timed->resimulated_ns();
    const Frame first = measured.peer->frame();
    for (int i = 0; i < kBlockFrames; ++i) render_frame();
    const std::int64_t step_ns = measured.timed->straight_ns() - straight_ns;
    const std::int64_t stepped = measured.timed->straight_steps() - straight_steps;
    const std::int64_t all_steps_ns = step_ns + measured.timed->resimulated_ns() - resimulated_ns;
    const Frame advanced = measured.peer->frame() - first;
    if (stepped == 0 || advanced == 0) continue;
    const double step_us = static_cast<double>(step_ns) / static_cast<double>(stepped) * 1e-3;
    const double sdk_us = static_cast<double>(update_ns - all_steps_ns) / advanced * 1e-3;
    steps.push_back(step_us);
    sdks.push_back(sdk_us);
    ratios.push_back(sdk_us / step_us);
  }
  const PeerStats after = measured.peer->stats();

  OverheadResult r;
  r.objects = objects;
  r.peers = peers;
  r.frames = frames;
  r.blocks = static_cast<int>(ratios.size());
  r.step_us = median(steps);
  r.sdk_us = median(sdks);
  r.ratio = median(ratios);
  std::sort(ratios.begin(), ratios.end());
  if (!ratios.empty()) {
    r.ratio_low = ratios[ratios.size() / 4];
    r.ratio_high = ratios[ratios.size() * 3 / 4];
  }
  const double seconds = static_cast<double>(frames) * static_cast<double>(kRenderUs) * 1e-6;
  auto rate = [&](std::uint64_t a, std::uint64_t b) { return static_cast<double>(b - a) / seconds; };
  r.overrides_per_s = rate(before.overrides, after.overrides);
  r.catchup_frames_per_s = rate(before.catchup_frames, after.catchup_frames);
  r.ownership_changes_per_s = rate(before.ownership_changes, after.ownership_changes);
  r.snaps_per_s = rate(before.snaps, after.snaps);
  r.owned_objects = after.owned_objects;
  return r;
}

// ---------------------------------------------------------------- 2. catch-up

struct CatchupResult {
  int objects = 0, reps = 0;
  double straight_us = 0;     // median of 8 step_forward calls
  double catchup_us = 0;      // median of one resimulate() over those 8 frames
  double ratio = 0;           // median of catch-up / straight, rep by rep
  double ratio_low = 0, ratio_high = 0;
  double ratio_to_physics = 0;  // median of catch-up / the 8 bare physics steps
};

constexpr int kCatchupDepth = 8;
constexpr int kCatchupPeers = 4;  // this peer owns a quarter of the bodies and replays them

CatchupResult measure_catchup(int objects, int reps) {
  const WorldSpec spec{objects, kCatchupPeers};
  ReferencePhysics physics(arena_physics(spec));
  build_arena(physics, spec);
  TimedSimulation timed(physics);
  const std::size_t bodies = timed.body_count();
  PeerConfig defaults;
  world::FrameHistory history(bodies, defaults.history_frames);
  sync::OwnerFrames owner_frames(bodies, defaults.history_frames);
  sync::InputLog inputs(defaults.history_frames);
  sync::Resimulator resimulator(timed, history, owner_frames, inputs);

  std::vector<std::uint8_t> owned(bodies, 0);
  for (BodyIndex b = 0; b < bodies; ++b) owned[b] = b % kCatchupPeers == 1 ? 1 : 0;
  resimulator.start(0);
  for (BodyIndex ball = 0; ball < kCatchupPeers; ++ball) inputs.track(ball);

  // Balls circle the arena's middle, so they keep knocking objects about.
  auto push_balls = [&](Frame frame) {
    for (BodyIndex ball = 0; ball < kCatchupPeers; ++ball) {
      const float angle = static_cast<float>(frame) * 0.01f + static_cast<float>(ball) * 1.57f;
      Input in;
      in.axis = {std::cos(angle), 0, std::sin(angle)};
      inputs.record(ball, frame, in);
    }
  };
  // The other owners' frames for the bodies they move, as the network would deliver them.
  auto receive_owner_frames = [&](Frame frame) {
    const std::span<const ObjectState> states = history.states(frame);
    for (BodyIndex b = 0; b < bodies; ++b) {
      if (owned[b] == 0 && !states[b].at_rest) owner_frames.store(frame, b, states[b]);
    }
  };
  auto straight = [&] {
    const Frame next = history.newest() + 1;
    push_balls(next);
    resimulator.step_forward(owned);
    receive_owner_frames(next);
  };
  for (int i = 0; i < 180; ++i) straight();  // warm-up: objects under way

  std::vector<double> straight_us, catchup_us, ratios, physics_ratios;
  for (int rep = 0; rep < reps; ++rep) {
    const std::int64_t physics_before = timed.straight_ns();
    std::int64_t straight_ns = 0;
    for (int f = 0; f < kCatchupDepth; ++f) {
      const Frame next = history.newest() + 1;
      push_balls(next);  // outside the timing: the game's input, not the SDK's work
      const auto start = Clock::now();
      resimulator.step_forward(owned);
      straight_ns += ns_since(start);
      receive_owner_frames(next);
    }
    const std::int64_t physics_ns = timed.straight_ns() - physics_before;
    const auto start = Clock::now();
    const int stepped = resimulator.resimulate(history.newest() - kCatchupDepth, owned);
    const std::int64_t catchup_ns = ns_since(start);
    if (stepped != kCatchupDepth) throw std::logic_error("catch-up stepped an unexpected frame count");
    straight_us.push_back(static_cast<double>(straight_ns) * 1e-3);
    catchup_us.push_back(static_cast<double>(catchup_ns) * 1e-3);
    ratios.push_back(static_cast<double>(catchup_ns) / static_cast<double>(straight_ns));
    physics_ratios.push_back(static_cast<double>(catchup_ns) / static_cast<double>(physics_ns));
  }
  CatchupResult r;
  r.objects = objects;
  r.reps = reps;
  r.straight_us = median(straight_us);
  r.catchup_us = median(catchup_us);
  r.ratio = median(ratios);
  r.ratio_to_physics = median(physics_ratios);
  std::sort(ratios.begin(), ratios.end());
  r.ratio_low = ratios[ratios.size() / 4];
  r.ratio_high = ratios[ratios.size() * 3 / 4];
  return r;
}

// ---------------------------------------------------------------- output

void write_json(const std::string& path, const std::vector<OverheadResult>& overhead,
                const std::vector<CatchupResult>& catchup, bool overhead_met, bool catchup_met) {
  std::ofstream out(path);
  if (!out) throw std::runtime_error("cannot write --json file '" + path + "'");
  out << "{\n  \"build_type\": \"" << SHOAL_BENCH_BUILD_TYPE << "\",\n"
      << "  \"targets\": {\"sdk_overhead_ratio_at_1000\": 0.1, \"catchup_ratio\": 1.1},\n"
      << "  \"sdk_overhead\": [\n";
  for (std::size_t i = 0; i < overhead.size(); ++i) {
    const OverheadResult& r = overhead[i];
    out << "    {\"objects\": " << r.objects << ", \"peers\": " << r.peers
        << ", \"frames\": " << r.frames << ", \"blocks\": " << r.blocks
        << ", \"physics_step_us\": " << r.step_us << ", \"sdk_us_per_frame\": " << r.sdk_us
        << ", \"ratio\": " << r.ratio << ", \"ratio_q1\": " << r.ratio_low
        << ", \"ratio_q3\": " << r.ratio_high << ", \"overrides_per_s\": " << r.overrides_per_s
        << ", \"catchup_frames_per_s\": " << r.catchup_frames_per_s
        << ", \"ownership_changes_per_s\": " << r.ownership_changes_per_s
        << ", \"snaps_per_s\": " << r.snaps_per_s << ", \"owned_objects\": " << r.owned_objects
        << "}" << (i + 1 < overhead.size() ? "," : "") << "\n";
  }
  out << "  ],\n  \"catchup\": [\n";
  for (std::size_t i = 0; i < catchup.size(); ++i) {
    const CatchupResult& r = catchup[i];
    out << "    {\"objects\": " << r.objects << ", \"frames\": " << kCatchupDepth
        << ", \"reps\": " << r.reps << ", \"straight_us\": " << r.straight_us
        << ", \"catchup_us\": " << r.catchup_us << ", \"ratio\": " << r.ratio
        << ", \"ratio_q1\": " << r.ratio_low << ", \"ratio_q3\": " << r.ratio_high
        << ", \"ratio_to_bare_physics\": " << r.ratio_to_physics << "}"
        << (i + 1 < catchup.size() ? "," : "") << "\n";
  }
  out << "  ],\n  \"sdk_overhead_target_met\": " << (overhead_met ? "true" : "false")
      << ",\n  \"catchup_target_met\": " << (catchup_met ? "true" : "false") << "\n}\n";
  if (!out) throw std::runtime_error("writing --json file '" + path + "' failed");
}

int run(const Options& options) {
  if (options.json_path && !std::ofstream(*options.json_path)) {  // fail before minutes of work
    throw std::runtime_error("cannot write --json file '" + *options.json_path + "'");
  }
  std::printf("shoal-bench-sync (%s build)\n", SHOAL_BENCH_BUILD_TYPE);
  if (std::string(SHOAL_BENCH_BUILD_TYPE) != "Release") {
    std::printf("warning: not a Release build; the figures say little about real costs\n");
  }
  std::printf(
      "\n1. SDK cost per simulated frame vs one physics step\n"
      "   in-process network, 30+-5 ms one way, 5%% loss; bots push every ball; peer 1 timed.\n"
      "   sdk = update() - every step() (straight and re-simulated); step = straight step.\n"
      "   Medians over blocks of %d render frames; q1..q3 = the blocks' quartiles.\n\n",
      kBlockFrames);
  std::printf("%8s %6s %7s %10s %10s %9s %13s %9s %10s %10s %7s\n", "objects", "peers", "frames",
              "step_us", "sdk_us", "sdk/step", "q1..q3", "ovr/s", "catchup/s", "owner_ch/s",
              "owned");
  std::vector<OverheadResult> overhead;
  for (int objects : options.objects) {
    const int frames = objects > 1000 ? std::max(kBlockFrames * 3, options.frames / 4) : options.frames;
    for (int peers : options.peers) {
      const OverheadResult r = measure_overhead(objects, peers, frames, 7);
      std::printf("%8d %6d %7d %10.1f %10.1f %8.1f%% %5.1f..%5.1f%% %9.1f %10.1f %10.2f %7zu\n",
                  r.objects, r.peers, r.frames, r.step_us, r.sdk_us, r.ratio * 100,
                  r.ratio_low * 100, r.ratio_high * 100, r.overrides_per_s, r.catchup_frames_per_s,
                  r.ownership_changes_per_s, r.owned_objects);
      std::fflush(stdout);
      overhead.push_back(r);
    }
  }

  std::printf(
      "\n2. %d-frame catch-up vs %d straight frames (Resimulator, %d balls pushed; a quarter of\n"
      "   the bodies owned and replayed, the others' moving bodies get owner frames injected)\n\n",
      kCatchupDepth, kCatchupDepth, kCatchupPeers);
  std::printf("%8s %6s %12s %12s %9s %13s %14s\n", "objects", "reps", "straight_us", "catchup_us",
              "ratio", "q1..q3", "vs_bare_steps");
  std::vector<CatchupResult> catchup;
  for (int objects : options.objects) {
    const int reps = objects > 1000 ? std::max(10, options.catchup_reps / 4) : options.catchup_reps;
    const CatchupResult r = measure_catchup(objects, reps);
    std::printf("%8d %6d %12.1f %12.1f %8.3fx %5.3f..%5.3f %13.3fx\n", r.objects, r.reps,
                r.straight_us, r.catchup_us, r.ratio, r.ratio_low, r.ratio_high,
                r.ratio_to_physics);
    std::fflush(stdout);
    catchup.push_back(r);
  }

  bool overhead_met = true;
  for (const OverheadResult& r : overhead) overhead_met = overhead_met && (r.objects != 1000 || r.ratio <= 0.10);
  bool catchup_met = true;
  for (const CatchupResult& r : catchup) catchup_met = catchup_met && r.ratio <= 1.10;
  std::printf("\ntargets: SDK overhead <= 10%% of a step at 1,000 objects: %s; "
              "catch-up <= 1.1x straight: %s\n",
              overhead_met ? "met" : "NOT met", catchup_met ? "met" : "NOT met");
  if (options.json_path) {
    write_json(*options.json_path, overhead, catchup, overhead_met, catchup_met);
    std::printf("figures written to %s\n", options.json_path->c_str());
  }
  return 0;
}

}  // namespace
}  // namespace shoal::bench

int main(int argc, char** argv) {
  shoal::bench::Options options;
  try {
    options = shoal::bench::parse(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "shoal-bench-sync: %s\n%s", e.what(), shoal::bench::kUsage);
    return 2;
  }
  try {
    return shoal::bench::run(options);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "shoal-bench-sync: %s\n", e.what());
    return 1;
  }
}
