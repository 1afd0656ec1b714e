// SPDX-License-Identifier: MIT
// Box2dSimulation's state, shared by its step and body calls (box2d_simulation.cpp) and its
// save and restore (box2d_snapshot.cpp).
#pragma once

#include <vector>

#include "body_table.hpp"
#include "box2d_internals.hpp"
#include "shoal/box2d_simulation.hpp"
#include "snapshot_ring.hpp"
#include "spawn_pool.hpp"

namespace shoal {
namespace box2d {

/// Engine-private state of one frame, as the world entered the next step.
struct Snapshot {
  struct Body {
    float sleep_time = 0;
    std::uint16_t flags = 0;
    bool frozen = false;
  };
  struct Contact {
    b2Fixture* fixture_a = nullptr;
    b2Fixture* fixture_b = nullptr;
    int32 child_a = 0, child_b = 0;
    std::uint32_t flags = 0;
    b2Manifold manifold{};
    float friction = 0, restitution = 0, restitution_threshold = 0, tangent_speed = 0;
    float toi = 0;
    int32 toi_count = 0;
  };
  std::vector<ObjectState> states;  // what the adapter held: a body written otherwise since
                                    // gets that write's effects again after the restore
  std::vector<Body> bodies;         // registered bodies
  std::vector<Contact> contacts;    // the world's contact list, head first
  std::vector<b2TreeNode> tree;     // the broad phase's node array, whole
  box2d_internals::TreeHeader tree_header;
  std::vector<int32> moved;         // the broad phase's move buffer
  bool new_contacts = false;
  float inverse_dt0 = 0;
  bool step_complete = true;
};

/// The radius around the body's origin that holds all its fixtures.
float bounding_radius_of(b2Body& body);

}  // namespace box2d

struct Box2dSimulation::Impl {
  Impl(b2World& w, const Box2dSimulationConfig& c) : world(w), config(c), snapshots(c.history_frames) {}

  struct Mass {
    box2d_internals::Mass exact;
    b2Vec2 local_center;
  };

  /// write()'s effect on the engine: pose (moving the body's proxies when it changes, or
  /// whenever `resync`), velocities, and sleep or wake as at_rest says (a body already awake
  /// keeps its sleep timer). Also what the adapter answers read().
  void apply(BodyIndex b, const ObjectState& state, bool resync = false);
  /// The body's state as the engine holds it.
  ObjectState engine_state(BodyIndex b) const;
  void freeze(BodyIndex b);
  void thaw(BodyIndex b);
  /// A dynamic body made static in place, and back with its mass as registered.
  void make_static(b2Body& body);
  void make_dynamic(b2Body& body, const Mass& mass);
  /// Spawn slot `b` holds no body (box2d_spawning.cpp): the engine's calls leave it alone.
  bool empty_slot(BodyIndex b) const { return spawn.empty_slot(b); }
  void push(b2Body& body, const Input& input) const;
  /// Throws std::logic_error when the world holds a dynamic body nobody registered.
  void check_every_dynamic_body_registered();
  b2BroadPhase& broad_phase() { return box2d_internals::contact_manager(world).m_broadPhase; }

  void take_snapshot(box2d::Snapshot& snapshot);
  void restore_snapshot(const box2d::Snapshot& snapshot);
  void restore_broad_phase(const box2d::Snapshot& snapshot);
  void rebuild_contacts(const box2d::Snapshot& snapshot);
  void destroy_contacts();
  /// A frame not held: no contacts, timers from the at_rest flags.
  void restore_fresh();

  b2World& world;
  Box2dSimulationConfig config;
  engines::BodyTable table{"Box2dSimulation"};
  std::vector<b2Body*> bodies;                      // per registered body
  std::vector<Mass> masses;                         // per body, as registered (for thawing)
  engines::SpawnPool<b2Body, BodyMaker, Mass> spawn;  // spawn slots (box2d_spawning.cpp)
  std::vector<std::uint8_t> was_awake;              // step scratch
  std::vector<float> applied_angle;                 // per body: the angle its last write set
  std::vector<box2d::Snapshot::Body> kept_sleep;    // restore scratch
  std::vector<const b2Body*> registered;            // sorted, for the check above
  int bodies_checked = -1;                          // the world's body count at the last check
  InputHandler input_handler;
  Box2dRestoredParts restored;
  engines::SnapshotRing<box2d::Snapshot> snapshots;
};

}  // namespace shoal
