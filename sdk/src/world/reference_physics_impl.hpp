// SPDX-License-Identifier: MIT
// The reference physics' state, shared by its step (reference_physics.cpp) and its state,
// save/restore and user-byte calls (reference_physics_state.cpp).
#pragma once

#include <cmath>
#include <cstdint>
#include <map>
#include <span>
#include <vector>

#include "shoal/reference_physics.hpp"
#include "world/collide.hpp"
#include "world/contact_cache.hpp"
#include "world/contact_solver.hpp"
#include "world/spatial_grid.hpp"

namespace shoal {
namespace world::reference {

// Contacts are made this far before surfaces touch, so resting bodies keep theirs.
constexpr float kContactMargin = 0.01f;  // m; below the restitution threshold times dt

struct Body {
  ObjectId id = 0;
  Shape shape;
  float inverse_mass = 0;  // 0: static
  Vec3 inverse_inertia_local;
  float bounding_radius = 0;
  ObjectState state;
};

struct Plane {
  Vec3 inward_normal;
  float offset;
};

inline bool finite(Vec3 v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }
inline bool finite(const ObjectState& s) {
  return finite(s.position) && finite(s.linear_velocity) && finite(s.angular_velocity) &&
         std::isfinite(s.orientation.w) && std::isfinite(s.orientation.x) &&
         std::isfinite(s.orientation.y) && std::isfinite(s.orientation.z);
}

}  // namespace world::reference

struct ReferencePhysics::Impl {
  explicit Impl(const ReferencePhysicsConfig& c) : config(c), grid(c.grid_cell_size) {
    planes[0] = {{0, 1, 0}, 0};
    planes[1] = {{-1, 0, 0}, -c.arena_half_x};
    planes[2] = {{1, 0, 0}, -c.arena_half_x};
    planes[3] = {{0, 0, -1}, -c.arena_half_z};
    planes[4] = {{0, 0, 1}, -c.arena_half_z};
    saved_frames.assign(static_cast<std::size_t>(c.history_frames), kNoFrame);
    contact_cache = world::ContactCache(saved_frames.size());
  }

  BodyIndex add(ObjectId id, const world::Shape& shape, float mass, Vec3 inertia_factors,
                const ObjectState& state);
  // A body of this shape, mass (0: static) and state; throws for a bad mass or state.
  static world::reference::Body make_body(ObjectId id, const world::Shape& shape, float mass,
                                          Vec3 inertia_factors, const ObjectState& state);
  void step(std::span<const BodyInput> inputs);
  void collect_contacts();
  void add_pair_contacts(BodyIndex a, BodyIndex b);
  void add_manifold(BodyIndex a, BodyIndex b);  // the last collision's points, as contacts
  void wake_touched_sleepers();
  void apply_forces();
  void integrate();
  void update_sleep();
  void count_awake_frames();
  std::span<std::uint8_t> user_bytes_of(BodyIndex b) {
    return {user_bytes.data() + b * kMaxUserBytes, type_user_bytes[types.at(b)]};
  }
  BodyIndex find_island(BodyIndex b);
  bool moving(BodyIndex b) const {
    return bodies[b].inverse_mass > 0 && !bodies[b].state.at_rest && frozen[b] == 0 && present[b] != 0;
  }
  void wake(BodyIndex b) {
    bodies[b].state.at_rest = false;
    sleep_counters[b] = 0;
  }
  std::size_t slot(Frame f) const {
    const auto depth = static_cast<Frame>(saved_frames.size());
    return static_cast<std::size_t>(((f % depth) + depth) % depth);
  }

  ReferencePhysicsConfig config;
  world::reference::Plane planes[5];
  std::vector<world::reference::Body> bodies;
  std::vector<std::uint16_t> types;               // per body
  std::vector<std::uint8_t> type_user_bytes = std::vector<std::uint8_t>(65536, 0);  // per type
  std::vector<std::uint8_t> user_bytes;           // body x kMaxUserBytes
  std::vector<BodyIndex> counting;                // bodies whose type has user bytes
  std::vector<std::uint8_t> frozen;               // per body: set_frozen(), left out of the step
  std::vector<std::uint8_t> present;              // per body: 0 for an empty spawn slot
  // Spawning: what add_body() builds per type, and where the slots begin (bodies.size(): none).
  struct SpawnTemplate {
    world::Shape shape;
    float mass = 0;
    Vec3 inertia_factors;
  };
  std::map<std::uint16_t, SpawnTemplate> spawn_templates;
  std::size_t first_slot = 0;
  bool slots_added = false;
  bool is_slot(BodyIndex b) const { return slots_added && b >= first_slot && b < bodies.size(); }
  // Engine-private state, saved per frame.
  std::vector<int> sleep_counters;
  world::ContactCache contact_cache;

  std::vector<Frame> saved_frames;  // ring slot -> frame it holds
  // Ring slot x counter_stride: a slot's row holds every body's counter. The stride grows
  // with the world by doubling, so adding n bodies one by one rebuilds the rows log(n) times,
  // not n times.
  std::vector<int> saved_counters;
  std::size_t counter_stride = 0;

  // Per-step scratch, sized when bodies are added.
  world::SpatialGrid grid;
  std::vector<Vec3> centers, push;
  std::vector<float> radii;
  std::vector<std::uint8_t> pushed, was_moving, woken;
  std::vector<world::Pose> poses;
  std::vector<world::SolverBody> solver_bodies = std::vector<world::SolverBody>(1);  // per body, then the static sentinel
  std::vector<world::SolverContact> contacts;
  std::vector<BodyIndex> island_parent;
  std::vector<BodyIndex> changed;  // awake during the last step's integration
  std::vector<int> island_min_counter;
  world::Manifold manifold;
};

}  // namespace shoal
