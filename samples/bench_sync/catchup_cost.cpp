// SPDX-License-Identifier: MIT
// The Resimulator on its own: the peer's own frames come back as "owner frames" for the
// bodies it does not own, as the network would deliver them, and its owned quarter replays.
#include "catchup_cost.hpp"

#include <chrono>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "bench_world.hpp"
#include "medians.hpp"
#include "sync/resimulator.hpp"
#include "world/frame_history.hpp"

namespace shoal::bench {
namespace {

using Clock = std::chrono::steady_clock;

std::int64_t ns_since(Clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count();
}

}  // namespace

CatchupResult measure_catchup(samples::Physics engine, int objects, int reps) {
  const WorldSpec spec{objects, kCatchupPeers, engine};
  const std::unique_ptr<samples::EngineWorld> world = build_arena(spec);
  TimedSimulation timed(world->simulation());
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
      in.axis = world->to_world({std::cos(angle), 0, std::sin(angle)});
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
  r.physics = engine;
  r.objects = objects;
  r.reps = reps;
  r.straight_us = median(straight_us);
  r.catchup_us = median(catchup_us);
  r.ratio = median(ratios);
  r.ratio_to_physics = median(physics_ratios);
  std::tie(r.ratio_low, r.ratio_high) = quartiles(ratios);
  return r;
}

}  // namespace shoal::bench
