// SPDX-License-Identifier: MIT
// BulletSimulation's state, shared by its step and body calls (bullet_simulation.cpp) and its
// save and restore (bullet_snapshot.cpp).
#pragma once

#include <string>
#include <vector>

#include "body_table.hpp"
#include "bullet_world_parts.hpp"
#include "shoal/bullet_simulation.hpp"
#include "snapshot_ring.hpp"
#include "spawn_pool.hpp"

namespace shoal {
namespace bullet {

/// What freezing a body changes, kept to put back when it thaws.
struct SetAside {
  btVector3 linear_factor{1, 1, 1};
  btVector3 angular_factor{1, 1, 1};
  int collision_flags = 0;
  int activation = ACTIVE_TAG;
  btScalar deactivation_time = 0;
};

/// Engine-private state of one frame, as the world entered the next step.
struct Snapshot {
  struct Body {
    int activation = ACTIVE_TAG;
    btScalar deactivation_time = 0;
    bool frozen = false;
    SetAside set_aside;
  };
  struct Pair {
    int first = 0, second = 0;  // proxy numbers
    int manifolds = -1;         // of its collision algorithm; -1: it had none
  };
  std::vector<ObjectState> states;  // what the adapter held: a body written otherwise since
                                    // gets that write's effects again after the restore
  std::vector<Body> bodies;
  std::vector<Pair> pairs;                   // in the cache's (sorted) order
  std::vector<int> manifold_points;          // per manifold, pair by pair
  std::vector<btManifoldPoint> points;       // manifold by manifold
  unsigned long solver_seed = 0;
};

}  // namespace bullet

struct BulletSimulation::Impl {
  Impl(BulletWorld& w, const BulletSimulationConfig& c)
      : world(w), parts(w.parts()), config(c), snapshots(c.history_frames) {}

  /// write()'s effect on the engine: pose, velocities, and sleep or wake as at_rest says (a
  /// body already awake keeps its deactivation timer). Also what the adapter answers read().
  void apply(BodyIndex b, const ObjectState& state);
  /// The body's state as the engine holds it.
  ObjectState engine_state(BodyIndex b) const;
  void freeze(BodyIndex b);
  void thaw(BodyIndex b);
  /// What freezing a body does to it, and what thawing undoes (as `kept` says).
  static void make_static(btRigidBody& body);
  static void make_dynamic(btRigidBody& body, const bullet::SetAside& kept);
  /// Spawn slot `b` holds no body (bullet_spawning.cpp): the engine's calls leave it alone.
  bool empty_slot(BodyIndex b) const { return spawn.empty_slot(b); }
  /// Throws std::invalid_argument (naming `call`) for a body add_body(id, body) refuses.
  void check_new_body(btRigidBody& body, const char* call, const std::string& which) const;
  void push(btRigidBody& body, const Input& input) const;
  /// Throws std::logic_error when the world holds a dynamic body nobody registered.
  void check_every_dynamic_body_registered();

  void take_snapshot(bullet::Snapshot& snapshot);
  void restore_snapshot(const bullet::Snapshot& snapshot);
  /// Puts the saved pairs, their algorithms and their manifolds' points back, touching only
  /// what differs from what the cache holds.
  void restore_pairs(const bullet::Snapshot& snapshot);
  /// manifolds_scratch = the pair's manifolds (at least `wanted`), making its algorithm first if
  /// it has none, as the narrow phase would.
  void collect_manifolds(btBroadphasePair& pair, int wanted);
  /// Makes the manifold's points exactly `points` (unless they are already).
  static void set_points(btPersistentManifold& manifold, const btManifoldPoint* points, int count);
  /// A frame not held: no contacts, timers from the at_rest flags.
  void restore_fresh();

  BulletWorld& world;
  BulletWorld::Parts& parts;
  BulletSimulationConfig config;
  engines::BodyTable table{"BulletSimulation"};
  std::vector<btRigidBody*> bodies;            // per registered body
  std::vector<bullet::SetAside> set_aside;     // per body, while frozen
  engines::SpawnPool<btRigidBody, BodyMaker, bullet::SetAside> spawn;  // spawn slots (bullet_spawning.cpp)
  std::vector<btMatrix3x3> applied_basis;      // per body: the rotation its last write set
  std::vector<std::uint8_t> was_active;        // step scratch
  std::vector<const btCollisionObject*> registered;  // sorted, for the check above
  int objects_checked = -1;                    // the world's object count at the last check
  InputHandler input_handler;
  BulletRestoredParts restored;
  engines::SnapshotRing<bullet::Snapshot> snapshots;
  btManifoldArray manifolds_scratch;
  btAlignedObjectArray<bullet::SortedPairCache::Key> saved_keys;  // restore scratch
};

}  // namespace shoal
