// SPDX-License-Identifier: MIT
// shoal-bench-cubes: the standard bandwidth scene, one stage of snapshot encoding at a time.
//
// Scene: a 1.5 m player cube pushed in a scripted pattern through 900 cubes of 0.4 m in a
// 30 x 30 grid; two peers at 60 Hz over the in-process network with 100 ms RTT and 5% loss.
// Peer 0 hosts and drives the player, so it owns everything (core region and default owner);
// peer 1 controls nothing and only receives.
//
// Stages are configuration switches of the real snapshot path (PeerConfig::snapshots):
//   raw floats; quantised; + at rest (no velocities at rest); + delta; + priority and budget.
//
// kbps received by peer 1: every datagram its transport delivers (all channels), counted as
// payload + 12 bytes of ENet headers (4-byte protocol header + 8-byte send command; one
// command per datagram, so an upper bound where ENet would bundle) + 28 bytes of IPv4 and UDP.
// ENet's own acks and keep-alives are not counted. Errors: peer 1's state of every object
// against peer 0's at the same frame (the newest frame both hold), every frame after a second
// of settling; "moving p99" is the same over the objects moving on the owner at that frame.
//
// Security: both peers' links are secured (shoal/security.hpp), as over ENet by default. Peer 1
// counts twice in the same run: below its security layer (what crosses the wire: "kbps",
// "B/pkt") and above it (the same messages without their 20-byte envelopes: "clear"). A run
// with --insecure (links in the clear; both columns then agree) gives the clear figures to
// within the run-to-run noise of the match.
//
// --physics runs the scene on another engine too (Bullet; Box2D sees it from above), next to
// the reference physics, which is always measured first as the yardstick.
//
//   shoal-bench-cubes [--seconds S] [--json FILE] [--checksum-frames N] [--budget BYTES_PER_S]
//                     [--physics LIST] [--insecure]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine_world.hpp"
#include "shoal/forwarding_transport.hpp"
#include "shoal/memory_network.hpp"
#include "shoal/peer.hpp"
#include "shoal/security.hpp"
#include "shoal/version.hpp"

namespace {

using namespace shoal;

constexpr int kGrid = 30;
constexpr ObjectId kPlayer = 1;
constexpr ObjectId kFirstCube = 100;
constexpr int kEnetHeaderBytes = 12;
constexpr int kIpUdpHeaderBytes = 28;

// Counts what a peer receives, as it would cost on the wire.
class CountingTransport final : public ForwardingTransport {
 public:
  using ForwardingTransport::ForwardingTransport;
  bool poll(TransportEvent& e) override {
    if (!inner().poll(e)) return false;
    if (e.kind == TransportEventKind::message && counting) {
      bytes += e.payload.size() + kEnetHeaderBytes + kIpUdpHeaderBytes;
      ++packets;
    }
    return true;
  }

  bool counting = false;
  std::uint64_t bytes = 0, packets = 0;

 private:
};

samples::WorldSpec scene_layout() {
  using samples::BodySpec;
  samples::WorldSpec layout;
  layout.half_x = layout.half_z = 25;
  layout.push_acceleration = 30;
  layout.max_push_speed = 8;
  BodySpec player{kPlayer, BodySpec::Shape::box, {0.75f, 0.75f, 0.75f}, 20.0f, {}};
  player.state.position = {0, 0.75f, -20};
  layout.bodies.push_back(player);
  for (int i = 0; i < kGrid * kGrid; ++i) {
    BodySpec cube{kFirstCube + static_cast<ObjectId>(i), BodySpec::Shape::box, {0.2f, 0.2f, 0.2f}, 1.0f, {}};
    cube.state.position = {(static_cast<float>(i % kGrid) - (kGrid - 1) * 0.5f) * 1.2f, 0.2f,
                           (static_cast<float>(i / kGrid) - (kGrid - 1) * 0.5f) * 1.2f};
    cube.state.at_rest = true;
    layout.bodies.push_back(cube);
  }
  return layout;
}

// The scripted push: towards a sequence of way-points across the grid (on the ground), pausing
// between them.
Input scripted_input(const samples::EngineWorld& world, Frame frame, Vec3 at) {
  static const Vec3 kWaypoints[] = {{0, 0, 15}, {-15, 0, 0}, {15, 0, -10}, {0, 0, -20}, {-12, 0, 12}, {12, 0, 12}};
  constexpr Frame kLeg = 300;  // 5 s per way-point, the last second of it idle
  const Frame leg = frame / kLeg;
  Input in;
  if (frame % kLeg >= kLeg - 60) return in;
  const Vec3 target = world.to_world(kWaypoints[static_cast<std::size_t>(leg) % std::size(kWaypoints)]);
  const Vec3 to = world.along_ground(target - at);
  if (length(to) > 0.5f) in.axis = normalized(to);
  return in;
}

struct Stage {
  const char* name;
  SnapshotConfig snapshots;
  int rest_interval;
};

struct Result {
  samples::Physics physics = samples::Physics::reference;
  std::string name;
  double kbps = 0, packets_per_s = 0;  // on the wire (sealed, unless --insecure)
  double clear_kbps = 0;                 // the same messages in the clear
  double bytes_per_packet = 0, clear_bytes_per_packet = 0;
  float pos[3] = {}, rot[3] = {};  // p50, p99, max
  float moving_pos_p99 = 0;        // over objects moving on the owner at that frame
  std::uint64_t overrides = 0, baseline_misses = 0;
};

void percentiles(std::vector<float>& v, float out[3]) {
  if (v.empty()) return;
  auto at = [&](double q) {
    const auto k = static_cast<std::size_t>(q * static_cast<double>(v.size() - 1));
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
    return v[k];
  };
  out[0] = at(0.50);
  out[1] = at(0.99);
  out[2] = *std::max_element(v.begin(), v.end());
}

Result run_stage(samples::Physics physics, const Stage& stage, double seconds, int checksum_frames, bool secure) {
  PeerConfig config;
  config.snapshots = stage.snapshots;
  config.rest_snapshot_interval_frames = stage.rest_interval;
  config.checksum_interval_frames = checksum_frames;
  MemoryNetwork net(2024);
  LinkConditions link;
  link.latency_ms = 50;
  link.loss = 0.05f;
  net.set_conditions(link);

  const std::unique_ptr<samples::EngineWorld> world0 = samples::make_engine_world(physics, scene_layout());
  const std::unique_ptr<samples::EngineWorld> world1 = samples::make_engine_world(physics, scene_layout());
  const SessionAuthority authority("bench-cubes");
  const auto secured = [&](std::unique_ptr<Transport> t) {
    SecurityConfig security;
    security.enabled = secure;
    security.credentials = authority.invite();
    return make_secure_transport(std::move(t), security);
  };
  Peer owner(config, world0->simulation(), secured(net.create_endpoint(1)));
  auto wire_counter = std::make_unique<CountingTransport>(net.create_endpoint(2));
  CountingTransport& received = *wire_counter;
  auto clear_counter = std::make_unique<CountingTransport>(secured(std::move(wire_counter)));
  CountingTransport& received_clear = *clear_counter;
  Peer viewer(config, world1->simulation(), std::move(clear_counter));
  owner.set_controlled(kPlayer);
  owner.host();
  viewer.join(owner.address());

  std::int64_t now = 1'000'000;
  constexpr std::int64_t kFrameUs = 16'667;
  auto tick = [&] {
    now += kFrameUs;
    net.set_time_us(now);
    if (owner.in_match()) owner.set_input(scripted_input(*world0, owner.frame(), owner.state(kPlayer).position));
    owner.update_at(now);
    viewer.update_at(now);
  };
  for (int i = 0; i < 600 && !(owner.in_match() && viewer.in_match() && viewer.peers().size() == 2); ++i) tick();
  if (!viewer.in_match()) throw std::runtime_error("the peers did not connect");
  for (int i = 0; i < 60; ++i) tick();  // settle before measuring

  std::vector<ObjectId> ids{kPlayer};
  for (int i = 0; i < kGrid * kGrid; ++i) ids.push_back(kFirstCube + static_cast<ObjectId>(i));
  std::vector<float> pos_err, rot_err, moving_pos_err;
  const auto frames = static_cast<int>(seconds * 60);
  pos_err.reserve(static_cast<std::size_t>(frames) * ids.size());
  rot_err.reserve(pos_err.capacity());
  received.counting = received_clear.counting = true;
  const std::int64_t start = now;
  for (int i = 0; i < frames; ++i) {
    tick();
    const Frame common = std::min(owner.frame(), viewer.frame());
    for (ObjectId id : ids) {
      const auto a = owner.state_at(id, common);
      const auto b = viewer.state_at(id, common);
      if (!a || !b) continue;
      pos_err.push_back(distance(a->position, b->position));
      if (!a->at_rest) moving_pos_err.push_back(pos_err.back());
      rot_err.push_back(angle_between(a->orientation, b->orientation));
    }
  }
  received.counting = received_clear.counting = false;
  const double elapsed_s = static_cast<double>(now - start) * 1e-6;

  Result r;
  r.physics = physics;
  r.name = stage.name;
  r.kbps = static_cast<double>(received.bytes) * 8 / 1000 / elapsed_s;
  r.packets_per_s = static_cast<double>(received.packets) / elapsed_s;
  r.clear_kbps = static_cast<double>(received_clear.bytes) * 8 / 1000 / elapsed_s;
  if (received.packets > 0) r.bytes_per_packet = static_cast<double>(received.bytes) / static_cast<double>(received.packets);
  if (received_clear.packets > 0) {
    r.clear_bytes_per_packet = static_cast<double>(received_clear.bytes) / static_cast<double>(received_clear.packets);
  }
  percentiles(pos_err, r.pos);
  percentiles(rot_err, r.rot);
  float moving[3] = {};
  percentiles(moving_pos_err, moving);
  r.moving_pos_p99 = moving[1];
  r.overrides = viewer.stats().overrides;
  r.baseline_misses = viewer.stats().baseline_misses;
  return r;
}

std::vector<Stage> stages(int budget) {
  SnapshotConfig raw;
  raw.quantize = false;
  raw.velocities_at_rest = true;
  raw.delta = false;
  raw.prioritize = false;
  SnapshotConfig quantised = raw;
  quantised.quantize = true;
  SnapshotConfig at_rest = quantised;
  at_rest.velocities_at_rest = false;
  SnapshotConfig delta = at_rest;
  delta.delta = true;
  SnapshotConfig prioritised = delta;
  prioritised.prioritize = true;
  prioritised.bytes_per_second = budget;
  // The first four send every object every frame, as the reference stages do.
  return {{"raw floats", raw, 1}, {"quantised", quantised, 1}, {"+ at rest", at_rest, 1},
          {"+ delta", delta, 1}, {"+ priority and budget", prioritised, 30}};
}

}  // namespace

int main(int argc, char** argv) {
  if (shoal::print_version_if_asked(argc, argv, "shoal-bench-cubes")) return 0;
  double seconds = 60;
  int checksum_frames = 600;
  int budget = SnapshotConfig{}.bytes_per_second;
  const char* json = nullptr;
  std::vector<samples::Physics> engines{samples::Physics::reference};  // the yardstick, first
  bool secure = true;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool has_value = i + 1 < argc;
    if (arg == "--seconds" && has_value) {
      seconds = std::atof(argv[++i]);
    } else if (arg == "--json" && has_value) {
      json = argv[++i];
    } else if (arg == "--checksum-frames" && has_value) {
      checksum_frames = std::atoi(argv[++i]);
    } else if (arg == "--budget" && has_value) {
      budget = std::atoi(argv[++i]);
    } else if (arg == "--insecure") {
      secure = false;
    } else if (arg == "--physics" && has_value) {
      try {
        for (samples::Physics p : samples::physics_list(argv[++i])) {
          if (std::find(engines.begin(), engines.end(), p) == engines.end()) engines.push_back(p);
        }
      } catch (const std::invalid_argument& e) {
        std::fprintf(stderr, "shoal-bench-cubes: --physics: %s\n", e.what());
        return 2;
      }
    } else {
      std::fprintf(stderr,
                   "usage: %s [--seconds S] [--json FILE] [--checksum-frames N] [--budget BYTES_PER_S] [--physics LIST]\n"
                   "          [--insecure]\n"
                   "  --physics LIST  also run the scene on these engines (comma-separated: bullet, box2d),\n"
                   "                  next to the reference physics\n"
                   "  --insecure      links in the clear (by default secured; the clear columns show the cost)\n",
                   argv[0]);
      return 2;
    }
  }
  if (!(seconds > 0)) {
    std::fprintf(stderr, "--seconds must be positive\n");
    return 2;
  }
  std::printf("901 cubes, 2 peers, 60 Hz, 100 ms RTT, 5%% loss, %.0f s per stage (desync checksums every %d frames), "
              "links %s\n", seconds, checksum_frames, secure ? "secured" : "in the clear (--insecure)");
  std::printf("%-24s %10s %10s %10s %8s %7s %7s | %9s %9s %9s | %9s %9s %9s | %12s %9s\n", "stage", "engine", "kbps",
              "kbps clear", "pkt/s", "B/pkt", "clear", "pos p50", "pos p99", "pos max", "rot p50", "rot p99", "rot max",
              "moving p99", "overrides");
  std::vector<Result> results;
  try {
    for (const Stage& stage : stages(budget)) {
      for (samples::Physics physics : engines) {
        const Result r = run_stage(physics, stage, seconds, checksum_frames, secure);
        std::printf("%-24s %10s %10.1f %10.1f %8.1f %7.1f %7.1f | %8.5fm %8.5fm %8.5fm | %8.5fr %8.5fr %8.5fr | %11.5fm %9llu\n",
                    r.name.c_str(), samples::name(r.physics), r.kbps, r.clear_kbps, r.packets_per_s, r.bytes_per_packet,
                    r.clear_bytes_per_packet, static_cast<double>(r.pos[0]),
                    static_cast<double>(r.pos[1]), static_cast<double>(r.pos[2]), static_cast<double>(r.rot[0]),
                    static_cast<double>(r.rot[1]), static_cast<double>(r.rot[2]), static_cast<double>(r.moving_pos_p99),
                    static_cast<unsigned long long>(r.overrides));
        std::fflush(stdout);
        results.push_back(r);
      }
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "shoal-bench-cubes: %s\n", e.what());
    return 1;
  }
  if (json != nullptr) {
    std::FILE* f = std::fopen(json, "w");
    if (f == nullptr) {
      std::fprintf(stderr, "shoal-bench-cubes: cannot write %s\n", json);
      return 1;
    }
    std::fprintf(f, "{\n  \"seconds\": %g,\n  \"secure\": %s,\n  \"stages\": [\n", seconds, secure ? "true" : "false");
    for (std::size_t i = 0; i < results.size(); ++i) {
      const Result& r = results[i];
      std::fprintf(f,
                   "    {\"physics\": \"%s\", \"name\": \"%s\", \"kbps\": %.3f, \"clear_kbps\": %.3f, "
                   "\"bytes_per_packet\": %.2f, \"clear_bytes_per_packet\": %.2f, \"packets_per_s\": %.2f, "
                   "\"pos_err_p50_m\": %.6g, \"pos_err_p99_m\": %.6g, \"pos_err_max_m\": %.6g, "
                   "\"rot_err_p50_rad\": %.6g, \"rot_err_p99_rad\": %.6g, \"rot_err_max_rad\": %.6g, "
                   "\"moving_pos_err_p99_m\": %.6g, \"overrides\": %llu, \"baseline_misses\": %llu}%s\n",
                   samples::name(r.physics), r.name.c_str(), r.kbps, r.clear_kbps, r.bytes_per_packet,
                   r.clear_bytes_per_packet, r.packets_per_s, static_cast<double>(r.pos[0]),
                   static_cast<double>(r.pos[1]), static_cast<double>(r.pos[2]), static_cast<double>(r.rot[0]),
                   static_cast<double>(r.rot[1]), static_cast<double>(r.rot[2]), static_cast<double>(r.moving_pos_p99),
                   static_cast<unsigned long long>(r.overrides), static_cast<unsigned long long>(r.baseline_misses), i + 1 < results.size() ? "," : "");
    }
    std::fprintf(f, "  ]\n}\n");
    std::fclose(f);
  }
  return 0;
}
