// SPDX-License-Identifier: MIT
#include "peer_process.hpp"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "arena.hpp"
#include "bot.hpp"
#include "gun.hpp"
#include "peer_report.hpp"
#include "process.hpp"
#include "reown_watch.hpp"
#include "shoal/lan_discovery.hpp"
#include "shoal/peer.hpp"
#include "shoal/relay.hpp"
#include "shoal/security.hpp"
#include "timeline.hpp"

namespace lan_match {
namespace {

using Clock = std::chrono::steady_clock;

constexpr int kWaitMs = 4;               // loop pacing: well under one 16.7 ms frame
constexpr int kAutoFindMs = 2000;        // --peer without --host/--join: look this long, then host
constexpr int kJoinFindMs = 10000;       // --join: look this long, then give up
constexpr auto kLinger = std::chrono::seconds(5);  // after reporting, while the others finish
constexpr auto kPhaseInterval = std::chrono::milliseconds(250);  // join progress, until joined

std::string describe_join_failure(const shoal::Event& e) {
  const std::string who = e.peer == shoal::kNoPeer ? "the host" : fmt::format("peer {}", e.peer);
  return fmt::format("join failed: stuck in {} ({}: {})", shoal::to_string(e.step), who, shoal::to_string(e.failure));
}

// What the player saw, from the peer's histograms (of one second, or of the whole match).
void add_player_view(PeerFigures& f, const shoal::Histogram& latency, const shoal::Histogram& visual) {
  f.latency_p50_ms = latency.percentile(0.5);
  f.latency_p99_ms = latency.percentile(0.99);
  f.visual_p99_mm = visual.percentile(0.99);
  f.visual_max_mm = visual.max;
}

PeerFigures figures_of(const shoal::Peer& peer, const shoal::PeerStats& stats) {
  PeerFigures f;
  f.peer = peer.id();
  f.frame = stats.frame;
  f.peers_seen = static_cast<int>(peer.peers().size());
  for (const shoal::RemotePeerStats& remote : stats.remotes) {
    f.rtt_ms += remote.link.rtt_ms;
    f.loss += remote.link.packet_loss;
    f.kbps_out += remote.link.bytes_out_per_s * 8 / 1000;
    f.kbps_in += remote.link.bytes_in_per_s * 8 / 1000;
  }
  if (!stats.remotes.empty()) {
    f.rtt_ms /= static_cast<float>(stats.remotes.size());
    f.loss /= static_cast<float>(stats.remotes.size());
  }
  f.overrides = stats.overrides;
  f.catchup_frames = stats.catchup_frames;
  f.ownership_changes = stats.ownership_changes;
  f.desyncs = stats.desyncs;
  f.owned_objects = stats.owned_objects;
  f.frozen_objects = stats.frozen_objects;
  f.pace = stats.pace;
  f.objects_spawned = stats.objects_spawned;
  f.objects_removed = stats.objects_removed;
  f.live_objects = peer.spawned_objects().size();
  f.bad_spawn = stats.dropped[shoal::DropReason::bad_spawn];
  f.over_limit = stats.dropped[shoal::DropReason::over_limit];
  f.cpu_ms = shoal::samples::process_cpu_ms();
  const shoal::JoinProgress join = peer.join_progress();
  f.join_ms = join.step == shoal::JoinStep::joined ? join.elapsed_ms : -1;
  return f;
}

// Figures now, states at `frame` (still in the history: see Timeline::report_delay); the final
// sample adds what the peer knows of each body, for the report of a match that disagrees.
// Samples the report compares (`with_spawned`) add the live spawned objects: no spawn or
// removal happens from the bots' stop until after them (Timeline::removals_resume), so the live
// set now is the one at `frame`.
void take_sample(const shoal::Peer& peer, const std::vector<shoal::ObjectId>& bodies, shoal::Frame frame,
                 bool final, bool with_spawned, PeerSample& sample, shoal::PeerStats& previous) {
  sample.final = final;
  const shoal::PeerStats stats = peer.stats();
  sample.figures = figures_of(peer, stats);
  if (final) {
    add_player_view(sample.figures, stats.correction_latency_ms, stats.visual_correction_mm);
  } else {
    add_player_view(sample.figures, stats.correction_latency_ms.since(previous.correction_latency_ms),
                    stats.visual_correction_mm.since(previous.visual_correction_mm));
  }
  previous.correction_latency_ms = stats.correction_latency_ms;
  previous.visual_correction_mm = stats.visual_correction_mm;
  sample.figures.frame = frame;
  sample.states.clear();
  sample.diagnoses.clear();
  sample.spawned_ids.clear();
  sample.spawned_states.clear();
  for (shoal::ObjectId id : bodies) {
    sample.states.push_back(peer.state_at(id, frame));
    if (final) sample.diagnoses.push_back(peer.diagnose(id, frame));
  }
  if (!with_spawned) return;
  sample.spawned_ids = peer.spawned_objects();
  for (shoal::ObjectId id : sample.spawned_ids) sample.spawned_states.push_back(peer.state_at(id, frame));
}

// --misreport-peer: this peer's first body, 1 cm off in what it reports (never in the match).
void misreport(PeerSample& sample) {
  if (!sample.states.empty() && sample.states.front()) sample.states.front()->position.x += 0.01f;
}

// The credentials the launcher put in our environment, or security off with --insecure.
shoal::SecurityConfig security_for(const Options& options) {
  shoal::SecurityConfig security;
  security.enabled = !options.insecure;
  if (options.insecure) return security;
  const char* text = std::getenv(kCredentialsVariable);
  const auto credentials = text == nullptr ? std::nullopt : shoal::Credentials::from_text(text);
  if (!credentials) {
    throw std::runtime_error(fmt::format("a --peer needs its credentials in {} (the launcher sets it), or --insecure",
                                         kCredentialsVariable));
  }
  security.credentials = *credentials;
  return security;
}

// Through a relay, the session name is both the relay session id and its token, and the host
// takes the slot every joiner looks for.
std::unique_ptr<shoal::Transport> make_transport(const Options& options, const shoal::TransportConfig& local) {
  if (!options.relay) return shoal::make_enet_transport(local);
  shoal::RelayClientConfig relay;
  relay.relay = *options.relay;
  relay.session = options.session;
  relay.token = options.session;
  relay.slot = options.role == PeerRole::host ? shoal::kRelayHostSlot : 0;
  relay.local = local;
  return shoal::make_relay_transport(relay);
}

// Hosts, or finds the session and joins, as the role says. Returns the announcer a host on a
// LAN keeps running so that peers can find it at any time.
std::optional<shoal::LanAnnouncer> enter_match(const Options& options, shoal::Peer& peer) {
  if (options.relay) {
    if (options.role == PeerRole::host) {
      peer.host();
    } else {
      peer.join(shoal::relay_host_address());
    }
    return std::nullopt;
  }
  shoal::LanDiscoveryConfig discovery;
  discovery.port = options.discovery_port;
  discovery.loopback_only = options.loopback_discovery;
  if (options.role != PeerRole::host) {
    shoal::LanSeeker seeker(discovery);
    const int timeout_ms = options.role == PeerRole::join ? kJoinFindMs : kAutoFindMs;
    if (const auto found = seeker.find(options.session, timeout_ms)) {
      peer.join(found->address);
      return std::nullopt;
    }
    if (options.role == PeerRole::join) {
      throw std::runtime_error(fmt::format("no host announced session '{}' on UDP port {} within {} s",
                                           options.session, options.discovery_port, timeout_ms / 1000));
    }
  }
  peer.host();
  return std::optional<shoal::LanAnnouncer>(std::in_place, discovery, options.session, peer.address());
}

// What the launcher says on our stdin, one command a line: "quit" (or stdin closed), "killed P"
// after it SIGKILLed (or kicked) peer P (ReownWatch), and "revoke TEXT": apply the session
// authority's revocation (--kick-peer; shoal::Revocation::to_text). Read without blocking.
class LauncherCommands {
 public:
  /// Reads what arrived; calls on_killed(P) for each "killed P", and keeps revocations.
  template <class OnKilled>
  void read(OnKilled&& on_killed) {
    if (quit_) return;
    if (!input_.read_available(pending_)) quit_ = true;  // closed: what came before still counts
    for (std::size_t end; (end = pending_.find('\n')) != std::string::npos; pending_.erase(0, end + 1)) {
      const std::string_view line = std::string_view(pending_).substr(0, end);
      shoal::PeerId dead = shoal::kNoPeer;
      if (line == "quit") {
        quit_ = true;
      } else if (line.starts_with("killed ") &&
                 std::from_chars(line.data() + 7, line.data() + line.size(), dead).ec == std::errc{}) {
        on_killed(dead);
      } else if (line.starts_with("revoke ")) {
        if (auto revocation = shoal::Revocation::from_text(line.substr(7))) revocations_.push_back(std::move(*revocation));
      }
    }
  }
  /// True once the launcher said "quit" or closed our stdin (never when stdin is a terminal).
  bool quit() const { return quit_; }
  /// The revocations read since the last call.
  std::vector<shoal::Revocation> take_revocations() { return std::exchange(revocations_, {}); }

 private:
  shoal::samples::ParentInput input_;
  bool quit_ = false;
  std::string pending_;
  std::vector<shoal::Revocation> revocations_;
};

// After a kick: the player's game tries to come back with the same invitation, as a banned
// cheater would, every half second until the launcher says quit; each try is reported.
int come_back(const Options& options, SampleWriter& out, LauncherCommands& launcher, const shoal::TransportConfig& transport) {
  constexpr auto kBetweenTries = std::chrono::milliseconds(500);
  Options joiner = options;
  joiner.role = PeerRole::join;
  while (!launcher.quit()) {
    Arena arena = arena_for(options.peers, options.objects);
    arena.projectile_slots = projectile_slots(options.peers, options.projectiles);
    const std::unique_ptr<shoal::samples::EngineWorld> world = build_arena(options.physics, arena);
    shoal::PeerConfig config;
    config.session = options.session;
    if (options.projectiles > 0) config.spawning = projectile_spawning(options.projectiles);
    shoal::Peer peer(config, world->simulation(), make_transport(joiner, transport));
    enter_match(joiner, peer);
    std::optional<shoal::Event> outcome;
    while (!outcome && !launcher.quit()) {
      peer.update();
      for (shoal::Event event; peer.poll_event(event);) {
        if (event.kind == shoal::EventKind::join_failed || event.kind == shoal::EventKind::joined_match) outcome = event;
      }
      launcher.read([](shoal::PeerId) {});
      peer.wait(kWaitMs);
    }
    if (!outcome) break;
    const bool refused = outcome->kind == shoal::EventKind::join_failed;
    out.comeback(refused, refused ? outcome->reason : "in the match again");
    const auto next_try = Clock::now() + kBetweenTries;
    while (Clock::now() < next_try && !launcher.quit()) {
      launcher.read([](shoal::PeerId) {});
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
  return 0;
}

int play(const Options& options, SampleWriter& out) {
  Arena arena = arena_for(options.peers, options.objects);
  arena.projectile_slots = projectile_slots(options.peers, options.projectiles);
  const std::unique_ptr<shoal::samples::EngineWorld> world = build_arena(options.physics, arena);
  shoal::Simulation& physics = world->simulation();
  const std::vector<shoal::ObjectId> bodies = all_bodies(arena);

  shoal::PeerConfig config;
  config.session = options.session;
  if (options.projectiles > 0) config.spawning = projectile_spawning(options.projectiles);
  if (const int grace = rejoin_grace_ms(options); grace >= 0) config.rejoin_grace_ms = grace;
  const Timeline timeline = timeline_for(options, config.tick_hz);
  shoal::TransportConfig transport;
  // Each peer impairs what it sends, so every direction of every link gets the flags' values.
  transport.conditioner.outbound = link_conditions(options);
  transport.conditioner.seed = options.seed * 1000 + static_cast<std::uint64_t>(options.index) + 1;
  if (const int timeout = peer_timeout_ms(options); timeout > 0) transport.timeout_ms = static_cast<std::uint32_t>(timeout);
  transport.security = security_for(options);
  shoal::Peer peer(config, physics, make_transport(options, transport));
  if (!options.record_dir.empty()) {
    const std::string described = describe(arena, options.physics);
    peer.record(fmt::format("{}/peer-{}.shoalrec", options.record_dir, options.index),
                {reinterpret_cast<const std::uint8_t*>(described.data()), described.size()});
  }
  std::optional<shoal::LanAnnouncer> announcer = enter_match(options, peer);

  std::optional<Bot> bot;
  std::optional<Gun> gun;
  shoal::Input input;  // the bot's, this frame: the gun fires along its push
  shoal::ObjectId ball = 0;
  LauncherCommands launcher;
  ReownWatch reown;
  auto on_killed = [&](shoal::PeerId dead) { reown.killed(peer, bodies, dead); };
  auto on_reowned = [&](shoal::PeerId dead, std::int64_t at_us) { out.reowned(dead, at_us); };
  bool everyone_here = false;
  PeerSample sample;
  shoal::PeerStats previous_stats;  // at the last sample: its histograms start the next one's second
  sample.states.reserve(bodies.size());
  shoal::Frame next_sample = timeline.sample_interval;
  auto next_phase = Clock::now();
  // A match the host slows down (PeerStats::pace) takes longer to reach its last frame.
  const auto launched = Clock::now();
  float slowest_pace = 1;
  auto deadline = [&] {
    return launched + std::chrono::duration<double>(timeline.seconds_at(timeline.final_frame()) / slowest_pace + 30);
  };
  // The samples the report compares carry the live spawned set (Timeline).
  auto with_spawned = [&](shoal::Frame frame) {
    return options.projectiles > 0 && frame >= timeline.compare && frame <= timeline.last_compare();
  };
  for (;;) {
    if (announcer) announcer->update();
    // Bots start once every peer is here, so nobody joins a world already in motion.
    everyone_here = everyone_here || (bot && peer.peers().size() >= static_cast<std::size_t>(options.peers));
    if (everyone_here) {
      input = peer.frame() < timeline.bots_stop ? bot->input(peer, ball) : shoal::Input{};
      peer.set_input(input);
    }
    peer.update();
    if (gun) gun->update(peer, ball, input.axis, everyone_here);
    launcher.read(on_killed);
    for (const shoal::Revocation& revocation : launcher.take_revocations()) peer.revoke(revocation);
    reown.check(peer, on_reowned);
    if (Clock::now() >= next_phase && peer.join_progress().step != shoal::JoinStep::joined) {
      out.phase(peer.join_progress());
      next_phase = Clock::now() + kPhaseInterval;
    }
    bool kicked = false;
    for (shoal::Event event; peer.poll_event(event);) {
      if (event.kind == shoal::EventKind::join_failed) throw std::runtime_error(describe_join_failure(event));
      if (event.kind == shoal::EventKind::kicked) {
        out.kicked(event.reason);
        kicked = true;
        break;
      }
      if (event.kind != shoal::EventKind::joined_match) continue;
      ball = ball_of(arena, event.peer);
      peer.set_controlled(ball);
      bot.emplace(options.seed * 1000 + event.peer, options.objects, config.tick_hz, *world);
      if (options.projectiles > 0) gun.emplace(options.projectiles, timeline, arena);
      // A peer that joins a match under way (restarted) samples from its first whole second.
      next_sample = std::max(next_sample, (peer.frame() / timeline.sample_interval + 1) * timeline.sample_interval);
      out.joined(event.peer, shoal::to_string(peer.address()));
    }
    if (kicked) return come_back(options, out, launcher, transport);
    if (bot) {  // in the match
      const shoal::Frame now = peer.frame();
      for (; next_sample < timeline.final_frame() && now >= next_sample + timeline.report_delay;
           next_sample += timeline.sample_interval) {
        take_sample(peer, bodies, next_sample, false, with_spawned(next_sample), sample, previous_stats);
        slowest_pace = std::max(std::min(slowest_pace, sample.figures.pace), config.pace.min_rate);
        if (options.misreport_peer == options.index) misreport(sample);
        out.sample(sample);
      }
      if (now >= timeline.final_frame() + timeline.report_delay) {
        take_sample(peer, bodies, timeline.final_frame(), true, options.projectiles > 0, sample, previous_stats);
        if (options.misreport_peer == options.index) misreport(sample);
        out.sample(sample);
        break;
      }
    }
    if (Clock::now() > deadline()) {
      throw std::runtime_error(fmt::format("the match did not reach frame {} in time (at frame {}, {})",
                                           timeline.final_frame(), peer.frame(),
                                           peer.in_match() ? "in the match" : "never joined"));
    }
    peer.wait(kWaitMs);
  }
  // Keep serving the others (their catch-up may still need our frames) until the launcher
  // has every report.
  const auto linger_end = Clock::now() + kLinger;
  while (Clock::now() < linger_end && !launcher.quit()) {
    if (announcer) announcer->update();
    peer.update();
    launcher.read(on_killed);
    for (const shoal::Revocation& revocation : launcher.take_revocations()) peer.revoke(revocation);
    reown.check(peer, on_reowned);
    for (shoal::Event ignored; peer.poll_event(ignored);) {}
    peer.wait(kWaitMs);
  }
  peer.leave();
  return 0;
}

}  // namespace

int run_peer(const Options& options) {
  shoal::samples::use_binary_stdout();  // the launcher may run on another system
  SampleWriter out(stdout);
  try {
    return play(options, out);
  } catch (const std::exception& e) {
    out.error(e.what());
    fmt::print(stderr, "shoal-lan-match --peer: {}\n", e.what());
    return 1;
  }
}

}  // namespace lan_match
