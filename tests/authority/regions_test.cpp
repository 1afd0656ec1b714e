// SPDX-License-Identifier: MIT
// Core and simulated regions: radius grows with speed, collision prediction, hysteresis,
// simulated region contains the core, config validation.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <span>
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
  std::vector<ObjectState> states;  // what motions() hands the builder, as the history's newest row holds it

  BodyMotions motions() {
    states.resize(positions.size());
    for (std::size_t i = 0; i < positions.size(); ++i) {
      states[i].position = positions[i];
      states[i].linear_velocity = velocities[i];
      states[i].at_rest = velocities[i] == Vec3{};
    }
    return {states, radii};
  }
};

std::vector<BodyIndex> sorted(std::vector<BodyIndex> bodies) {
  std::sort(bodies.begin(), bodies.end());
  return bodies;
}

std::vector<std::uint8_t> core_of(RegionBuilder& builder, World& world,
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

  // Only a body touching the player, or about to within kImminentContactS, is listed as
  // touched: not the player itself, nor one the core sphere holds by its radius alone, nor one
  // that will hit it later within T_predict.
  const BodyIndex beside = world.add({1.5f, 0, 0}, {0, 0, 3});   // in the 2 m sphere, moving along
  const BodyIndex hitting = world.add({0, 0, 2}, {0, 0, -12});   // contact after ~0.08 s
  const BodyIndex touching = world.add({0, 0, -1.02f});          // resting against it
  RegionBuilder listing(config);
  listing.rebuild(world.motions());
  PeerRegions regions;
  const BodyIndex list[] = {player};
  listing.compute(list, regions);
  CHECK(regions.core[beside] == 1);
  CHECK(regions.core[incoming] == 1);
  CHECK(sorted(regions.contact_bodies) == std::vector<BodyIndex>{hitting, touching});

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

namespace {

// The region rules applied body by body, as plainly as they are stated: the builder's
// vectorised bounding pass must pick exactly the same members.
struct ReferenceRegions {
  AuthorityConfig config;

  static bool overlap(Vec3 a, float ra, Vec3 b, float rb) {
    const float reach = ra + rb;
    return length_squared(a - b) <= reach * reach;
  }

  void compute(const World& world, std::span<const BodyIndex> controlled, PeerRegions& regions) const {
    const std::size_t count = world.positions.size();
    const std::vector<std::uint8_t> previous_core = regions.core;
    const std::vector<std::uint8_t> previous_simulated = regions.simulated;
    regions.core.assign(count, 0);
    regions.simulated.assign(count, 0);
    regions.contact_bodies.clear();
    const float half = 0.5f * config.T_predict;
    auto swept_center = [&](std::size_t i) { return world.positions[i] + world.velocities[i] * half; };
    auto swept_radius = [&](std::size_t i) { return world.radii[i] + length(world.velocities[i]) * half; };
    for (const BodyIndex c : controlled) {
      const Vec3 center = world.positions[c];
      const float core = std::max(config.r_min, length(world.velocities[c]) * config.T);
      const float simulated = core + config.simulated_radius;
      const float h = config.hysteresis;
      for (BodyIndex b = 0; b < count; ++b) {
        const Vec3 p = world.positions[b];
        const float r = world.radii[b];
        // The bounding sphere within the simulated radius (hysteresis more for a member).
        if (overlap(center, is_member(previous_simulated, b) ? simulated + h : simulated, p, r)) {
          regions.simulated[b] = 1;
        }
        if (overlap(center, core + h, p, r) &&
            distance(p, center) - r <= (is_member(previous_core, b) ? core + h : core)) {
          regions.core[b] = 1;
        }
        if (b == c || !overlap(swept_center(c), swept_radius(c) + h, swept_center(b), swept_radius(b))) {
          continue;
        }
        const Vec3 offset = p - center;
        const Vec3 closing = world.velocities[b] - world.velocities[c];
        const float closing_sq = length_squared(closing);
        const float t = closing_sq > 0
                            ? std::clamp(-dot(offset, closing) / closing_sq, 0.0f, config.T_predict)
                            : 0.0f;
        const float contact = r + world.radii[c];
        if (length(offset + closing * t) <= (is_member(previous_core, b) ? contact + h : contact)) {
          regions.core[b] = 1;
        }
        const float t_soon = std::min(t, kImminentContactS);
        if (length(offset + closing * t_soon) <= contact + kImminentContactMargin) {
          regions.contact_bodies.push_back(b);
        }
      }
    }
    for (std::size_t i = 0; i < count; ++i) regions.simulated[i] |= regions.core[i];
  }
};

}  // namespace

TEST_CASE("regions match a body-by-body reference on a seeded random world over many frames") {
  AuthorityConfig config;
  config.hysteresis = 1.0f;
  // `builder` rereads every body each frame; `partial` only the bodies that moved or started
  // or stopped (rebuild_touched), as a peer does between catch-ups.
  RegionBuilder builder(config), partial(config);
  const ReferenceRegions reference{config};
  std::mt19937 rng(2024);
  std::uniform_real_distribution<float> coord(-60, 60);
  std::uniform_real_distribution<float> speed(-12, 12);
  std::uniform_int_distribution<int> percent(0, 99);
  World world;
  for (int i = 0; i < 1003; ++i) {  // not a multiple of the word size the builder skips by
    const bool resting = percent(rng) < 70;
    world.add({coord(rng), coord(rng) * 0.1f, coord(rng)},
              resting ? Vec3{} : Vec3{speed(rng), speed(rng), speed(rng)},
              0.2f + static_cast<float>(i % 7) * 0.25f);
  }
  const std::vector<std::vector<BodyIndex>> peers{{0}, {17, 500}, {}, {1002}};
  std::vector<PeerRegions> built(peers.size()), expected(peers.size()), built_partially(peers.size());
  std::vector<BodyIndex> touched;
  std::size_t members_seen = 0, entered_or_left = 0, contacts_seen = 0;
  for (int frame = 0; frame < 60; ++frame) {
    touched.clear();
    for (std::size_t i = 0; i < world.positions.size(); ++i) {
      const bool moved = !(world.velocities[i] == Vec3{});
      world.positions[i] += world.velocities[i] * (1.0f / 30);
      // Now and then a body starts or stops, so resting and moving bodies trade places.
      const bool toggle = percent(rng) == 0;
      if (toggle) world.velocities[i] = world.velocities[i] == Vec3{} ? Vec3{speed(rng), 0, speed(rng)} : Vec3{};
      if (moved || toggle) touched.push_back(static_cast<BodyIndex>(i));
    }
    builder.rebuild(world.motions());
    if (frame == 0) {
      partial.rebuild(world.motions());
    } else {
      partial.rebuild_touched(world.motions(), touched);
    }
    for (std::size_t p = 0; p < peers.size(); ++p) {
      const std::vector<std::uint8_t> before = built[p].core;
      builder.compute(peers[p], built[p]);
      reference.compute(world, peers[p], expected[p]);
      REQUIRE(built[p].core == expected[p].core);
      REQUIRE(built[p].simulated == expected[p].simulated);
      REQUIRE(sorted(built[p].contact_bodies) == sorted(expected[p].contact_bodies));
      contacts_seen += built[p].contact_bodies.size();
      partial.compute(peers[p], built_partially[p]);
      REQUIRE(built_partially[p].core == expected[p].core);
      REQUIRE(built_partially[p].simulated == expected[p].simulated);
      for (std::size_t i = 0; i < world.positions.size(); ++i) {
        members_seen += built[p].simulated[i];
        if (i < before.size() && before[i] != built[p].core[i]) ++entered_or_left;
      }
    }
    for (std::size_t i = 0; i < world.positions.size(); ++i) {
      REQUIRE(builder.at_rest()[i] == (world.velocities[i] == Vec3{} ? 1 : 0));
      REQUIRE(partial.at_rest()[i] == builder.at_rest()[i]);
    }
  }
  // The comparison is only worth something if the regions were neither empty nor static.
  CHECK(members_seen > 1000);
  CHECK(entered_or_left > 10);
  CHECK(contacts_seen > 10);
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

TEST_CASE("the core's members come as a list too, each once, the same as its flags") {
  // A crowd around two controlled bodies: some bodies pass both the sphere and the contact
  // rule, some are in both cores; the list names each member of the flags once.
  std::mt19937 random(17);
  std::uniform_real_distribution<float> coordinate(-8.0f, 8.0f), speed(-6.0f, 6.0f);
  World world;
  for (int i = 0; i < 400; ++i) {
    world.add({coordinate(random), 0, coordinate(random)}, {speed(random), 0, speed(random)});
  }
  RegionBuilder builder(AuthorityConfig{});
  builder.rebuild(world.motions());
  PeerRegions regions;
  const BodyIndex controlled[] = {3, 7};
  for (int pass = 0; pass < 2; ++pass) {  // the second with the first's flags as the previous
    builder.compute(controlled, regions);
    std::vector<BodyIndex> flagged;
    for (BodyIndex b = 0; b < regions.core.size(); ++b) {
      if (regions.core[b] != 0) flagged.push_back(b);
    }
    std::vector<BodyIndex> listed = regions.core_bodies;
    std::sort(listed.begin(), listed.end());
    CHECK(flagged.size() > 4);
    CHECK(listed == flagged);
  }
}
