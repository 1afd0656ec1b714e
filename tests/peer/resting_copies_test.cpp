// SPDX-License-Identifier: MIT
// A receiver's copy of someone else's object that its own simulation moved (and the owner's
// did not) is found by the receiver and repaired from the owner, resting or still moving,
// without waiting for the owner's periodic refresh of settled objects.
#include <doctest/doctest.h>

#include <memory>
#include <vector>

#include "match_harness.hpp"
#include "shoal/forwarding_simulation.hpp"
#include "sync/state_compare.hpp"

namespace shoal::test {
namespace {

// Once armed, the next step moves one body 30 cm aside and reports it changed: this peer's
// physics going its own way, unseen by the body's owner. With a velocity, the body is left
// moving (not at rest) at that velocity.
struct Drift {
  bool armed = false;
  BodyIndex body = 0;
  Vec3 velocity{};
};

class DriftingSimulation final : public ForwardingSimulation {
 public:
  DriftingSimulation(Simulation& inner, std::shared_ptr<Drift> drift)
      : ForwardingSimulation(inner), drift_(std::move(drift)) {}
  void step(Frame frame, std::span<const BodyInput> inputs) override {
    inner().step(frame, inputs);
    const auto changed = inner().changed_bodies();
    reports_all_ = !changed;
    changed_.clear();
    if (changed) changed_.assign(changed->begin(), changed->end());
    if (drift_ && drift_->armed) {
      drift_->armed = false;
      ObjectState s = inner().read(drift_->body);
      s.position.x += 0.3f;
      s.linear_velocity = drift_->velocity;
      s.at_rest = length_squared(drift_->velocity) == 0;
      inner().write(drift_->body, s);
      changed_.push_back(drift_->body);
    }
  }
  std::optional<std::span<const BodyIndex>> changed_bodies() const override {
    if (reports_all_) return std::nullopt;
    return std::span<const BodyIndex>(changed_);
  }

 private:
  std::shared_ptr<Drift> drift_;
  std::vector<BodyIndex> changed_;
  bool reports_all_ = true;
};

constexpr ArenaSpec kSpec{.balls = 2, .objects = 9};
constexpr ObjectId kMiddle = kFirstObject + 4;  // at the arena's center: far from both balls' cores
constexpr auto kMiddleBody = static_cast<BodyIndex>(kSpec.balls + 4);  // balls are added first

// Two peers a second into their match, the middle object owned by peer 0 and alike on both;
// peer 1's physics drifts it once `drift` is armed. No periodic refresh of settled objects.
std::unique_ptr<FakeMatch> drift_match(PeerConfig config, std::uint64_t seed, std::shared_ptr<Drift> drift) {
  config.snapshots.settled_refresh_s = 1000;
  drift->body = kMiddleBody;
  auto m = std::make_unique<FakeMatch>(2, kSpec, config, seed, -1, TransportWrapper{},
                                       [drift, made = 0](ReferencePhysics& physics) mutable {
                                         return std::make_unique<DriftingSimulation>(physics, made++ == 1 ? drift : nullptr);
                                       });
  m->network().set_conditions(link(30, 0.05f, 5));
  REQUIRE(m->connect(5));
  m->run(1);
  REQUIRE(m->players[0].peer->owner(kMiddle) == m->players[0].peer->id());
  REQUIRE(sync::bitwise_equal(m->players[0].peer->state(kMiddle), m->players[1].peer->state(kMiddle)));
  return m;
}

// Arms the drift and runs until the step after has made it.
void drift_once(FakeMatch& m, Drift& drift) {
  drift.armed = true;
  m.run(0.1);
  REQUIRE_FALSE(drift.armed);
}

}  // namespace

TEST_CASE("a resting copy that this peer's physics moved is repaired from its owner") {
  auto drift = std::make_shared<Drift>();
  const std::unique_ptr<FakeMatch> m = drift_match(PeerConfig{}, 83, drift);
  Peer& owner = *m->players[0].peer;
  Peer& drifting = *m->players[1].peer;

  drift_once(*m, *drift);
  REQUIRE(drifting.state(kMiddle).at_rest);
  // Its physics moved it; the owner's copy never moved, so the owner has nothing new to send.
  CHECK(drifting.state(kMiddle).position.x > owner.state(kMiddle).position.x + 0.25f);

  m->run(2);
  CHECK(drifting.stats().rest_repairs_requested >= 1);
  CHECK(sync::bitwise_equal(owner.state(kMiddle), drifting.state(kMiddle)));
  // Nothing else was asked for: every other copy agreed with its owner.
  CHECK(drifting.stats().rest_repairs_requested <= 2);
  CHECK(divergence(m->players, all_ids(kSpec)).bitwise);
}

// The same, but the copy is left moving, and this peer simulates it: it slides for a while
// before it comes to rest. Its owner, whose copy never moved, said nothing since: the copy is
// repaired while it still moves, not only once it rests (a world compared then would differ).
TEST_CASE("a copy this peer's physics set moving, whose owner says nothing of it moving, is repaired before it rests") {
  auto drift = std::make_shared<Drift>();
  drift->velocity = {0, 0, 0.2f};  // slowly, for seconds, touching nothing (its damping stops it)
  const std::unique_ptr<FakeMatch> m = drift_match(PeerConfig{}, 97, drift);
  Peer& owner = *m->players[0].peer;
  Peer& drifting = *m->players[1].peer;

  drift_once(*m, *drift);
  REQUIRE_FALSE(drifting.state(kMiddle).at_rest);
  REQUIRE(owner.state(kMiddle).at_rest);
  const std::uint64_t repairs_before = drifting.stats().rest_repairs_requested;
  bool rested_apart = false;  // came to rest here somewhere else than its owner's copy
  for (int i = 0; i < 60 && !sync::bitwise_equal(owner.state(kMiddle), drifting.state(kMiddle)); ++i) {
    m->run(1.0 / 60);
    rested_apart = rested_apart || (drifting.state(kMiddle).at_rest &&
                                    !sync::bitwise_equal(owner.state(kMiddle), drifting.state(kMiddle)));
  }
  CHECK(sync::bitwise_equal(owner.state(kMiddle), drifting.state(kMiddle)));
  CHECK_FALSE(rested_apart);
  CHECK(drifting.stats().rest_repairs_requested > repairs_before);
  m->run(1);
  CHECK(divergence(m->players, all_ids(kSpec)).bitwise);
}

// The same, but the copy is left moving where this peer does not simulate it: frozen there, it
// keeps still without ever coming to rest, while its owner says it rests.
TEST_CASE("a copy frozen while moving, whose owner says it rests, is repaired from its owner") {
  PeerConfig config;
  // Simulated regions of a few metres around the balls (7.2 m out): the middle is outside both.
  config.authority.simulated_radius = 1;
  auto drift = std::make_shared<Drift>();
  drift->velocity = {1, 0, 0};
  const std::unique_ptr<FakeMatch> m = drift_match(config, 89, drift);
  Peer& owner = *m->players[0].peer;
  Peer& drifting = *m->players[1].peer;

  drift_once(*m, *drift);
  // Frozen here: a step later it still moves, and has not moved on.
  REQUIRE_FALSE(drifting.state(kMiddle).at_rest);
  CHECK(drifting.state(kMiddle).position.x == doctest::Approx(owner.state(kMiddle).position.x + 0.3f).epsilon(0.01));
  CHECK(drifting.stats().frozen_objects > 0);
  REQUIRE(owner.state(kMiddle).at_rest);
  const std::uint64_t repairs_before = drifting.stats().rest_repairs_requested;
  m->run(2);
  CHECK(drifting.stats().rest_repairs_requested > repairs_before);
  CHECK(sync::bitwise_equal(owner.state(kMiddle), drifting.state(kMiddle)));
  CHECK(divergence(m->players, all_ids(kSpec)).bitwise);
}

}  // namespace shoal::test
