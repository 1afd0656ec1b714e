// The world of a LAN match, built the same way on every peer: one ball per player on a ring,
// and the shared objects (spheres and boxes, alternating) in a grid in the middle of a walled
// arena sized for them.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "shoal/reference_physics.hpp"

namespace lan_match {

struct Arena {
  int balls = 0;
  int objects = 0;
  float half_extent = 0;  ///< walls at x, z = +-half_extent (m)
};

Arena arena_for(int peers, int objects);

/// The words a recording keeps of the arena ("shoal-lan-match peers=4 objects=200"), so that
/// shoal-replay can build the same world; nothing when the words are not such a description.
std::string describe(const Arena& arena);
std::optional<Arena> arena_from_description(std::string_view words);

shoal::ReferencePhysicsConfig arena_physics(const Arena& arena);
void build_arena(shoal::ReferencePhysics& physics, const Arena& arena);

/// The ball peer `peer` drives.
shoal::ObjectId ball_of(const Arena& arena, shoal::PeerId peer);
/// The id of shared object i, 0 <= i < arena.objects.
shoal::ObjectId shared_object(int i);
/// Every body, balls first, in the order build_arena adds them.
std::vector<shoal::ObjectId> all_bodies(const Arena& arena);

}  // namespace lan_match
