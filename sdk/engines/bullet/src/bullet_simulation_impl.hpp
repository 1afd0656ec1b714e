// SPDX-License-Identifier: MIT
// BulletSimulation's state: what every adapter keeps (AdapterCore) and Bullet's own, shared by
// its body calls (bullet_simulation.cpp), its spawn slots (bullet_spawning.cpp) and its save
// and restore (bullet_snapshot.cpp).
#pragma once

#include <string>
#include <vector>

#include "adapter_core.hpp"
#include "bullet_world_parts.hpp"
#include "shoal/bullet_simulation.hpp"

namespace shoal {
namespace bullet {

/// What freezing a body changes, kept to put back when it thaws (as made, for a spawned body).
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

template <>
struct engines::AdapterImpl<BulletSimulation>
    : engines::AdapterCore<engines::AdapterImpl<BulletSimulation>, btRigidBody, bullet::Snapshot, bullet::SetAside, BulletSimulation::BodyMaker> {
  AdapterImpl(BulletWorld& w, const BulletSimulationConfig& c)
      : AdapterCore("BulletSimulation", c.history_frames), world(w), parts(w.parts()), config(c) {}

  // AdapterCore's hooks (adapter_core.hpp).
  void check_world();
  bool awake(const btRigidBody& body) const { return body.isActive(); }
  void push(btRigidBody& body, const Input& input) const;
  void run_step() { parts.dynamics.stepSimulation(config.dt, 0, config.dt); }
  ObjectState engine_state(BodyIndex b) const;
  /// write()'s effect on the engine: pose, velocities, and sleep or wake as at_rest says (a
  /// body already awake keeps its deactivation timer). Also what the adapter answers read().
  void apply(BodyIndex b, const ObjectState& state);
  void apply_placed(BodyIndex b, const ObjectState& state) { apply(b, state); }
  void make_static(BodyIndex b);
  void make_dynamic(BodyIndex b);
  void park(btRigidBody& body, std::size_t n);
  void forget_write(BodyIndex b) { applied_basis[b] = kNoWrite; }
  void body_added() { applied_basis.push_back(kNoWrite); }
  float radius_of(btRigidBody& body) const;
  bullet::SetAside kept_of(btRigidBody& body) const {
    return {body.getLinearFactor(), body.getAngularFactor(), body.getCollisionFlags(), ACTIVE_TAG, 0};
  }
  void check_new_body(btRigidBody& body, const char* call, const std::string& which) const;
  btRigidBody& make_body(const BulletSimulation::BodyMaker& make, const std::string& which);
  void take_snapshot(bullet::Snapshot& snapshot);
  void restore_snapshot(const bullet::Snapshot& snapshot);
  /// A frame not held: no contacts, timers from the at_rest flags.
  void restore_fresh();

  /// Static to Bullet and immovable to the solver, in place, and back as `kept` says.
  static void make_static(btRigidBody& body);
  static void make_dynamic(btRigidBody& body, const bullet::SetAside& kept);
  /// Puts the saved pairs, their algorithms and their manifolds' points back, touching only
  /// what differs from what the cache holds.
  void restore_pairs(const bullet::Snapshot& snapshot);
  /// manifolds_scratch = the pair's manifolds (at least `wanted`), making its algorithm first if
  /// it has none, as the narrow phase would.
  void collect_manifolds(btBroadphasePair& pair, int wanted);
  /// Makes the manifold's points exactly `points` (unless they are already).
  static void set_points(btPersistentManifold& manifold, const btManifoldPoint* points, int count);

  inline static const btMatrix3x3 kNoWrite{0, 0, 0, 0, 0, 0, 0, 0, 0};  // applied_basis before any write

  BulletWorld& world;
  BulletWorld::Parts& parts;
  BulletSimulationConfig config;
  std::vector<btMatrix3x3> applied_basis;      // per body: the rotation its last write set
  BulletRestoredParts restored;
  btManifoldArray manifolds_scratch;
  btAlignedObjectArray<bullet::SortedPairCache::Key> saved_keys;  // restore scratch
};

using BulletImpl = engines::AdapterImpl<BulletSimulation>;

}  // namespace shoal
