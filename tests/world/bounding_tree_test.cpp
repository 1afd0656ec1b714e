// SPDX-License-Identifier: MIT
// The bounding-volume tree (samples/bench_sync/bounding_tree.hpp) must report exactly the
// bounding spheres a brute-force scan finds, each once, on its first rebuild and on every
// rebuild after that, which starts from the leaf order the previous one left.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <stdexcept>
#include <vector>

#include "bounding_tree.hpp"
#include "core/random.hpp"
#include "wire/allocation_counter.hpp"

using namespace shoal;
using shoal::bench::BoundingTree;

namespace {

struct World {
  std::vector<Vec3> centers;
  std::vector<float> radii;
};

enum class Layout { kSpread, kClustered };

float uniform(core::Random& r, float low, float high) { return static_cast<float>(r.uniform(low, high)); }

// Spread: anywhere in a 100 m square a few metres deep. Clustered: around a handful of points,
// many bodies overlapping. Radii mostly small, some larger, and a few huge bodies.
World random_world(std::uint64_t seed, int count, Layout layout) {
  core::Random r(seed);
  World w;
  std::vector<Vec3> clusters;
  for (int i = 0; i < 5; ++i) clusters.push_back({uniform(r, -40, 40), uniform(r, 0, 4), uniform(r, -40, 40)});
  for (int i = 0; i < count; ++i) {
    Vec3 c{uniform(r, -50, 50), uniform(r, -1, 5), uniform(r, -50, 50)};
    if (layout == Layout::kClustered) {
      const Vec3 around = clusters[static_cast<std::size_t>(r.next_u64() % clusters.size())];
      c = around + Vec3{uniform(r, -3, 3), uniform(r, -1, 1), uniform(r, -3, 3)};
    }
    w.centers.push_back(c);
    const double pick = r.next_unit();
    w.radii.push_back(pick < 0.8 ? uniform(r, 0, 0.6f) : pick < 0.97 ? uniform(r, 0.6f, 3) : uniform(r, 10, 40));
  }
  return w;
}

// Most bodies still, some nudged, a few thrown across the world: the next rebuild starts from
// an order that fits them less well.
void move_bodies(World& w, core::Random& r) {
  for (Vec3& c : w.centers) {
    const double pick = r.next_unit();
    if (pick < 0.5) continue;
    if (pick < 0.95) {
      c += Vec3{uniform(r, -0.5f, 0.5f), uniform(r, -0.1f, 0.1f), uniform(r, -0.5f, 0.5f)};
    } else {
      c = {uniform(r, -50, 50), uniform(r, -1, 5), uniform(r, -50, 50)};
    }
  }
}

bool overlaps(Vec3 center, float radius, Vec3 c, float r) {
  const float dx = center.x - c.x, dy = center.y - c.y, dz = center.z - c.z;
  const float reach = radius + r;
  return dx * dx + dy * dy + dz * dz <= reach * reach;
}

std::vector<BodyIndex> brute_force(const World& w, Vec3 center, float radius) {
  std::vector<BodyIndex> hits;
  for (BodyIndex b = 0; b < w.centers.size(); ++b) {
    if (overlaps(center, radius, w.centers[b], w.radii[b])) hits.push_back(b);
  }
  return hits;
}

// Queries of every size: around bodies (as the regions ask), anywhere, empty, and wider than
// the world. Returns how many queries found at least one body, so a test can tell that the
// comparisons were not all of empty lists.
int check_queries(const BoundingTree& tree, const World& w, core::Random& r) {
  int nonempty = 0;
  for (int q = 0; q < 60; ++q) {
    Vec3 center{uniform(r, -60, 60), uniform(r, -5, 10), uniform(r, -60, 60)};
    if (q % 2 == 0 && !w.centers.empty()) center = w.centers[r.next_u64() % w.centers.size()];
    const float radius = q % 10 == 0 ? 200.0f : q % 10 == 1 ? 0.0f : q % 3 == 0 ? uniform(r, 10, 30) : uniform(r, 0, 4);
    CAPTURE(q);
    CAPTURE(radius);
    std::vector<BodyIndex> hits;
    tree.query_sphere(center, radius, [&](BodyIndex b) { hits.push_back(b); });
    std::sort(hits.begin(), hits.end());
    const std::vector<BodyIndex> want = brute_force(w, center, radius);
    REQUIRE(hits == want);  // sorted equal lists: each body once, none missing, none extra
    if (!want.empty()) ++nonempty;
  }
  return nonempty;
}

void check_leaf_order(const BoundingTree& tree, std::size_t bodies) {
  std::vector<BodyIndex> order(tree.leaf_order().begin(), tree.leaf_order().end());
  std::sort(order.begin(), order.end());
  std::vector<BodyIndex> every(bodies);
  std::iota(every.begin(), every.end(), BodyIndex{0});
  CHECK(order == every);
}

}  // namespace

TEST_CASE("tree queries agree with brute force before and after bodies move") {
  for (const int count : {0, 1, 2, 3, 4, 5, 17, 64, 300, 1000}) {
    for (const Layout layout : {Layout::kSpread, Layout::kClustered}) {
      for (std::uint64_t seed = 1; seed <= 3; ++seed) {
        CAPTURE(count);
        CAPTURE(static_cast<int>(layout));
        CAPTURE(seed);
        World w = random_world(seed * 1000 + static_cast<std::uint64_t>(count), count, layout);
        core::Random r(seed);
        BoundingTree tree;
        int nonempty = 0;
        for (int rebuild = 0; rebuild < 6; ++rebuild) {
          CAPTURE(rebuild);
          tree.rebuild(w.centers, w.radii);
          REQUIRE(tree.body_count() == w.centers.size());
          check_leaf_order(tree, w.centers.size());
          nonempty += check_queries(tree, w, r);
          move_bodies(w, r);
        }
        if (count > 0) CHECK(nonempty > 0);
      }
    }
  }
}

TEST_CASE("tree finds bodies that only touch the query sphere, and every body inside it") {
  // Bodies on a line, each just touching the next: exact distances, no rounding slack.
  World w;
  for (int i = 0; i < 9; ++i) {
    w.centers.push_back({static_cast<float>(i), 0, 0});
    w.radii.push_back(0.5f);
  }
  BoundingTree tree;
  tree.rebuild(w.centers, w.radii);
  std::vector<BodyIndex> hits;
  tree.query_sphere({-1, 0, 0}, 0.5f, [&](BodyIndex b) { hits.push_back(b); });
  CHECK(hits == std::vector<BodyIndex>{0});  // touching at x = -0.5
  hits.clear();
  tree.query_sphere({4, 0, 0}, 100, [&](BodyIndex b) { hits.push_back(b); });
  std::sort(hits.begin(), hits.end());
  CHECK(hits == brute_force(w, {4, 0, 0}, 100));
  CHECK(hits.size() == 9);
}

TEST_CASE("rebuilding from the last leaf order tightens a tree whose bodies were shuffled") {
  // A 32 x 32 grid of bodies. Once the tree is built, the bodies trade places at random: the
  // next rebuild starts from an order that groups far-apart bodies, and each one after it
  // regroups, starting from the order the last one left.
  World w;
  for (int i = 0; i < 1024; ++i) {
    w.centers.push_back({static_cast<float>(i % 32) * 1.5f, 0.4f, static_cast<float>(i / 32) * 1.5f});
    w.radii.push_back(0.4f);
  }
  BoundingTree tree;
  tree.rebuild(w.centers, w.radii);
  core::Random r(7);
  for (std::size_t i = w.centers.size() - 1; i > 0; --i) std::swap(w.centers[i], w.centers[r.next_u64() % (i + 1)]);
  tree.rebuild(w.centers, w.radii);
  const float first = tree.total_box_size();
  float last = first;
  for (int rebuild = 0; rebuild < 60; ++rebuild) {
    tree.rebuild(w.centers, w.radii);
    last = tree.total_box_size();
  }
  CAPTURE(first);
  CAPTURE(last);
  CHECK(last < 0.7f * first);
  check_queries(tree, w, r);
}

TEST_CASE("tree starts afresh when the body count changes") {
  const World big = random_world(3, 50, Layout::kSpread);
  const World small = random_world(4, 20, Layout::kClustered);
  BoundingTree tree;
  for (int i = 0; i < 5; ++i) tree.rebuild(big.centers, big.radii);
  tree.rebuild(small.centers, small.radii);
  check_leaf_order(tree, small.centers.size());
  core::Random r(5);
  check_queries(tree, small, r);
  tree.rebuild({}, {});
  CHECK(tree.body_count() == 0);
  int calls = 0;
  tree.query_sphere({0, 0, 0}, 1000, [&](BodyIndex) { ++calls; });
  CHECK(calls == 0);
}

TEST_CASE("a warm tree rebuilds and answers queries without allocating") {
  World w = random_world(9, 700, Layout::kSpread);
  BoundingTree tree;
  tree.rebuild(w.centers, w.radii);
  core::Random r(9);
  move_bodies(w, r);
  std::size_t found = 0;
  test::start_counting_allocations();
  tree.rebuild(w.centers, w.radii);
  for (int q = 0; q < 20; ++q) tree.query_sphere(w.centers[static_cast<std::size_t>(q)], 5, [&](BodyIndex) { ++found; });
  CHECK(test::counted_allocations().count == 0);
  CHECK(found > 20);  // each query finds at least its own body
}

TEST_CASE("tree rejects spans of different lengths") {
  const std::vector<Vec3> centers{{0, 0, 0}, {1, 0, 0}};
  const std::vector<float> radii{1.0f};
  BoundingTree tree;
  CHECK_THROWS_WITH_AS(tree.rebuild(centers, radii), doctest::Contains("expected one radius per center"),
                       std::invalid_argument);
}
