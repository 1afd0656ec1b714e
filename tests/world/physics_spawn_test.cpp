// SPDX-License-Identifier: MIT
// The reference physics' spawn slots: an empty slot is inert (it reads as empty, ignores
// writes and touches nothing), a filled one is an ordinary body of its declared type, and the
// same adds and removes give the same bits, whichever slot a body had before.
#include <doctest/doctest.h>

#include <stdexcept>
#include <vector>

#include "shoal/reference_physics.hpp"
#include "sync/state_compare.hpp"
#include "world/frame_history.hpp"
#include "world/object_table.hpp"

using namespace shoal;

namespace {

constexpr std::uint16_t kProjectile = 3;

ObjectState at(Vec3 position, Vec3 velocity = {}) {
  ObjectState s;
  s.position = position;
  s.linear_velocity = velocity;
  return s;
}

// A ball rolling toward x = 0, where a slot's body would sit; `slots` spawn slots after it.
void build_rolling(ReferencePhysics& physics, std::size_t slots) {
  physics.add_sphere(1, 0.5f, 1.0f, at({-4, 0.5f, 0}, {6, 0, 0}));
  physics.set_spawn_sphere(kProjectile, 0.25f, 0.5f);
  if (slots > 0) physics.add_spawn_slots(slots);
}

// ReferencePhysics neither copies nor moves: each test builds its worlds in place.
struct Rolling {
  explicit Rolling(std::size_t slots) { build_rolling(physics, slots); }
  ReferencePhysics physics{ReferencePhysicsConfig{}};
};

}  // namespace

TEST_CASE("an empty spawn slot reads as empty, ignores writes and touches nothing") {
  Rolling plain_world(0);
  ReferencePhysics& plain = plain_world.physics;
  Rolling slotted_world(2);
  ReferencePhysics& slotted = slotted_world.physics;
  CHECK(slotted.body_count() == 3);
  CHECK(slotted.spawn_slot_count() == 2);
  CHECK_FALSE(slotted.slot_filled(1));
  CHECK(slotted.slot_filled(0));
  slotted.write(1, at({0, 0.5f, 0}));  // where the ball rolls through: ignored
  slotted.set_frozen(2, true);
  CHECK(sync::bitwise_equal(slotted.read(1), empty_slot_state()));
  CHECK(slotted.bounding_radius(1) == 0);
  const BodyInput push{1, Input{{1, 0, 0}, 0}};
  for (Frame f = 1; f <= 90; ++f) {
    plain.step(f, {});
    slotted.step(f, std::span(&push, 1));  // an input for an empty slot does nothing
    REQUIRE(sync::bitwise_equal(plain.read(0), slotted.read(0)));
  }
  CHECK(sync::bitwise_equal(slotted.read(1), empty_slot_state()));
  CHECK(slotted.read(0).position.x > 0.5f);  // the ball did roll through the slot's spot
}

TEST_CASE("a spawned body moves and collides like a fixed one and leaves nothing behind") {
  Rolling physics_world(1);
  ReferencePhysics& physics = physics_world.physics;
  physics.add_body(1, kProjectile, at({4, 0.25f, 0}, {-6, 0, 0}), {});  // head-on into the ball
  CHECK(physics.slot_filled(1));
  CHECK(physics.body_type(1) == kProjectile);
  CHECK(physics.bounding_radius(1) == doctest::Approx(0.25f));
  bool bounced = false;
  for (Frame f = 1; f <= 60 && !bounced; ++f) {
    physics.step(f, {});
    bounced = physics.read(1).linear_velocity.x > 0;  // it came back off the ball
  }
  CHECK(bounced);
  physics.remove_body(1);
  CHECK_FALSE(physics.slot_filled(1));
  CHECK(sync::bitwise_equal(physics.read(1), empty_slot_state()));
  CHECK(physics.body_type(1) == 0);
  physics.remove_body(1);  // removing an empty slot changes nothing
  CHECK_FALSE(physics.slot_filled(1));
}

TEST_CASE("spawning refuses what is not an empty slot of a declared type") {
  Rolling physics_world(1);
  ReferencePhysics& physics = physics_world.physics;
  CHECK_THROWS_AS(physics.add_body(0, kProjectile, at({0, 1, 0}), {}), std::invalid_argument);  // a fixed body
  CHECK_THROWS_AS(physics.add_body(1, 99, at({0, 1, 0}), {}), std::invalid_argument);  // no shape for type 99
  CHECK_THROWS_AS(physics.remove_body(0), std::invalid_argument);
  physics.add_body(1, kProjectile, at({0, 1, 0}), {});
  CHECK_THROWS_AS(physics.add_body(1, kProjectile, at({0, 1, 0}), {}), std::invalid_argument);  // taken
  CHECK_THROWS_AS(physics.add_sphere(9, 1, 1, at({})), std::logic_error);  // a fixed body after the slots
  CHECK_THROWS_AS(physics.add_spawn_slots(1), std::logic_error);
  CHECK_THROWS_AS(physics.set_spawn_sphere(4, 0.5f, 0), std::invalid_argument);  // a spawned body moves
}

TEST_CASE("the same adds and removes give the same bits, whatever a slot held before") {
  // Run A reuses slot 1 after a first occupant; run B fills it fresh at the same frame.
  Rolling a_world(2);
  ReferencePhysics& a = a_world.physics;
  Rolling b_world(2);
  ReferencePhysics& b = b_world.physics;
  a.add_body(1, kProjectile, at({3, 2, 1}, {0, 0, -3}), {});
  for (Frame f = 1; f <= 20; ++f) {
    a.step(f, {});
    b.step(f, {});
  }
  a.remove_body(1);
  a.add_body(1, kProjectile, at({2, 1, 0}, {-4, 0, 0}), {});
  b.add_body(1, kProjectile, at({2, 1, 0}, {-4, 0, 0}), {});
  for (Frame f = 21; f <= 80; ++f) {
    a.step(f, {});
    b.step(f, {});
    for (BodyIndex body = 0; body < a.body_count(); ++body) REQUIRE(sync::bitwise_equal(a.read(body), b.read(body)));
  }
}

TEST_CASE("the object table names empty spawn slots by placeholders, never asking the engine") {
  Rolling physics_world(3);
  ReferencePhysics& physics = physics_world.physics;
  const world::ObjectTable table(physics);  // the slots' engine ids are all the same: not asked
  CHECK(table.size() == 4);
  CHECK(table.find(1) == BodyIndex{0});
  CHECK(table.find(world::ObjectTable::empty_slot_id(2)) == BodyIndex{3});
  CHECK((table.id(1) & kSpawnedIdBit) != 0);
}

TEST_CASE("a frame history carries which spawn slots hold bodies into each new frame") {
  for (int depth : {1, 4}) {
    world::FrameHistory history(3, depth);
    history.set_spawn_slots(1, 2);
    const std::vector<ObjectState> states(3);
    history.record(0, states);
    CHECK(history.slot_exists(0)[0] == 0);
    history.slot_exists(0)[1] = 1;
    history.slot_types(0)[1] = kProjectile;
    for (Frame f = 1; f <= 6; ++f) {
      history.advance();
      CHECK(history.slot_exists(f)[1] == 1);
      CHECK(history.slot_types(f)[1] == kProjectile);
      CHECK(history.slot_exists(f)[0] == 0);
    }
    CHECK(history.slot_exists(99).empty());
    CHECK_THROWS_AS(history.set_spawn_slots(2, 2), std::invalid_argument);
  }
}
