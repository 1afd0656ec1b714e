// Core and simulated regions: radius grows with speed, collision prediction, hysteresis,
// simulated region contains the core, config validation.
#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "authority/regions.hpp"

using namespace shoal;
using namespace shoal::authority;

namespace {

struct World {
  std::vector<Vec3> positions;
  std::vector<Vec3> velocities;
  std::vector<float> radii;

  BodyIndex add(Vec3 position, Vec3 velocity = {}, float radius = 0.5f) {
    positions.push_back(position);
    velocities.push_back(velocity);
    radii.push_back(radius);
    return static_cast<BodyIndex>(positions.size() - 1);
  }
  BodyMotions motions() const { return {positions, velocities, radii}; }
};

std::vector<std::uint8_t> core_of(RegionBuilder& builder, const World& world,
                                  BodyIndex controlled) {
  builder.rebuild(world.motions());
  PeerRegions regions;
  const BodyIndex list[] = {controlled};
  builder.compute(list, regions);
  return regions.core;
}

}  // namespace

TEST_CASE("core radius grows with the controlled object's speed") {
  RegionBuilder builder(AuthorityConfig{});  // r_min 2 m, T 0.5 s
  World world;
  const BodyIndex player = world.add({0, 0, 0});
  const BodyIndex crate = world.add({5, 0, 0});  // near side 4.5 m from the player's center

  auto core = core_of(builder, world, player);
  CHECK(builder.core_radius(player) == doctest::Approx(2.0f));
  CHECK(core[player] == 1);
  CHECK(core[crate] == 0);

  // Moving sideways at 12 m/s: radius 6 m, and the crate is not on a collision course, so only
  // the larger sphere can have put it in the core.
  world.velocities[player] = {0, 12, 0};
  core = core_of(builder, world, player);
  CHECK(builder.core_radius(player) == doctest::Approx(6.0f));
  CHECK(core[crate] == 1);
}

TEST_CASE("collision prediction includes an object about to hit and excludes one moving away") {
  AuthorityConfig config;
  World world;
  const BodyIndex player = world.add({0, 0, 0});
  const BodyIndex incoming = world.add({6, 0, 0}, {-12, 0, 0});   // contact after ~0.42 s
  const BodyIndex leaving = world.add({-6, 0, 0}, {-12, 0, 0});   // moving away
  const BodyIndex too_slow = world.add({0, 6, 0}, {0, -4, 0});    // contact after 1.25 s
  const BodyIndex passing = world.add({6, 3, 0}, {-12, 0, 0});    // misses by 2 m

  RegionBuilder predicting(config);
  auto core = core_of(predicting, world, player);
  CHECK(core[incoming] == 1);
  CHECK(core[leaving] == 0);
  CHECK(core[too_slow] == 0);
  CHECK(core[passing] == 0);

  config.T_predict = 0;  // same world without prediction: the sphere alone does not hold it
  RegionBuilder sphere_only(config);
  core = core_of(sphere_only, world, player);
  CHECK(core[incoming] == 0);
}

TEST_CASE("hysteresis keeps an object oscillating around the core boundary from flickering") {
  // Entry when the near side is within 2 m: center x <= 2.5. With 0.5 m hysteresis a member
  // leaves only past x = 3.0. The crate oscillates between 2.3 and 2.8.
  auto transitions = [](float hysteresis, float far_x) {
    AuthorityConfig config;
    config.hysteresis = hysteresis;
    config.T_predict = 0;  // isolate the sphere rule
    RegionBuilder builder(config);
    World world;
    const BodyIndex player = world.add({0, 0, 0});
    const BodyIndex crate = world.add({2.3f, 0, 0});
    PeerRegions regions;
    const BodyIndex controlled[] = {player};
    int changes = 0;
    std::uint8_t was = 0;
    for (int frame = 0; frame < 40; ++frame) {
      world.positions[crate].x = frame % 2 == 0 ? 2.3f : far_x;
      builder.rebuild(world.motions());
      builder.compute(controlled, regions);
      if (regions.core[crate] != was) ++changes;
      was = regions.core[crate];
    }
    return std::pair{changes, was};
  };
  CHECK(transitions(0.5f, 2.8f) == std::pair{1, std::uint8_t{1}});  // entered once, stayed
  CHECK(transitions(0.0f, 2.8f).first == 40);                        // flickers every frame
  CHECK(transitions(0.5f, 3.1f).first == 40);  // past the band it really leaves each time
}

TEST_CASE("simulated region contains the core and reaches simulated_radius beyond it") {
  AuthorityConfig config;
  RegionBuilder builder(config);
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> coord(-40, 40);
  std::uniform_real_distribution<float> speed(-15, 15);
  World world;
  for (int i = 0; i < 300; ++i) {
    world.add({coord(rng), coord(rng), coord(rng)}, {speed(rng), speed(rng), speed(rng)},
              0.2f + static_cast<float>(i % 5) * 0.3f);
  }
  const BodyIndex controlled[] = {3, 150};
  PeerRegions regions;
  for (int frame = 0; frame < 10; ++frame) {
    for (std::size_t i = 0; i < world.positions.size(); ++i) {
      world.positions[i] += world.velocities[i] * (1.0f / 60);
    }
    builder.rebuild(world.motions());
    builder.compute(controlled, regions);
    std::size_t core_count = 0, simulated_count = 0;
    for (std::size_t i = 0; i < world.positions.size(); ++i) {
      if (regions.core[i]) CHECK(regions.simulated[i] == 1);
      core_count += regions.core[i];
      simulated_count += regions.simulated[i];
    }
    CHECK(core_count >= 2);  // the controlled bodies themselves
    CHECK(simulated_count > core_count);
  }
  // A probe body 15 m beyond the core sphere is simulated, one 25 m beyond is not.
  const float core_radius = builder.core_radius(3);
  const Vec3 center = world.positions[3];
  World probe = world;
  const BodyIndex near_probe = probe.add(center + Vec3{0, 0, core_radius + 15.5f});
  const BodyIndex far_probe = probe.add(center + Vec3{0, 0, core_radius + 25.5f});
  probe.positions[150] = center + Vec3{200, 0, 0};  // move the other controlled body away
  builder.rebuild(probe.motions());
  PeerRegions fresh;
  const BodyIndex just_three[] = {3};
  builder.compute(just_three, fresh);
  CHECK(fresh.simulated[near_probe] == 1);
  CHECK(fresh.simulated[far_probe] == 0);
}

TEST_CASE("regions cope with zero controlled objects and refuse a body outside the world") {
  RegionBuilder builder(AuthorityConfig{});
  World world;
  world.add({0, 0, 0});
  builder.rebuild(world.motions());
  PeerRegions regions;
  builder.compute({}, regions);
  CHECK(regions.core == std::vector<std::uint8_t>{0});
  CHECK(regions.simulated == std::vector<std::uint8_t>{0});
  const BodyIndex outside[] = {5};
  CHECK_THROWS_AS(builder.compute(outside, regions), std::out_of_range);
}

TEST_CASE("authority config validation names the bad field") {
  auto message_for = [](AuthorityConfig config) -> std::string {
    try {
      validate(config);
    } catch (const std::invalid_argument& error) {
      return error.what();
    }
    return "";
  };
  CHECK(message_for(AuthorityConfig{}).empty());
  AuthorityConfig bad;
  bad.r_min = 0;
  CHECK(message_for(bad).find("r_min") != std::string::npos);
  bad = {};
  bad.T_predict = -1;
  CHECK(message_for(bad).find("T_predict") != std::string::npos);
  bad = {};
  bad.hysteresis = std::nanf("");
  CHECK(message_for(bad).find("hysteresis") != std::string::npos);
  bad = {};
  bad.max_owner_changes_per_second = 0;
  CHECK(message_for(bad).find("max_owner_changes_per_second") != std::string::npos);
  bad = {};
  bad.simulated_radius = -3;
  CHECK_THROWS_AS(RegionBuilder{bad}, std::invalid_argument);
}
