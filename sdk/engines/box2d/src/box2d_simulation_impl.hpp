// SPDX-License-Identifier: MIT
// Box2dSimulation's state: what every adapter keeps (AdapterCore) and Box2D's own, shared by
// its body calls (box2d_simulation.cpp), its spawn slots (box2d_spawning.cpp) and its save and
// restore (box2d_snapshot.cpp).
#pragma once

#include <limits>
#include <string>
#include <vector>

#include "adapter_core.hpp"
#include "box2d_internals.hpp"
#include "shoal/box2d_simulation.hpp"

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

/// What thawing a body needs: its mass as registered.
struct KeptMass {
  box2d_internals::Mass exact;
  b2Vec2 local_center;
};

}  // namespace box2d

template <>
struct engines::AdapterImpl<Box2dSimulation>
    : engines::AdapterCore<engines::AdapterImpl<Box2dSimulation>, b2Body, box2d::Snapshot, box2d::KeptMass, Box2dSimulation::BodyMaker> {
  AdapterImpl(b2World& w, const Box2dSimulationConfig& c) : AdapterCore("Box2dSimulation", c.history_frames), world(w), config(c) {}

  // AdapterCore's hooks (adapter_core.hpp).
  void check_world();
  bool awake(const b2Body& body) const { return body.IsAwake(); }
  void push(b2Body& body, const Input& input) const;
  void run_step() { world.Step(config.dt, config.velocity_iterations, config.position_iterations); }
  ObjectState engine_state(BodyIndex b) const;
  /// write()'s effect on the engine: pose (moving the body's proxies when it changes, or
  /// whenever `resync`), velocities, and sleep or wake as at_rest says (a body already awake
  /// keeps its sleep timer). Also what the adapter answers read().
  void apply(BodyIndex b, const ObjectState& state, bool resync = false);
  void apply_placed(BodyIndex b, const ObjectState& state) { apply(b, state, true); }
  void make_static(BodyIndex b) { make_static(*bodies[b]); }
  void make_dynamic(BodyIndex b);
  void park(b2Body& body, std::size_t n);
  void forget_write(BodyIndex b) { applied_angle[b] = kNoWrite; }
  void body_added() { applied_angle.push_back(kNoWrite); }
  float radius_of(b2Body& body) const { return box2d::bounding_radius_of(body); }
  box2d::KeptMass kept_of(b2Body& body) const { return {box2d_internals::mass(body), body.GetLocalCenter()}; }
  void check_new_body(b2Body& body, const char* call, const std::string& which) const;
  b2Body& make_body(const Box2dSimulation::BodyMaker& make, const std::string& which);
  void take_snapshot(box2d::Snapshot& snapshot);
  void restore_snapshot(const box2d::Snapshot& snapshot);
  /// A frame not held: no contacts, timers from the at_rest flags.
  void restore_fresh();

  /// A dynamic body made static in place (and asking for new contacts).
  void make_static(b2Body& body);
  b2BroadPhase& broad_phase() { return box2d_internals::contact_manager(world).m_broadPhase; }
  void restore_broad_phase(const box2d::Snapshot& snapshot);
  void rebuild_contacts(const box2d::Snapshot& snapshot);
  void destroy_contacts();

  static constexpr float kNoWrite = std::numeric_limits<float>::quiet_NaN();  // applied_angle before any write

  b2World& world;
  Box2dSimulationConfig config;
  std::vector<float> applied_angle;               // per body: the angle its last write set
  std::vector<box2d::Snapshot::Body> kept_sleep;  // restore scratch
  Box2dRestoredParts restored;
};

using Box2dImpl = engines::AdapterImpl<Box2dSimulation>;

}  // namespace shoal
