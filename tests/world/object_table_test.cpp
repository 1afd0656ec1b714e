// SPDX-License-Identifier: MIT
// Object table: ids map to body indices; duplicate ids are refused with a clear message.
#include <doctest/doctest.h>

#include <stdexcept>
#include <vector>

#include "physics_helpers.hpp"
#include "world/object_table.hpp"

using namespace shoal;
using shoal::world::ObjectTable;

TEST_CASE("object table finds bodies by id") {
  const std::vector<ObjectId> ids{42, 7, 1000, 3};
  const ObjectTable table(ids);
  REQUIRE(table.size() == 4);
  for (BodyIndex b = 0; b < ids.size(); ++b) {
    CHECK(table.find(ids[b]) == b);
    CHECK(table.id(b) == ids[b]);
  }
  CHECK(!table.find(8).has_value());
  CHECK(!table.contains(0));
}

TEST_CASE("object table: ids that are their body's index and ids that are another's") {
  // Body 1's id is 3 and body 3's is 1; bodies 0 and 2 hold their own index.
  const std::vector<ObjectId> ids{0, 3, 2, 1};
  const ObjectTable table(ids);
  for (BodyIndex b = 0; b < ids.size(); ++b) CHECK(table.find(ids[b]) == b);
  CHECK(!table.find(4).has_value());
}

TEST_CASE("object table: thousands of ids in runs and scattered, and ids that are absent") {
  // Games hand out ids in runs (1000, 1001, ...) or from wide ranges: every one must be found
  // and nothing else, whatever the ids collide on in the table.
  std::vector<ObjectId> ids;
  for (ObjectId id = 1000; id < 4000; ++id) ids.push_back(id);
  for (ObjectId k = 0; k < 1000; ++k) ids.push_back(0x80000000u + k * 65536u);  // same low bits
  ids.push_back(0xFFFFFFFEu);
  ids.push_back(0);
  const ObjectTable table(ids);
  for (BodyIndex b = 0; b < ids.size(); ++b) REQUIRE(table.find(ids[b]) == b);
  int absent_found = 0;
  for (ObjectId id : {ObjectId{1}, ObjectId{999}, ObjectId{4000}, ObjectId{0x80000001u}, ObjectId{0xFFFFFFFFu}}) {
    absent_found += table.contains(id) ? 1 : 0;
  }
  CHECK(absent_found == 0);
  CHECK(!ObjectTable{}.contains(0));
}

TEST_CASE("object table built from a simulation rejects duplicate ids") {
  ReferencePhysics physics(ReferencePhysicsConfig{});
  physics.add_sphere(5, 0.5f, 1, test::at({0, 1, 0}));
  physics.add_box(9, {0.5f, 0.5f, 0.5f}, 1, test::at({3, 1, 0}));
  const ObjectTable table(physics);
  CHECK(table.find(9) == 1u);
  physics.add_sphere(5, 0.5f, 1, test::at({-3, 1, 0}));
  CHECK_THROWS_WITH_AS(ObjectTable{physics},
                       "ObjectTable: object id 5 is used by bodies 0 and 2; every body needs its own id",
                       std::invalid_argument);
}
