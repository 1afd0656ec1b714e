// A receiver's resting copy of someone else's object that its own simulation moved (and the
// owner's did not) is found by the receiver and repaired from the owner, without waiting for
// the owner's periodic refresh of settled objects.
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

}  // namespace

TEST_CASE("a resting copy that this peer's physics moved is repaired from its owner") {
  const ArenaSpec spec{.balls = 2, .objects = 9};
  const ObjectId middle = kFirstObject + 4;  // at the arena's center: far from both balls' cores
  const BodyIndex middle_body = static_cast<BodyIndex>(spec.balls + 4);  // balls are added first
  PeerConfig config;
  config.snapshots.settled_refresh_s = 1000;  // no periodic refresh within the test
  auto drift = std::make_shared<Drift>();
  drift->body = middle_body;
  int made = 0;
  FakeMatch m(2, spec, config, 83, -1, {}, [&](ReferencePhysics& physics) {
    return std::make_unique<DriftingSimulation>(physics, made++ == 1 ? drift : nullptr);
  });
  m.network().set_conditions(link(30, 0.05f, 5));
  REQUIRE(m.connect(5));
  m.run(1);
  Peer& owner = *m.players[0].peer;
  Peer& drifting = *m.players[1].peer;
  REQUIRE(owner.owner(middle) == owner.id());
  REQUIRE(sync::bitwise_equal(owner.state(middle), drifting.state(middle)));

  drift->armed = true;
  m.run(0.1);
  REQUIRE_FALSE(drift->armed);
  REQUIRE(drifting.state(middle).at_rest);
  // Its physics moved it; the owner's copy never moved, so the owner has nothing new to send.
  CHECK(drifting.state(middle).position.x > owner.state(middle).position.x + 0.25f);

  m.run(2);
  CHECK(drifting.stats().rest_repairs_requested >= 1);
  CHECK(sync::bitwise_equal(owner.state(middle), drifting.state(middle)));
  // Nothing else was asked for: every other copy agreed with its owner.
  CHECK(drifting.stats().rest_repairs_requested <= 2);
  CHECK(divergence(m.players, all_ids(spec)).bitwise);
}

// The same, but the copy is left moving where this peer does not simulate it: frozen there, it
// keeps still without ever coming to rest, while its owner says it rests.
TEST_CASE("a copy frozen while moving, whose owner says it rests, is repaired from its owner") {
  const ArenaSpec spec{.balls = 2, .objects = 9};
  const ObjectId middle = kFirstObject + 4;
  const BodyIndex middle_body = static_cast<BodyIndex>(spec.balls + 4);
  PeerConfig config;
  config.snapshots.settled_refresh_s = 1000;
  // Simulated regions of a few metres around the balls (7.2 m out): the middle is outside both.
  config.authority.simulated_radius = 1;
  auto drift = std::make_shared<Drift>();
  drift->body = middle_body;
  drift->velocity = {1, 0, 0};
  int made = 0;
  FakeMatch m(2, spec, config, 89, -1, {}, [&](ReferencePhysics& physics) {
    return std::make_unique<DriftingSimulation>(physics, made++ == 1 ? drift : nullptr);
  });
  m.network().set_conditions(link(30, 0.05f, 5));
  REQUIRE(m.connect(5));
  m.run(1);
  Peer& owner = *m.players[0].peer;
  Peer& drifting = *m.players[1].peer;
  REQUIRE(owner.owner(middle) == owner.id());
  REQUIRE(sync::bitwise_equal(owner.state(middle), drifting.state(middle)));

  drift->armed = true;
  m.run(0.1);
  REQUIRE_FALSE(drift->armed);
  // Frozen here: a step later it still moves, and has not moved on.
  REQUIRE_FALSE(drifting.state(middle).at_rest);
  CHECK(drifting.state(middle).position.x == doctest::Approx(owner.state(middle).position.x + 0.3f).epsilon(0.01));
  CHECK(drifting.stats().frozen_objects > 0);
  REQUIRE(owner.state(middle).at_rest);
  const std::uint64_t repairs_before = drifting.stats().rest_repairs_requested;
  m.run(2);
  CHECK(drifting.stats().rest_repairs_requested > repairs_before);
  CHECK(sync::bitwise_equal(owner.state(middle), drifting.state(middle)));
  CHECK(divergence(m.players, all_ids(spec)).bitwise);
}

}  // namespace shoal::test
