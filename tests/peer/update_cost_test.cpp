// SPDX-License-Identifier: MIT
// PeerStats::cost: update() split into phases. The phases must add up to the whole update, and
// the physics must land in the physics fields, not in Shoal's own: each peer's engine is made
// to take a known minimum time per step, which the test then finds there.
#include <doctest/doctest.h>

#include <chrono>

#include "match_harness.hpp"
#include "shoal/forwarding_simulation.hpp"

namespace shoal::test {
namespace {

constexpr std::int64_t kStepNs = 300'000;

// An engine whose every step takes at least kStepNs (spinning on the clock, bounded by it).
class SlowSimulation final : public ForwardingSimulation {
 public:
  using ForwardingSimulation::ForwardingSimulation;
  void step(Frame frame, std::span<const BodyInput> inputs) override {
    using Clock = std::chrono::steady_clock;
    const Clock::time_point until = Clock::now() + std::chrono::nanoseconds(kStepNs);
    inner().step(frame, inputs);
    while (Clock::now() < until) {
    }
  }
};

SimulationWrapper slow_physics() {
  return [](ReferencePhysics& physics) { return std::make_unique<SlowSimulation>(physics); };
}

UpdateCost minus(const UpdateCost& a, const UpdateCost& b) {
  UpdateCost d;
  d.updates = a.updates - b.updates;
  d.receive_ns = a.receive_ns - b.receive_ns;
  d.correct_ns = a.correct_ns - b.correct_ns;
  d.step_ns = a.step_ns - b.step_ns;
  d.authority_ns = a.authority_ns - b.authority_ns;
  d.send_ns = a.send_ns - b.send_ns;
  d.present_ns = a.present_ns - b.present_ns;
  d.session_ns = a.session_ns - b.session_ns;
  d.physics_ns = a.physics_ns - b.physics_ns;
  d.resimulated_physics_ns = a.resimulated_physics_ns - b.resimulated_physics_ns;
  d.total_ns = a.total_ns - b.total_ns;
  return d;
}

}  // namespace

TEST_CASE("update cost: the phases add up to update(), and the physics is kept apart from Shoal's work") {
  PeerConfig config;
  config.measure_update_cost = true;
  const ArenaSpec spec{.balls = 2, .objects = 9};
  FakeMatch match(2, spec, config, 41, -1, {}, slow_physics());
  LinkConditions link;
  link.latency_ms = 30;  // owner frames arrive late: overrides and catch-ups happen
  match.network().set_conditions(link);
  REQUIRE(match.connect());

  std::vector<PeerStats> before;
  for (const Player& p : match.players) before.push_back(p.peer->stats());
  match.enable_bots(5);
  constexpr int kFrames = 120;
  match.run(kFrames / 60.0);

  for (std::size_t i = 0; i < match.players.size(); ++i) {
    CAPTURE(i);
    const PeerStats after = match.players[i].peer->stats();
    const UpdateCost d = minus(after.cost, before[i].cost);
    const auto stepped = static_cast<std::int64_t>(after.frame - before[i].frame);
    const auto resimulated = static_cast<std::int64_t>(after.catchup_frames - before[i].catchup_frames);
    CHECK(d.updates == kFrames);
    // Exactly: the laps follow one another through the whole update.
    CHECK(d.total_ns == d.sdk_ns() + d.physics_ns + d.resimulated_physics_ns);
    // Every step of the engine took kStepNs at least, and all of it is in the physics fields.
    REQUIRE(stepped >= kFrames - 2);
    CHECK(d.physics_ns >= stepped * kStepNs);
    REQUIRE(resimulated > 0);
    CHECK(d.resimulated_physics_ns >= resimulated * kStepNs);
    // Shoal's own phases hold none of it: recording a frame of 11 bodies and catching up are
    // far quicker than the engine's steps they follow.
    CHECK(d.step_ns < d.physics_ns / 2);
    CHECK(d.correct_ns < d.resimulated_physics_ns / 2);
    // Every phase did some work in a match with moving objects and overrides.
    CHECK(d.receive_ns > 0);
    CHECK(d.correct_ns > 0);
    CHECK(d.step_ns > 0);
    CHECK(d.authority_ns > 0);
    CHECK(d.send_ns > 0);
    CHECK(d.present_ns > 0);
    CHECK(d.session_ns > 0);
  }
}

TEST_CASE("update cost: not measured unless asked: every figure stays zero") {
  const ArenaSpec spec{.balls = 2, .objects = 4};
  FakeMatch match(2, spec, PeerConfig{}, 42);
  REQUIRE(match.connect());
  match.enable_bots(6);
  match.run(1);
  for (const Player& p : match.players) {
    const UpdateCost cost = p.peer->stats().cost;
    CHECK(cost.updates == 0);
    CHECK(cost.total_ns == 0);
    CHECK(cost.sdk_ns() == 0);
    CHECK(cost.physics_ns == 0);
    CHECK(cost.resimulated_physics_ns == 0);
  }
}

}  // namespace shoal::test
