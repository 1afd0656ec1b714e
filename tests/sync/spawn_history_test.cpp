// SPDX-License-Identifier: MIT
// Existence as part of the frame timeline: spawns and removals are replayed by every step,
// straight or re-simulated, so that a spawn heard late is stepped from its own frame (its
// collisions appear in the past), a catch-up across a removal brings the body back for the
// frames it still existed in, and sync-test mode's re-simulation over spawns and removals
// reproduces the straight run bit for bit.
#include <doctest/doctest.h>

#include <optional>
#include <vector>

#include "core/random.hpp"
#include "shoal/forwarding_simulation.hpp"
#include "shoal/reference_physics.hpp"
#include "sync/resimulator.hpp"
#include "sync/state_compare.hpp"
#include "sync/world_changes.hpp"

using namespace shoal;

namespace {

constexpr int kDepth = 32;
constexpr std::uint16_t kProjectile = 3;
constexpr BodyIndex kTarget = 0;     // a ball at rest at the origin
constexpr BodyIndex kFirstSlot = 5;  // after the target and four resting crates

// Hides the engine's changed-body list when asked, as an engine that cannot tell would: the
// resimulator then reads every body, the other way of recording a step.
class Engine final : public ForwardingSimulation {
 public:
  Engine(Simulation& inner, bool list_changed) : ForwardingSimulation(inner), list_changed_(list_changed) {}
  std::optional<std::span<const BodyIndex>> changed_bodies() const override {
    return list_changed_ ? inner().changed_bodies() : std::nullopt;
  }

 private:
  bool list_changed_;
};

ObjectState at(Vec3 position, Vec3 velocity = {}, bool at_rest = false) {
  ObjectState s;
  s.position = position;
  s.linear_velocity = velocity;
  s.at_rest = at_rest;
  return s;
}

void build_world(ReferencePhysics& physics) {
  physics.add_sphere(1, 0.5f, 1.0f, at({0, 0.5f, 0}, {}, true));
  for (int i = 0; i < 4; ++i) {
    physics.add_box(10 + static_cast<ObjectId>(i), {0.4f, 0.4f, 0.4f}, 1.0f,
                    at({-6.0f + 4.0f * static_cast<float>(i), 0.4f, 5}, {}, true));
  }
  physics.set_spawn_sphere(kProjectile, 0.25f, 0.5f);
  physics.add_spawn_slots(8);
}

struct Rig {
  explicit Rig(bool list_changed = true)
      : engine((build_world(physics), physics), list_changed),
        history(engine.body_count(), kDepth),
        owner_frames(engine.body_count(), kDepth + kDepth / 4 + 1),
        inputs(kDepth),
        changes(256),
        resimulator(engine, history, owner_frames, inputs) {
    resimulator.set_world_changes(&changes);
    resimulator.start(0);
  }
  void step_to(Frame last) {
    while (history.newest() < last) resimulator.step_forward({});
  }
  ReferencePhysics physics{ReferencePhysicsConfig{}};
  Engine engine;
  world::FrameHistory history;
  sync::OwnerFrames owner_frames;
  sync::InputLog inputs;
  sync::WorldChanges changes;
  sync::Resimulator resimulator;
};

sync::WorldChange spawn(Frame frame, BodyIndex slot, const ObjectState& state) {
  return {frame, sync::WorldChange::Kind::spawn, slot, kProjectile, state, {}};
}
sync::WorldChange removal(Frame frame, BodyIndex slot) {
  return {frame, sync::WorldChange::Kind::remove, slot, 0, {}, {}};
}

// Every held frame of both histories, states and slot rows, bit for bit.
bool same_history(const Rig& a, const Rig& b) {
  if (a.history.oldest() != b.history.oldest() || a.history.newest() != b.history.newest()) return false;
  for (Frame f = a.history.oldest(); f <= a.history.newest(); ++f) {
    for (BodyIndex body = 0; body < a.history.body_count(); ++body) {
      if (!sync::bitwise_equal(a.history.state(f, body), b.history.state(f, body))) return false;
    }
    if (!std::ranges::equal(a.history.slot_exists(f), b.history.slot_exists(f))) return false;
    if (!std::ranges::equal(a.history.slot_types(f), b.history.slot_types(f))) return false;
  }
  return true;
}

}  // namespace

TEST_CASE("a spawn heard late is re-simulated from its frame: the collision it caused appears") {
  for (bool list_changed : {true, false}) {
    CAPTURE(list_changed);
    // A projectile spawned at frame 10 two metres left of the resting target, flying at it.
    const sync::WorldChange shot = spawn(10, kFirstSlot + 2, at({-2, 0.5f, 0}, {12, 0, 0}));
    Rig straight(list_changed);
    REQUIRE(straight.changes.add(shot));
    straight.step_to(40);
    Rig late(list_changed);
    late.step_to(40);
    // Before hearing of it, the late peer's target never moved.
    CHECK(sync::bitwise_equal(late.history.state(40, kTarget), late.history.state(0, kTarget)));
    REQUIRE(late.changes.add(shot));
    CHECK(late.resimulator.resimulate(shot.frame - 1, {}) == 40 - 9);
    // The target was hit in the past, and every frame is what hearing on time gave.
    CHECK(late.history.state(40, kTarget).position.x > 0.05f);
    CHECK(late.history.slot_exists(9)[2] == 0);
    CHECK(late.history.slot_exists(10)[2] == 1);
    CHECK(late.history.slot_types(10)[2] == kProjectile);
    CHECK(same_history(straight, late));
    CHECK(late.physics.slot_filled(kFirstSlot + 2));
    // Both go on alike.
    straight.step_to(60);
    late.step_to(60);
    CHECK(same_history(straight, late));
  }
}

TEST_CASE("a catch-up across a removal brings the body back for the frames it still existed in") {
  Rig rig;
  REQUIRE(rig.changes.add(spawn(5, kFirstSlot, at({3, 2, 0}, {-1, 0, 0}))));
  REQUIRE(rig.changes.add(removal(20, kFirstSlot)));
  rig.step_to(30);
  CHECK_FALSE(rig.physics.slot_filled(kFirstSlot));
  CHECK(rig.history.slot_exists(19)[0] == 1);
  CHECK(rig.history.slot_exists(20)[0] == 0);
  CHECK(sync::bitwise_equal(rig.history.state(20, kFirstSlot), empty_slot_state()));
  const std::vector<ObjectState> before(rig.history.newest_states().begin(), rig.history.newest_states().end());
  // From frame 15 the engine must hold the projectile again, then lose it at 20.
  rig.resimulator.resimulate(15, {}, sync::Injection::none);
  CHECK_FALSE(rig.physics.slot_filled(kFirstSlot));
  for (BodyIndex b = 0; b < rig.history.body_count(); ++b) {
    CHECK(sync::bitwise_equal(before[b], rig.history.newest_states()[b]));
  }
  // Restoring to a frame in its life puts it back, with its state of that frame.
  rig.resimulator.resimulate(rig.history.newest(), {});  // a restore of the newest: still gone
  CHECK_FALSE(rig.physics.slot_filled(kFirstSlot));
}

TEST_CASE("sync-test mode: re-simulating 8 frames over spawns and removals gives the same bits") {
  for (bool list_changed : {true, false}) {
    CAPTURE(list_changed);
    core::Random random(34);
    Rig checked(list_changed);
    Rig plain(list_changed);
    std::vector<Frame> removal_due(8, kNoFrame);  // per slot: when its projectile goes
    int spawned = 0, removed = 0, desyncs = 0;
    for (Frame f = 1; f <= 400; ++f) {
      // Bots fire from random spots toward the target; each projectile lives 20-60 frames.
      for (std::size_t k = 0; k < removal_due.size(); ++k) {
        const auto slot = static_cast<BodyIndex>(kFirstSlot + k);
        if (removal_due[k] == f) {
          REQUIRE(checked.changes.add(removal(f, slot)));
          REQUIRE(plain.changes.add(removal(f, slot)));
          removal_due[k] = kNoFrame;
          ++removed;
        } else if (removal_due[k] == kNoFrame && random.next_u64() % 10 == 0) {
          const float x = -4.0f + static_cast<float>(random.next_u64() % 80) * 0.1f;
          const ObjectState s = at({x, 1.0f, -3}, {-x, 0, 6});
          REQUIRE(checked.changes.add(spawn(f, slot, s)));
          REQUIRE(plain.changes.add(spawn(f, slot, s)));
          removal_due[k] = f + 20 + static_cast<Frame>(random.next_u64() % 40);
          ++spawned;
        }
      }
      checked.resimulator.step_forward({});
      plain.resimulator.step_forward({});
      // What Peer::run_sync_test does with K = 8: step the last 8 frames again, compare.
      const std::vector<ObjectState> straight(checked.history.newest_states().begin(),
                                              checked.history.newest_states().end());
      checked.resimulator.resimulate(f - 8 >= checked.history.oldest() ? f - 8 : checked.history.oldest(), {},
                                     sync::Injection::none);
      for (BodyIndex b = 0; b < checked.history.body_count(); ++b) {
        if (!sync::bitwise_equal(straight[b], checked.history.newest_states()[b])) ++desyncs;
      }
      checked.changes.forget_before(f - kDepth);
      plain.changes.forget_before(f - kDepth);
    }
    CHECK(desyncs == 0);
    CHECK(spawned > 30);
    CHECK(removed > 20);
    CHECK(same_history(checked, plain));  // re-simulating never changed what the straight run made
  }
}

TEST_CASE("a frame's changes apply in one order whatever order they arrived in") {
  const sync::WorldChange a = spawn(7, kFirstSlot + 3, at({1, 1, 1}));
  const sync::WorldChange b = spawn(7, kFirstSlot + 1, at({2, 1, 1}));
  const sync::WorldChange c = removal(7, kFirstSlot + 5);
  const sync::WorldChange d = spawn(6, kFirstSlot + 6, at({3, 1, 1}));
  sync::WorldChanges one(8), other(8);
  for (const auto& change : {a, b, c, d}) REQUIRE(one.add(change));
  for (const auto& change : {d, c, b, a}) REQUIRE(other.add(change));
  REQUIRE(one.at(7).size() == 3);
  for (std::size_t i = 0; i < 3; ++i) {
    CHECK(one.at(7)[i].body == other.at(7)[i].body);
    CHECK(one.at(7)[i].kind == other.at(7)[i].kind);
  }
  CHECK(one.at(7)[0].kind == sync::WorldChange::Kind::remove);  // a slot freed and filled in one frame works
  CHECK(one.at(7)[1].body == kFirstSlot + 1);
  CHECK_FALSE(one.add(a));  // the same slot, kind and frame again
  CHECK_FALSE(one.add(removal(-1, kFirstSlot)));
  sync::WorldChanges full(1);
  REQUIRE(full.add(a));
  CHECK_FALSE(full.add(b));
  one.forget_before(7);
  CHECK(one.at(6).empty());
  CHECK(one.size() == 3);
}

TEST_CASE("a slot freed and filled again in one frame holds the new body after a catch-up") {
  Rig straight, late;
  for (Rig* rig : {&straight, &late}) {
    REQUIRE(rig->changes.add(spawn(3, kFirstSlot, at({2, 1, 2}))));
    REQUIRE(rig->changes.add(removal(12, kFirstSlot)));
  }
  const sync::WorldChange refill = spawn(12, kFirstSlot, at({-2, 3, 0}, {0, 0, 2}));
  REQUIRE(straight.changes.add(refill));
  straight.step_to(30);
  late.step_to(30);
  CHECK_FALSE(late.physics.slot_filled(kFirstSlot));
  REQUIRE(late.changes.add(refill));
  late.resimulator.resimulate(11, {});
  CHECK(late.physics.slot_filled(kFirstSlot));
  CHECK(same_history(straight, late));
}
