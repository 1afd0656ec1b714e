// SPDX-License-Identifier: MIT
#include "arena.hpp"

#include <charconv>
#include <cmath>
#include <utility>

#include <fmt/format.h>

namespace lan_match {
namespace {

constexpr shoal::ObjectId kFirstBall = 1;
constexpr shoal::ObjectId kFirstObject = 100;  // above the largest ball id (16 peers)
constexpr float kSpacing = 1.5f;               // between grid neighbours (m)
constexpr float kObjectSize = 0.4f;            // sphere radius, box half edge (m)
constexpr float kBallRadius = 0.5f;
constexpr float kMargin = 5;                   // room between the grid and the walls (m)

// cos and sin of a ring position's angle (0..2 pi), the same bits on every system. The C
// libraries' sinf and cosf are not: glibc's and mingw-w64's differ by 1 ulp for about 1% of
// angles (docs/platforms.md), and a ball placed 1 ulp apart on one peer starts a different
// world. So: only IEEE arithmetic, which every system rounds alike. The angle is brought within
// pi/4 of a multiple of pi/2 (k * kHalfPiHigh is exact for small k), then the Taylor series run
// in double to terms below 1e-19, and rounded to float once.
std::pair<float, float> ring_cos_sin(float angle) {
  constexpr double kHalfPiHigh = 1.57079632673412561417e+00;  // pi/2 to 33 bits
  constexpr double kHalfPiLow = 6.07710050650619224932e-11;   // the rest of pi/2
  const double quadrants = std::nearbyint(static_cast<double>(angle) / 1.5707963267948966);
  const double r = (angle - quadrants * kHalfPiHigh) - quadrants * kHalfPiLow;
  const double r2 = r * r;
  double sine = 0, cosine = 0, sine_term = r, cosine_term = 1;
  for (int n = 1; n <= 21; n += 2) {  // r^n / n! and r^(n-1) / (n-1)!
    sine += sine_term;
    cosine += cosine_term;
    sine_term *= -r2 / ((n + 1) * (n + 2));
    cosine_term *= -r2 / (n * (n + 1));
  }
  switch (static_cast<int>(quadrants) & 3) {
    case 0: return {static_cast<float>(cosine), static_cast<float>(sine)};
    case 1: return {static_cast<float>(-sine), static_cast<float>(cosine)};
    case 2: return {static_cast<float>(-cosine), static_cast<float>(-sine)};
    default: return {static_cast<float>(sine), static_cast<float>(-cosine)};
  }
}

int grid_side(int objects) { return static_cast<int>(std::ceil(std::sqrt(static_cast<float>(objects)))); }

float grid_half_width(int objects) { return static_cast<float>(grid_side(objects) - 1) * kSpacing * 0.5f; }

}  // namespace

Arena arena_for(int peers, int objects) { return {peers, objects, grid_half_width(objects) + kMargin}; }

shoal::samples::WorldSpec arena_layout(const Arena& arena) {
  using shoal::samples::BodySpec;
  shoal::samples::WorldSpec layout;
  layout.half_x = arena.half_extent;
  layout.half_z = arena.half_extent;
  // Enough damping that the world comes to rest within seconds of the bots stopping.
  layout.linear_damping = 0.6f;
  layout.angular_damping = 0.6f;
  const float ring = grid_half_width(arena.objects) + kMargin * 0.5f;
  for (int p = 0; p < arena.balls; ++p) {
    const float angle = 6.2831853f * static_cast<float>(p) / static_cast<float>(arena.balls);
    BodySpec ball{kFirstBall + static_cast<shoal::ObjectId>(p), BodySpec::Shape::sphere, {kBallRadius, 0, 0}, 2.0f, {}};
    const auto [cosine, sine] = ring_cos_sin(angle);
    ball.state.position = {cosine * ring, kBallRadius, sine * ring};
    layout.bodies.push_back(ball);
  }
  const int side = grid_side(arena.objects);
  const float half = grid_half_width(arena.objects);
  for (int i = 0; i < arena.objects; ++i) {
    BodySpec object{shared_object(i), i % 2 == 0 ? BodySpec::Shape::sphere : BodySpec::Shape::box,
                    {kObjectSize, kObjectSize, kObjectSize}, 1.0f, {}};
    object.state.position = {static_cast<float>(i % side) * kSpacing - half, kObjectSize,
                             static_cast<float>(i / side) * kSpacing - half};
    object.state.at_rest = true;
    layout.bodies.push_back(object);
  }
  if (arena.projectile_slots > 0) {
    layout.spawn_slots = arena.projectile_slots;
    layout.spawn_types.push_back({kProjectileType, BodySpec::Shape::box,
                                  {kProjectileHalfEdge, kProjectileHalfEdge, kProjectileHalfEdge}, kProjectileMass});
  }
  return layout;
}

std::unique_ptr<shoal::samples::EngineWorld> build_arena(shoal::samples::Physics physics, const Arena& arena) {
  return shoal::samples::make_engine_world(physics, arena_layout(arena));
}

std::string describe(const Arena& arena, shoal::samples::Physics physics) {
  std::string words = fmt::format("shoal-lan-match peers={} objects={} physics={}", arena.balls, arena.objects,
                                  shoal::samples::name(physics));
  // The spawn slots are part of the world: a replay must build as many.
  if (arena.projectile_slots > 0) words += fmt::format(" projectile_slots={}", arena.projectile_slots);
  return words;
}

std::optional<ArenaDescription> arena_from_description(std::string_view words) {
  constexpr std::string_view kPrefix = "shoal-lan-match ";
  if (!words.starts_with(kPrefix)) return std::nullopt;
  int peers = 0, objects = 0, projectile_slots = 0;
  shoal::samples::Physics physics = shoal::samples::Physics::reference;
  words.remove_prefix(kPrefix.size());
  while (!words.empty()) {
    const std::string_view word = words.substr(0, words.find(' '));
    words.remove_prefix(std::min(words.size(), word.size() + 1));
    const std::size_t equals = word.find('=');
    if (equals == std::string_view::npos) return std::nullopt;
    const std::string_view key = word.substr(0, equals), value = word.substr(equals + 1);
    if (key == "physics") {
      const std::optional<shoal::samples::Physics> named = shoal::samples::physics_named(value);
      if (!named) return std::nullopt;
      physics = *named;
      continue;
    }
    int* target = key == "peers"              ? &peers
                  : key == "objects"          ? &objects
                  : key == "projectile_slots" ? &projectile_slots
                                              : nullptr;
    if (target == nullptr) return std::nullopt;  // a world this program does not know how to build
    const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), *target);
    if (error != std::errc{} || end != value.data() + value.size()) return std::nullopt;
  }
  if (peers < 1 || peers > 16 || objects < 1 || objects > 2000 || projectile_slots < 0 || projectile_slots > 4096) {
    return std::nullopt;
  }
  Arena arena = arena_for(peers, objects);
  arena.projectile_slots = static_cast<std::size_t>(projectile_slots);
  return ArenaDescription{arena, physics};
}

shoal::ObjectId ball_of(const Arena& arena, shoal::PeerId peer) {
  return kFirstBall + static_cast<shoal::ObjectId>(peer % arena.balls);
}

shoal::ObjectId shared_object(int i) { return kFirstObject + static_cast<shoal::ObjectId>(i); }

std::vector<shoal::ObjectId> all_bodies(const Arena& arena) {
  std::vector<shoal::ObjectId> ids;
  for (int p = 0; p < arena.balls; ++p) ids.push_back(kFirstBall + static_cast<shoal::ObjectId>(p));
  for (int i = 0; i < arena.objects; ++i) ids.push_back(shared_object(i));
  return ids;
}

}  // namespace lan_match
