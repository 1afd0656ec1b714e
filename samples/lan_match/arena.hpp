// SPDX-License-Identifier: MIT
// The world of a LAN match, built the same way on every peer: one ball per player on a ring,
// and the shared objects (spheres and boxes, alternating) in a grid in the middle of a walled
// arena sized for them. The same layout runs on each engine (--physics): Box2D sees it from
// above (samples/engine_worlds).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine_world.hpp"

namespace lan_match {

/// The body of --projectiles (gun.hpp), spawned during play: a small box, which tumbles,
/// bounces and then slides to rest (a ball would roll on for many seconds, and the report
/// compares the world at rest).
inline constexpr std::uint16_t kProjectileType = 1;
inline constexpr float kProjectileHalfEdge = 0.12f;  // m
inline constexpr float kProjectileMass = 0.3f;       // kg

struct Arena {
  int balls = 0;
  int objects = 0;
  float half_extent = 0;  ///< walls at x, z = +-half_extent (m)
  std::size_t projectile_slots = 0;  ///< spawn slots for --projectiles after the bodies (gun.hpp)
};

Arena arena_for(int peers, int objects);

/// The arena's bodies and walls, in ground coordinates, and its spawn slots.
shoal::samples::WorldSpec arena_layout(const Arena& arena);
/// The arena on `physics`.
std::unique_ptr<shoal::samples::EngineWorld> build_arena(shoal::samples::Physics physics, const Arena& arena);

/// What a recording keeps of the world ("shoal-lan-match peers=4 objects=200 physics=bullet"),
/// so that shoal-replay can build the same one; nothing when the words are not such a
/// description.
struct ArenaDescription {
  Arena arena;
  shoal::samples::Physics physics = shoal::samples::Physics::reference;
};
std::string describe(const Arena& arena, shoal::samples::Physics physics);
std::optional<ArenaDescription> arena_from_description(std::string_view words);

/// The ball peer `peer` drives.
shoal::ObjectId ball_of(const Arena& arena, shoal::PeerId peer);
/// The id of shared object i, 0 <= i < arena.objects.
shoal::ObjectId shared_object(int i);
/// Every body, balls first, in the order build_arena adds them.
std::vector<shoal::ObjectId> all_bodies(const Arena& arena);

}  // namespace lan_match
