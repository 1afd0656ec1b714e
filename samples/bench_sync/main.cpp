// SPDX-License-Identifier: MIT
// shoal-bench-sync: what Shoal's sync layer costs per frame, next to the physics it wraps.
//
// 1. SDK overhead (overhead.cpp): peers play a bot match on the in-process network (latency,
//    jitter and loss, so overrides, catch-up and ownership changes really happen); peer 1 is
//    timed, once with every peer in this process and once replayed alone. Every link is
//    secured (as over ENet by default), and the time the timed peer spends in its security
//    layer is measured apart: update() per frame secured and without it, side by side.
// 2. Catch-up: the same arena driven through the Resimulator directly; 8 step_forward calls
//    and a resimulate() over those 8 frames (with replayed owned bodies and injected owner
//    frames) alternate, and the median ratio is reported.
// 3. Settling (settle_cost.cpp): a step's moving states quantised one at a time and four at a
//    time, side by side.
// 4. Spatial index (spatial_cost.cpp): the candidates of every controlled body's core,
//    simulated region and predicted contacts, found per frame by linear scans (as the
//    authority layer does), a hashed grid and a tree of bounding volumes, side by side.
//
// Parts 1 and 2 run on each engine (--physics): the reference physics, Bullet and Box2D, and
// part 5 puts their figures side by side. Part 6: what the adapters' restoring contacts is
// worth, in overrides and catch-ups. Part 7 (projectile_cost.cpp): what a live spawned object
// costs the SDK per frame, next to a fixed body.
//
// Targets: SDK overhead <= 10% of a physics step at 1,000 objects; an 8-frame catch-up
// <= 1.1x 8 straight steps, on every engine.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench_json.hpp"
#include "bench_verdicts.hpp"
#include "catchup_cost.hpp"
#include "overhead.hpp"
#include "physics_choice.hpp"
#include "projectile_cost.hpp"
#include "settle_cost.hpp"
#include "spatial_cost.hpp"
#include "shoal/version.hpp"

#ifndef SHOAL_BENCH_BUILD_TYPE
#define SHOAL_BENCH_BUILD_TYPE "unknown"
#endif

namespace shoal::bench {
namespace {

struct Options {
  int frames = 600;        // measured render frames per case at <= 1,000 objects
  int catchup_reps = 200;  // catch-up repetitions at <= 1,000 objects
  std::vector<int> objects{100, 1000, 5000};
  std::vector<int> peers{2, 4, 8};
  std::optional<std::string> json_path;
  bool freeze = true;  // PeerConfig::freeze_outside_simulated_region of every peer in part 1
  std::vector<samples::Physics> physics = samples::built_engines();  // parts 1 and 2
  bool whole_run = true;  // neither --objects nor --peers narrowed it
};

constexpr const char* kUsage =
    "usage: shoal-bench-sync [--frames N] [--catchup-reps N] [--objects N] [--peers N]\n"
    "                        [--physics LIST] [--no-freeze] [--json FILE]\n"
    "  --frames N        render frames measured per case at up to 1,000 objects (60..100000,\n"
    "                    default 600); 5,000 objects measure N/4\n"
    "  --catchup-reps N  8-frame catch-ups timed per world size (10..100000, default 200;\n"
    "                    5,000 objects run N/4)\n"
    "  --objects N       measure only worlds of N objects (10..20000; for profiling); without\n"
    "                    --objects and --peers, part 1 adds 16 peers over 2,000 objects\n"
    "  --peers N         measure only matches of N peers (2..16; for profiling), and in\n"
    "                    part 4 only worlds of N balls\n"
    "  --physics LIST    the engines parts 1 and 2 measure, side by side: a comma-separated\n"
    "                    list of reference, bullet, box2d (default: every one this build has)\n"
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
    const bool takes_value = flag == "--frames" || flag == "--catchup-reps" || flag == "--objects" ||
                             flag == "--peers" || flag == "--json" || flag == "--physics";
    if (!takes_value) throw std::invalid_argument("unknown option '" + flag + "'");
    if (i + 1 >= argc) throw std::invalid_argument(flag + " needs a value");
    const char* value = argv[++i];
    if (flag == "--frames") o.frames = parse_count(flag, value, 60, 100000);
    if (flag == "--catchup-reps") o.catchup_reps = parse_count(flag, value, 10, 100000);
    if (flag == "--objects") o.objects = {parse_count(flag, value, 10, 20000)};
    if (flag == "--peers") o.peers = {parse_count(flag, value, 2, 16)};
    if (flag == "--objects" || flag == "--peers") o.whole_run = false;
    if (flag == "--physics") {
      try {
        o.physics = samples::physics_list(value);
      } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(std::string("--physics: ") + e.what());
      }
    }
    if (flag == "--json") {
      if (*value == '\0') throw std::invalid_argument("--json needs a file name");
      o.json_path = value;
    }
  }
  return o;
}

// Part 6: what restoring contacts is worth, by the overrides and catch-ups of the part 1 match
// (the adapters leave contacts out of restore() when asked: an engine that could not restore
// them). The reference physics has no such switch.
void print_contacts_worth(const Options& options) {
  std::vector<samples::Physics> adapters;
  for (samples::Physics p : options.physics) {
    if (p != samples::Physics::reference) adapters.push_back(p);
  }
  if (adapters.empty()) return;
  const int objects = std::ranges::find(options.objects, 1000) != options.objects.end() ? 1000 : options.objects.front();
  const int peers = options.peers[options.peers.size() / 2];
  std::printf(
      "\n6. What restoring contacts is worth: part 1's match (%d objects, %d peers) with the adapter's\n"
      "   restore() complete, and with contacts left out (as an engine that cannot restore its\n"
      "   contacts and warm-start impulses would be): overrides and catch-up frames per second.\n\n",
      objects, peers);
  std::printf("%10s %18s | %7s %9s %14s\n", "engine", "contacts", "ovr/s", "catchup/s", "sdk/step alone");
  for (samples::Physics physics : adapters) {
    for (const bool restore_contacts : {true, false}) {
      WorldSpec spec{objects, peers, physics, 0, options.freeze};
      spec.restore_contacts = restore_contacts;
      const OverheadResult r = measure_overhead(spec, options.frames, 7);
      std::printf("%10s %18s | %7.1f %9.1f %13.1f%%\n", samples::name(physics),
                  restore_contacts ? "restored" : "left out", r.overrides_per_s, r.catchup_frames_per_s,
                  r.alone.ratio * 100);
      std::fflush(stdout);
    }
  }
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
  std::printf("%10s %8s %6s %5s %7s | %8s %8s %8s %13s | %8s %8s %8s | %7s %9s %10s %6s\n", "engine", "objects",
              "peers", "delay", "frames", "step_us", "sdk_us", "sdk/step", "q1..q3", "step_us", "sdk_us",
              "sdk/step", "ovr/s", "catchup/s", "owner_ch/s", "owned");
  std::printf("%41s | %-42s | %-28s |\n", "", "shared", "alone");
  std::vector<OverheadResult> overhead;
  auto measure_row = [&](samples::Physics physics, int objects, int peers, int frames, int delay) {
    WorldSpec spec{objects, peers, physics, delay, options.freeze};
    // What recording costs is measured where docs/troubleshooting-desyncs.md gives it: the
    // reference physics at 1,000 objects, without input delay.
    const bool recording = physics == samples::Physics::reference && objects == 1000 && delay == 0;
    const OverheadResult r = measure_overhead(spec, frames, 7, recording);
    std::printf("%10s %8d %6d %5d %7d | %8.1f %8.1f %7.1f%% %5.1f..%5.1f%% | %8.1f %8.1f %7.1f%% | %7.1f %9.1f %10.2f %6zu\n",
                samples::name(r.physics), r.objects, r.peers, r.input_delay_frames, r.frames, r.shared.step_us,
                r.shared.sdk_us, r.shared.ratio * 100, r.shared.ratio_low * 100, r.shared.ratio_high * 100,
                r.alone.step_us, r.alone.sdk_us, r.alone.ratio * 100, r.overrides_per_s,
                r.catchup_frames_per_s, r.ownership_changes_per_s, r.owned_objects);
    std::fflush(stdout);
    overhead.push_back(r);
  };
  for (samples::Physics physics : options.physics) {
    for (int objects : options.objects) {
      const int frames = objects > 1000 ? std::max(kOverheadBlockFrames * 3, options.frames / 4) : options.frames;
      for (int peers : options.peers) measure_row(physics, objects, peers, frames, 0);
    }
    if (std::ranges::find(options.objects, 1000) != options.objects.end()) {
      for (int peers : options.peers) measure_row(physics, 1000, peers, options.frames, kBenchInputDelayFrames);
    }
  }
  // The largest match docs/tuning.md gives figures for: 16 peers over 2,000 objects, on the reference
  // physics (unless --objects or --peers narrowed the run).
  if (options.whole_run && std::ranges::find(options.physics, samples::Physics::reference) != options.physics.end()) {
    measure_row(samples::Physics::reference, 2000, 16, std::max(kOverheadBlockFrames * 3, options.frames / 2), 0);
  }

  std::printf(
      "\n   At scale, per peer (the timed one): the SDK's time alone next to the physics it ran per\n"
      "   simulated frame, straight and re-simulated (from the phase run); what its links carried;\n"
      "   and the heap it holds per body once running (history, owner frames, links, columns).\n\n");
  std::printf("%10s %8s %6s %5s | %8s %10s %9s %8s | %9s %9s | %10s\n", "engine", "objects", "peers", "delay",
              "sdk_us", "physics_us", "resim_us", "sdk/phys", "kbps_out", "kbps_in", "bytes/obj");
  for (const OverheadResult& r : overhead) {
    const double physics_us = r.phases.physics_us + r.phases.resimulated_physics_us;
    std::printf("%10s %8d %6d %5d | %8.1f %10.1f %9.1f %7.1f%% | %9.1f %9.1f | %10.0f\n", samples::name(r.physics),
                r.objects, r.peers, r.input_delay_frames, r.alone.sdk_us, r.phases.physics_us,
                r.phases.resimulated_physics_us, physics_us > 0 ? r.alone.sdk_us / physics_us * 100 : 0.0, r.kbps_out,
                r.kbps_in, r.bytes_per_object);
  }

  std::printf(
      "\n   Where the SDK's time goes: the alone run once more, the peer timing its own phases\n"
      "   (PeerStats::cost), us per simulated frame. physics: straight steps; resim: the steps\n"
      "   catch-up ran again (neither is in sdk).\n\n");
  std::printf("%10s %8s %6s %5s | %8s %8s %8s %9s %8s %8s %8s | %8s | %8s %8s\n", "engine", "objects", "peers",
              "delay", "receive", "correct", "step", "authority", "send", "present", "session", "sdk",
              "physics", "resim");
  for (const OverheadResult& r : overhead) {
    const PhaseCosts& c = r.phases;
    std::printf("%10s %8d %6d %5d | %8.1f %8.1f %8.1f %9.1f %8.1f %8.1f %8.1f | %8.1f | %8.1f %8.1f\n",
                samples::name(r.physics), r.objects, r.peers, r.input_delay_frames, c.receive_us, c.correct_us,
                c.step_us, c.authority_us, c.send_us, c.present_us, c.session_us, c.sdk_us(), c.physics_us,
                c.resimulated_physics_us);
  }

  std::printf(
      "\n   What securing the links costs (shoal/security.hpp): the shared run's timed peer, whose\n"
      "   links were secured as over ENet by default; its calls into the transport timed above and\n"
      "   below the security layer. update() per simulated frame as run, and without the layer's time.\n\n");
  std::printf("%10s %8s %6s %5s | %11s %11s %11s %8s | %9s\n", "engine", "objects", "peers", "delay", "secured_us",
              "clear_us", "security_us", "cost", "msgs/frame");
  for (const OverheadResult& r : overhead) {
    const SecurityCost& s = r.security;
    std::printf("%10s %8d %6d %5d | %11.1f %11.1f %11.2f %7.2f%% | %9.1f\n", samples::name(r.physics), r.objects,
                r.peers, r.input_delay_frames, s.update_us_secured, s.update_us_clear, s.security_us, s.share * 100,
                s.messages_per_frame);
  }

  std::printf(
      "\n   What recording costs (Peer::record): the alone run with the peer recording itself and\n"
      "   without, three times each in turn; update() per simulated frame, physics included.\n\n");
  std::printf("%10s %8s %6s %5s | %11s %11s %8s | %10s\n", "engine", "objects", "peers", "delay", "update_us",
              "recording", "cost", "bytes/s");
  std::optional<double> worst_recording;
  for (const OverheadResult& r : overhead) {
    if (!r.recording.measured) continue;
    worst_recording = std::max(worst_recording.value_or(r.recording.share), r.recording.share);
    std::printf("%10s %8d %6d %5d | %11.1f %11.1f %7.1f%% | %10.0f\n", samples::name(r.physics), r.objects, r.peers,
                r.input_delay_frames, r.recording.update_us_off, r.recording.update_us_on, r.recording.share * 100,
                r.recording.bytes_per_s);
  }
  if (worst_recording) {
    std::printf("   target: recording <= 5%% of update() at 1,000 objects: %s (worst %.1f%%)\n",
                *worst_recording <= 0.05 ? "met" : "NOT met", *worst_recording * 100);
  }

  std::printf(
      "\n2. %d-frame catch-up vs %d straight frames (Resimulator, %d balls pushed; a quarter of\n"
      "   the bodies owned and replayed, the others' moving bodies get owner frames injected)\n\n",
      kCatchupDepth, kCatchupDepth, kCatchupPeers);
  std::printf("%10s %8s %6s %12s %12s %9s %13s %14s\n", "engine", "objects", "reps", "straight_us", "catchup_us",
              "ratio", "q1..q3", "vs_bare_steps");
  std::vector<CatchupResult> catchup;
  for (samples::Physics physics : options.physics) {
    for (int objects : options.objects) {
      const int reps = objects > 1000 ? std::max(10, options.catchup_reps / 4) : options.catchup_reps;
      const CatchupResult r = measure_catchup(physics, objects, reps);
      std::printf("%10s %8d %6d %12.1f %12.1f %8.3fx %5.3f..%5.3f %13.3fx\n", samples::name(r.physics), r.objects,
                  r.reps, r.straight_us, r.catchup_us, r.ratio, r.ratio_low, r.ratio_high, r.ratio_to_physics);
      std::fflush(stdout);
      catchup.push_back(r);
    }
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

  const std::vector<EngineVerdict> verdicts = judge(options.physics, overhead, catchup);
  print_verdicts(verdicts, options.freeze);
  print_contacts_worth(options);
  std::optional<ProjectileCost> projectiles;
  if (std::ranges::find(options.physics, samples::Physics::reference) != options.physics.end()) {
    const int objects = std::ranges::find(options.objects, 1000) != options.objects.end() ? 1000 : options.objects.front();
    projectiles = measure_projectile_cost(objects, options.peers[options.peers.size() / 2], options.frames, 3);
    print_projectile_cost(*projectiles);
  }
  if (options.json_path) {
    write_json(*options.json_path, overhead, catchup, settle, spatial, verdicts, projectiles);
    std::printf("figures written to %s\n", options.json_path->c_str());
  }
  return 0;
}

}  // namespace
}  // namespace shoal::bench

int main(int argc, char** argv) {
  if (shoal::print_version_if_asked(argc, argv, "shoal-bench-sync")) return 0;
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
