// shoal-bench-sync: what Shoal's sync layer costs per frame, next to the physics it wraps.
//
// 1. SDK overhead (overhead.cpp): peers play a bot match on the in-process network (latency,
//    jitter and loss, so overrides, catch-up and ownership changes really happen); peer 1 is
//    timed, once with every peer in this process and once replayed alone.
// 2. Catch-up: the same arena driven through the Resimulator directly; 8 step_forward calls
//    and a resimulate() over those 8 frames (with replayed owned bodies and injected owner
//    frames) alternate, and the median ratio is reported.
// 3. Settling (settle_cost.cpp): a step's moving states quantised one at a time and four at a
//    time, side by side.
// 4. Spatial index (spatial_cost.cpp): the candidates of every controlled body's core,
//    simulated region and predicted contacts, found per frame by linear scans (as the
//    authority layer does), a hashed grid and a tree of bounding volumes, side by side.
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
#include "medians.hpp"
#include "overhead.hpp"
#include "settle_cost.hpp"
#include "spatial_cost.hpp"
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

struct Options {
  int frames = 600;        // measured render frames per case at <= 1,000 objects
  int catchup_reps = 200;  // catch-up repetitions at <= 1,000 objects
  std::vector<int> objects{100, 1000, 5000};
  std::vector<int> peers{2, 4, 8};
  std::optional<std::string> json_path;
  bool freeze = true;  // PeerConfig::freeze_outside_simulated_region of every peer in part 1
};

constexpr const char* kUsage =
    "usage: shoal-bench-sync [--frames N] [--catchup-reps N] [--objects N] [--peers N]\n"
    "                        [--no-freeze] [--json FILE]\n"
    "  --frames N        render frames measured per case at up to 1,000 objects (60..100000,\n"
    "                    default 600); 5,000 objects measure N/4\n"
    "  --catchup-reps N  8-frame catch-ups timed per world size (10..100000, default 200;\n"
    "                    5,000 objects run N/4)\n"
    "  --objects N       measure only worlds of N objects (10..20000; for profiling)\n"
    "  --peers N         measure only matches of N peers (2..16; for profiling), and in\n"
    "                    part 4 only worlds of N balls\n"
    "  --no-freeze       in part 1, no peer leaves anything out of its step\n"
    "                    (PeerConfig::freeze_outside_simulated_region = false; not the default)\n"
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
    if (flag == "--no-freeze") {
      o.freeze = false;
      continue;
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
    const std::span<const ObjectState> states = history.newest_states();  // of `frame`
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
  std::tie(r.ratio_low, r.ratio_high) = quartiles(ratios);
  return r;
}

// ---------------------------------------------------------------- output

void write_figures(std::ofstream& out, const char* name, const OverheadFigures& f) {
  out << "\"" << name << "\": {\"blocks\": " << f.blocks << ", \"physics_step_us\": " << f.step_us
      << ", \"sdk_us_per_frame\": " << f.sdk_us << ", \"ratio\": " << f.ratio
      << ", \"ratio_q1\": " << f.ratio_low << ", \"ratio_q3\": " << f.ratio_high << "}";
}

struct Verdicts {
  bool shared = true, alone = true, catchup = true;
  bool alone_with_input_delay = false;  // the same target, every peer delaying its inputs
};

// Frames of input delay in the second sweep of part 1: more than the 30 +- 5 ms one way.
constexpr int kBenchInputDelayFrames = 3;

void write_json(const std::string& path, const std::vector<OverheadResult>& overhead,
                const std::vector<CatchupResult>& catchup, const SettleCost& settle,
                const std::vector<SpatialCost>& spatial, const Verdicts& met) {
  std::ofstream out(path);
  if (!out) throw std::runtime_error("cannot write --json file '" + path + "'");
  out << "{\n  \"build_type\": \"" << SHOAL_BENCH_BUILD_TYPE << "\",\n"
      << "  \"targets\": {\"sdk_overhead_ratio_at_1000\": 0.1, \"catchup_ratio\": 1.1},\n"
      << "  \"sdk_overhead\": [\n";
  for (std::size_t i = 0; i < overhead.size(); ++i) {
    const OverheadResult& r = overhead[i];
    out << "    {\"objects\": " << r.objects << ", \"peers\": " << r.peers << ", \"frames\": " << r.frames
        << ", \"input_delay_frames\": " << r.input_delay_frames << ", \"freeze_outside_simulated_region\": "
        << (r.freeze_outside_simulated_region ? "true" : "false") << ", ";
    write_figures(out, "shared", r.shared);
    out << ", ";
    write_figures(out, "alone", r.alone);
    out << ", \"overrides_per_s\": " << r.overrides_per_s
        << ", \"catchup_frames_per_s\": " << r.catchup_frames_per_s
        << ", \"ownership_changes_per_s\": " << r.ownership_changes_per_s
        << ", \"snaps_per_s\": " << r.snaps_per_s << ", \"owned_objects\": " << r.owned_objects
        << ", \"phases_us_per_frame\": {\"receive\": " << r.phases.receive_us
        << ", \"correct\": " << r.phases.correct_us << ", \"step\": " << r.phases.step_us
        << ", \"authority\": " << r.phases.authority_us << ", \"send\": " << r.phases.send_us
        << ", \"present\": " << r.phases.present_us << ", \"session\": " << r.phases.session_us
        << ", \"sdk\": " << r.phases.sdk_us() << ", \"physics\": " << r.phases.physics_us
        << ", \"resimulated_physics\": " << r.phases.resimulated_physics_us << "}";
    if (r.recording.measured) {
      out << ", \"recording\": {\"update_us_off\": " << r.recording.update_us_off
          << ", \"update_us_on\": " << r.recording.update_us_on << ", \"share\": " << r.recording.share
          << ", \"bytes_per_s\": " << r.recording.bytes_per_s << "}";
    }
    out << "}" << (i + 1 < overhead.size() ? "," : "") << "\n";
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
  out << "  ],\n  \"settle\": {\"states\": " << settle.states << ", \"reps\": " << settle.reps
      << ", \"one_at_a_time_ns\": " << settle.one_at_a_time_ns << ", \"together_ns\": " << settle.together_ns
      << ", \"ratio\": " << settle.ratio << "},\n";
  write_spatial_json(out, spatial);
  out << "  \"sdk_overhead_target_met\": {\"shared\": " << (met.shared ? "true" : "false")
      << ", \"alone\": " << (met.alone ? "true" : "false")
      << ", \"alone_with_input_delay\": " << (met.alone_with_input_delay ? "true" : "false") << "},\n"
      << "  \"catchup_target_met\": " << (met.catchup ? "true" : "false") << "\n}\n";
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
      "   Medians over blocks of %d render frames; q1..q3 = the blocks' quartiles.\n"
      "   shared: every peer in this process, updated in turn on one thread (the timed peer\n"
      "   starts each update with the caches full of the others' worlds); alone: the same\n"
      "   peer replayed by itself on what its transport delivered (same work, checked), as\n"
      "   with one peer per machine. delay: PeerConfig::input_delay_frames of every peer; the\n"
      "   default (0) first, then %d frames at 1,000 objects (remote players' inputs known\n"
      "   before their frames are simulated: fewer overrides and catch-ups).\n\n",
      kOverheadBlockFrames, kBenchInputDelayFrames);
  if (!options.freeze) {
    std::printf(
        "   --no-freeze: no peer leaves what lies outside its simulated region out of its step\n"
        "   (PeerConfig::freeze_outside_simulated_region = false; not the default).\n\n");
  }
  std::printf("%8s %6s %5s %7s | %8s %8s %8s %13s | %8s %8s %8s | %7s %9s %10s %6s\n", "objects",
              "peers", "delay", "frames", "step_us", "sdk_us", "sdk/step", "q1..q3", "step_us", "sdk_us",
              "sdk/step", "ovr/s", "catchup/s", "owner_ch/s", "owned");
  std::printf("%30s | %-42s | %-28s |\n", "", "shared", "alone");
  std::vector<OverheadResult> overhead;
  auto measure_row = [&](int objects, int peers, int frames, int delay) {
    const bool recording = objects == 1000 && delay == 0;  // the case: recording's cost
    const OverheadResult r = measure_overhead(objects, peers, frames, 7, delay, options.freeze, recording);
    std::printf("%8d %6d %5d %7d | %8.1f %8.1f %7.1f%% %5.1f..%5.1f%% | %8.1f %8.1f %7.1f%% | %7.1f %9.1f %10.2f %6zu\n",
                r.objects, r.peers, r.input_delay_frames, r.frames, r.shared.step_us, r.shared.sdk_us,
                r.shared.ratio * 100, r.shared.ratio_low * 100, r.shared.ratio_high * 100,
                r.alone.step_us, r.alone.sdk_us, r.alone.ratio * 100, r.overrides_per_s,
                r.catchup_frames_per_s, r.ownership_changes_per_s, r.owned_objects);
    std::fflush(stdout);
    overhead.push_back(r);
  };
  for (int objects : options.objects) {
    const int frames = objects > 1000 ? std::max(kOverheadBlockFrames * 3, options.frames / 4) : options.frames;
    for (int peers : options.peers) measure_row(objects, peers, frames, 0);
  }
  if (std::ranges::find(options.objects, 1000) != options.objects.end()) {
    for (int peers : options.peers) measure_row(1000, peers, options.frames, kBenchInputDelayFrames);
  }

  std::printf(
      "\n   Where the SDK's time goes: the alone run once more, the peer timing its own phases\n"
      "   (PeerStats::cost), us per simulated frame. physics: straight steps; resim: the steps\n"
      "   catch-up ran again (neither is in sdk).\n\n");
  std::printf("%8s %6s %5s | %8s %8s %8s %9s %8s %8s %8s | %8s | %8s %8s\n", "objects", "peers",
              "delay", "receive", "correct", "step", "authority", "send", "present", "session", "sdk",
              "physics", "resim");
  for (const OverheadResult& r : overhead) {
    const PhaseCosts& c = r.phases;
    std::printf("%8d %6d %5d | %8.1f %8.1f %8.1f %9.1f %8.1f %8.1f %8.1f | %8.1f | %8.1f %8.1f\n",
                r.objects, r.peers, r.input_delay_frames, c.receive_us, c.correct_us, c.step_us, c.authority_us,
                c.send_us, c.present_us, c.session_us, c.sdk_us(), c.physics_us,
                c.resimulated_physics_us);
  }

  std::printf(
      "\n   What recording costs (Peer::record): the alone run with the peer recording itself and\n"
      "   without, three times each in turn; update() per simulated frame, physics included.\n\n");
  std::printf("%8s %6s %5s | %11s %11s %8s | %10s\n", "objects", "peers", "delay", "update_us", "recording",
              "cost", "bytes/s");
  double worst_recording = 0;
  bool recording_measured = false;
  for (const OverheadResult& r : overhead) {
    if (!r.recording.measured) continue;
    worst_recording = recording_measured ? std::max(worst_recording, r.recording.share) : r.recording.share;
    recording_measured = true;
    std::printf("%8d %6d %5d | %11.1f %11.1f %7.1f%% | %10.0f\n", r.objects, r.peers, r.input_delay_frames,
                r.recording.update_us_off, r.recording.update_us_on, r.recording.share * 100, r.recording.bytes_per_s);
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

  // 80 states: about what a step settles at 1,000 objects and 8 peers.
  const SettleCost settle = measure_settle_cost(80, 2000);
  std::printf(
      "\n3. Settling a step's moving states (quantisation on both sides, after every step):\n"
      "   %d states, one at a time (settle_state) and four at a time (settle_states), alternating\n"
      "   %d times; the results are checked to be the same bits. Medians, ns per state.\n\n",
      settle.states, settle.reps);
  std::printf("%14s %10s %9s\n", "one_at_a_time", "together", "ratio");
  std::printf("%14.1f %10.1f %8.2fx\n", settle.one_at_a_time_ns, settle.together_ns, settle.ratio);

  const std::vector<SpatialCost> spatial = print_spatial_costs(options.objects, options.peers);

  Verdicts met;
  double worst_shared = 0, worst_alone = 0, worst_alone_delayed = 0;
  bool at_1000 = false;
  for (const OverheadResult& r : overhead) {
    if (r.objects != 1000) continue;
    at_1000 = true;
    if (r.input_delay_frames > 0) {
      worst_alone_delayed = std::max(worst_alone_delayed, r.alone.ratio);
      continue;
    }
    worst_shared = std::max(worst_shared, r.shared.ratio);
    worst_alone = std::max(worst_alone, r.alone.ratio);
  }
  met.shared = at_1000 && worst_shared <= 0.10;
  met.alone = at_1000 && worst_alone <= 0.10;
  met.alone_with_input_delay = at_1000 && worst_alone_delayed <= 0.10;
  for (const CatchupResult& r : catchup) met.catchup = met.catchup && r.ratio <= 1.10;
  if (at_1000) {
    if (!options.freeze) std::printf("\n(--no-freeze: the verdicts below are for that setting, not the defaults)");
    std::printf("\ntargets: SDK overhead <= 10%% of a step at 1,000 objects: shared %s (worst %.1f%%), "
                "alone %s (worst %.1f%%)",
                met.shared ? "met" : "NOT met", worst_shared * 100, met.alone ? "met" : "NOT met",
                worst_alone * 100);
    std::printf("; with %d frames of input delay, alone %s (worst %.1f%%)", kBenchInputDelayFrames,
                met.alone_with_input_delay ? "met" : "NOT met", worst_alone_delayed * 100);
  } else {
    std::printf("\ntargets: SDK overhead <= 10%% of a step at 1,000 objects: not measured (no 1,000-object world)");
  }
  std::printf("; catch-up <= 1.1x straight: %s", met.catchup ? "met" : "NOT met");
  if (recording_measured) {
    std::printf("; recording <= 5%% of update() at 1,000 objects: %s (worst %.1f%%)",
                worst_recording <= 0.05 ? "met" : "NOT met", worst_recording * 100);
  }
  std::printf("\n");
  if (options.json_path) {
    write_json(*options.json_path, overhead, catchup, settle, spatial, met);
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
