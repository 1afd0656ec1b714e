// SPDX-License-Identifier: MIT
#include "two_peer_match.hpp"

#include <algorithm>
#include <cmath>
#include <memory>

#include "shoal/memory_network.hpp"
#include "shoal/reference_physics.hpp"

namespace figures {
namespace {

constexpr std::int64_t kRenderUs = 16'667;  // a 60 Hz display
constexpr shoal::ObjectId kHostBall = 1, kJoinerBall = 2;
constexpr int kCrates = 12;

std::unique_ptr<shoal::ReferencePhysics> make_world() {
  auto world = std::make_unique<shoal::ReferencePhysics>(shoal::ReferencePhysicsConfig{});
  shoal::ObjectState s;
  s.position = {-6, 0.5f, 0};
  world->add_sphere(kHostBall, 0.5f, 2.0f, s);
  s.position = {0, 0.5f, 3};
  world->add_sphere(kJoinerBall, 0.5f, 2.0f, s);
  for (int i = 0; i < kCrates; ++i) {  // two rows of crates in the host ball's way
    s.position = {-3.0f + 1.1f * static_cast<float>(i % 6), 0.4f, i < 6 ? -0.5f : 0.6f};
    world->add_box(100 + static_cast<shoal::ObjectId>(i), {0.4f, 0.4f, 0.4f}, 1.0f, s);
  }
  return world;
}

}  // namespace

MatchResult play_two_peer_match(const MatchSettings& settings) {
  shoal::MemoryNetwork net(settings.seed);
  shoal::LinkConditions link;
  link.latency_ms = settings.latency_ms;
  link.jitter_ms = settings.latency_ms / 5;
  link.loss = settings.loss;
  net.set_conditions(link);
  shoal::PeerConfig config;
  config.snapshots.bytes_per_second = settings.bytes_per_second;
  config.measure_update_cost = true;
  auto host_world = make_world(), joiner_world = make_world();
  shoal::Peer host(config, *host_world, net.create_endpoint(1));
  shoal::Peer joiner(config, *joiner_world, net.create_endpoint(2));
  host.set_controlled(kHostBall);
  joiner.set_controlled(kJoinerBall);
  host.host();
  joiner.join(host.address());

  MatchResult result;
  std::int64_t now = 1'000'000;
  const auto step = [&] {
    now += kRenderUs;
    net.set_time_us(now);
    host.update_at(now);
    joiner.update_at(now);
  };
  for (int i = 0; i < 600 && !(host.in_match() && joiner.in_match() && host.peers().size() == 2); ++i) step();
  const std::int64_t start = now;
  const auto frames = static_cast<int>(settings.seconds * 1e6 / kRenderUs);
  double worst_sum = 0;
  std::vector<shoal::ObjectId> ids;
  for (shoal::BodyIndex i = 0; i < joiner_world->body_count(); ++i) ids.push_back(joiner_world->body_id(i));
  std::vector<std::vector<TraceRow>> traces(ids.size());
  std::vector<std::vector<OverrideSeen>> overrides(ids.size());
  for (int i = 0; i < frames; ++i) {
    const double t = static_cast<double>(now - start) * 1e-6;
    // The host weaves along +x through the crates for 4 s, then lets go; the joiner circles
    // for the whole run. Each change of the host's input is a misprediction on the joiner.
    const bool pushing = t < 4;
    host.set_input({{pushing ? 1.0f : 0.0f, 0, pushing ? static_cast<float>(std::sin(t * 5)) : 0.0f}, 0});
    joiner.set_input({{static_cast<float>(std::cos(t * 1.5)), 0, static_cast<float>(std::sin(t * 1.5))}, 0});
    step();
    for (shoal::Event e; joiner.poll_event(e);) {
      if (e.kind != shoal::EventKind::override_applied) continue;
      const auto found = std::find(ids.begin(), ids.end(), e.object);
      if (found != ids.end()) overrides[static_cast<std::size_t>(found - ids.begin())].push_back({e.frame, joiner.frame(), e.depth});
    }
    for (shoal::Event e; host.poll_event(e);) {}
    // Older than a round trip and its jitter: the owner's frames of it have arrived.
    constexpr shoal::Frame kConfirmedAge = 12;
    const shoal::Frame confirmed = std::min(host.frame(), joiner.frame()) - kConfirmedAge;
    double worst = 0;  // over every crate, at the same frame
    for (std::size_t c = 0; c < ids.size(); ++c) {
      const shoal::ObjectId id = ids[c];
      TraceRow row;
      row.t_s = t;
      row.owner_z = host.state(id).position.z;
      const auto before = host.state_at(id, host.frame() - 1);
      row.owner_before_z = before ? before->position.z : row.owner_z;
      row.raw_z = joiner.state(id).position.z;
      row.drawn_z = joiner.visual(id).position.z;
      const auto a = host.state_at(id, confirmed), b = joiner.state_at(id, confirmed);
      if (a && b) row.difference_m = shoal::distance(a->position, b->position);
      if (id >= 100) worst = std::max(worst, std::max(row.difference_m, 0.0));
      traces[c].push_back(row);
    }
    worst_sum += worst;
  }
  // The body the joiner corrected most is the one the figures follow.
  std::size_t traced = 0;
  for (std::size_t c = 1; c < overrides.size(); ++c) traced = overrides[c].size() > overrides[traced].size() ? c : traced;
  result.traced = ids[traced];
  result.trace = std::move(traces[traced]);
  result.overrides = std::move(overrides[traced]);
  result.seconds = settings.seconds;
  result.mean_worst_difference_m = frames > 0 ? worst_sum / frames : 0;
  for (shoal::BodyIndex i = 0; i < joiner_world->body_count(); ++i) {
    const shoal::ObjectId id = joiner_world->body_id(i);
    result.bodies.push_back({id, joiner.state(id).position, joiner.owner(id), id < 100});
  }
  result.host = host.stats();
  result.joiner = joiner.stats();
  return result;
}

}  // namespace figures
