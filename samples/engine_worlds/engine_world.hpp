// SPDX-License-Identifier: MIT
// A sample's world on any engine, built from one layout: a walled arena (ground at y = 0, walls
// at x = +-half_x and z = +-half_z) and its bodies, given in ground coordinates (x and z along
// the ground, y up). In 3D (reference physics, Bullet) that is the world itself. Box2D's world
// is the arena seen from above: the ground's x and z become the plane's x and y, height is
// dropped, there is no gravity, and ground friction is stood in for by damping. Shoal's regions,
// snapshots and smoothing run on either unchanged.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "physics_choice.hpp"
#include "shoal/simulation.hpp"

namespace shoal::samples {

struct BodySpec {
  enum class Shape { sphere, box };
  ObjectId id = 0;
  Shape shape = Shape::sphere;
  Vec3 size;             ///< sphere: radius in x; box: half extents
  float mass = 1;        ///< kg, > 0
  ObjectState state;     ///< in ground coordinates; the orientation is taken as given in 3D only
};

/// A type of body spawned during play (shoal::Peer::spawn): its shape, size and mass.
struct SpawnSpec {
  std::uint16_t type = 0;
  BodySpec::Shape shape = BodySpec::Shape::sphere;
  Vec3 size;       ///< sphere: radius in x; box: half extents
  float mass = 1;  ///< kg, > 0
};

struct WorldSpec {
  float half_x = 50, half_z = 50;  ///< walls (m)
  float linear_damping = 0.05f;    ///< 1/s, as the reference physics means it
  float angular_damping = 0.1f;    ///< 1/s
  float push_acceleration = 20;    ///< the adapters' push: m/s^2 of a full Input.axis
  float max_push_speed = 6;        ///< m/s
  std::vector<BodySpec> bodies;    ///< added in this order: body index = position here
  /// A diagnostic: false leaves the contacts out of the Bullet and Box2D adapters' restore
  /// (BulletRestoredParts, Box2dRestoredParts), to measure what an engine that cannot restore
  /// them would cost. The reference physics ignores it.
  bool restore_contacts = true;
  /// Spawn slots reserved after the bodies, and the types they take (docs/spawning.md). Only
  /// the reference physics has them: the other engines refuse a spec with slots.
  std::size_t spawn_slots = 0;
  std::vector<SpawnSpec> spawn_types;
};

/// The engine's world and its adapter; the adapter is what a Peer runs on.
class EngineWorld {
 public:
  explicit EngineWorld(Physics physics) : physics_(physics) {}
  virtual ~EngineWorld() = default;
  EngineWorld(const EngineWorld&) = delete;
  EngineWorld& operator=(const EngineWorld&) = delete;

  virtual Simulation& simulation() = 0;
  Physics physics() const { return physics_; }
  /// Box2D's world: a plane (x, y), z = 0.
  bool planar() const { return physics_ == Physics::box2d; }
  /// Where a point of the layout lies in this world.
  Vec3 to_world(Vec3 ground) const { return planar() ? Vec3{ground.x, ground.z, 0} : ground; }
  /// Where a point of this world lies in the layout: to_world's inverse (y, height, is 0 on the
  /// plane).
  Vec3 to_ground(Vec3 world) const { return planar() ? Vec3{world.x, 0, world.y} : world; }
  /// `to` (a difference of two positions in this world) along the ground: the direction an
  /// Input.axis pushes (not normalised).
  Vec3 along_ground(Vec3 to) const { return planar() ? Vec3{to.x, to.y, 0} : Vec3{to.x, 0, to.z}; }

 private:
  Physics physics_;
};

/// Builds `spec` on `physics`. Throws std::invalid_argument for an engine this build left out
/// (physics_problem() says why), or for spawn slots on an engine without them.
std::unique_ptr<EngineWorld> make_engine_world(Physics physics, const WorldSpec& spec);

}  // namespace shoal::samples
