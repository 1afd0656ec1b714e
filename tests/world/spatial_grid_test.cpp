// SPDX-License-Identifier: MIT
// The spatial grid must report exactly the overlapping bounding spheres a brute-force check
// finds, each once, in an order that depends only on the input.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>

#include "world/spatial_grid.hpp"

using namespace shoal;
using shoal::world::SpatialGrid;

namespace {

// A small self-made generator: the same numbers on every standard library.
struct Lcg {
  std::uint64_t state;
  float uniform(float lo, float hi) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    const auto bits = static_cast<std::uint32_t>(state >> 40);  // 24 bits
    return lo + (hi - lo) * static_cast<float>(bits) / static_cast<float>(1u << 24);
  }
};

struct Scene {
  std::vector<Vec3> centers;
  std::vector<float> radii;
};

Scene random_scene(std::uint64_t seed, int count) {
  Lcg rng{seed};
  Scene s;
  for (int i = 0; i < count; ++i) {
    s.centers.push_back({rng.uniform(-20, 20), rng.uniform(-2, 6), rng.uniform(-20, 20)});
    // Mostly small bodies, some spanning several cells, a few too big for the grid.
    const float pick = rng.uniform(0, 1);
    s.radii.push_back(pick < 0.8f ? rng.uniform(0.05f, 0.6f)
                                  : pick < 0.97f ? rng.uniform(0.6f, 3) : rng.uniform(4, 9));
  }
  return s;
}

bool overlap(Vec3 ca, float ra, Vec3 cb, float rb) {
  return length_squared(ca - cb) <= (ra + rb) * (ra + rb);
}

using Pairs = std::vector<std::pair<BodyIndex, BodyIndex>>;

Pairs grid_pairs(const SpatialGrid& grid) {
  Pairs pairs;
  grid.for_each_pair([&](BodyIndex a, BodyIndex b) { pairs.emplace_back(a, b); });
  return pairs;
}

}  // namespace

TEST_CASE("grid pairs and sphere queries agree with brute force on random scenes") {
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    CAPTURE(seed);
    const Scene scene = random_scene(seed, 300);
    SpatialGrid grid(1.0f);
    grid.rebuild(scene.centers, scene.radii);

    Pairs found = grid_pairs(grid);
    for (const auto& [a, b] : found) REQUIRE(a < b);
    Pairs sorted = found;
    std::sort(sorted.begin(), sorted.end());
    REQUIRE(std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end());  // each once
    Pairs expected;
    for (BodyIndex a = 0; a < scene.centers.size(); ++a) {
      for (BodyIndex b = a + 1; b < scene.centers.size(); ++b) {
        if (overlap(scene.centers[a], scene.radii[a], scene.centers[b], scene.radii[b])) {
          expected.emplace_back(a, b);
        }
      }
    }
    REQUIRE(!expected.empty());
    CHECK(sorted == expected);

    Lcg rng{seed * 77};
    for (int q = 0; q < 40; ++q) {
      const Vec3 c{rng.uniform(-22, 22), rng.uniform(-3, 7), rng.uniform(-22, 22)};
      const float r = q == 0 ? 60.0f : rng.uniform(0, 5);  // one query wider than the grid
      std::vector<BodyIndex> hits;
      grid.query_sphere(c, r, [&](BodyIndex b) { hits.push_back(b); });
      std::vector<BodyIndex> want;
      for (BodyIndex b = 0; b < scene.centers.size(); ++b) {
        if (overlap(c, r, scene.centers[b], scene.radii[b])) want.push_back(b);
      }
      std::sort(hits.begin(), hits.end());
      CHECK(std::adjacent_find(hits.begin(), hits.end()) == hits.end());
      CHECK(hits == want);
    }
  }
}

TEST_CASE("grid results come in an order that depends only on the input") {
  const Scene scene = random_scene(5, 200);
  const Scene other = random_scene(9, 900);
  SpatialGrid fresh(0.75f);
  fresh.rebuild(scene.centers, scene.radii);
  SpatialGrid reused(0.75f);
  reused.rebuild(other.centers, other.radii);  // a bigger scene first leaves larger buffers
  reused.rebuild(scene.centers, scene.radii);
  CHECK(grid_pairs(fresh) == grid_pairs(reused));
  std::vector<BodyIndex> a, b;
  fresh.query_sphere({1, 1, 1}, 6, [&](BodyIndex i) { a.push_back(i); });
  reused.query_sphere({1, 1, 1}, 6, [&](BodyIndex i) { b.push_back(i); });
  CHECK(a == b);
  CHECK(!a.empty());
}

TEST_CASE("grid handles empty input, far and non-finite positions, and rejects bad arguments") {
  SpatialGrid grid(1.0f);
  int calls = 0;
  grid.query_sphere({0, 0, 0}, 10, [&](BodyIndex) { ++calls; });
  grid.for_each_pair([&](BodyIndex, BodyIndex) { ++calls; });
  CHECK(calls == 0);

  const std::vector<Vec3> centers{{1e30f, 0, 0}, {1e30f, 0, 0.5f}, {0, 0, 0}, {0.5f, 0, 0}};
  const std::vector<float> radii{0.5f, 0.5f, 0.3f, 0.3f};
  grid.rebuild(centers, radii);
  Pairs pairs = grid_pairs(grid);
  std::sort(pairs.begin(), pairs.end());
  CHECK(pairs == Pairs{{0, 1}, {2, 3}});

  CHECK_THROWS_AS(SpatialGrid(0.0f), std::invalid_argument);
  CHECK_THROWS_AS(SpatialGrid(-1.0f), std::invalid_argument);
  const std::vector<float> short_radii{1.0f};
  CHECK_THROWS_WITH_AS(grid.rebuild(centers, short_radii),
                       doctest::Contains("expected one radius per center"), std::invalid_argument);
}
