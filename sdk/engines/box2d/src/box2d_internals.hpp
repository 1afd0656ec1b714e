// SPDX-License-Identifier: MIT
// The members of Box2D 2.4's classes the adapter reads and writes without an accessor.
//
// Box2D has no way to save a world and put it back: a body's sleep timer, a contact's flags,
// the broad phase's tree and move buffer are all private. A step depends on every one of them
// (the tree's shape decides the order in which new contacts are made, and that order is the
// order the solver meets them in), so the adapter reaches them by name (box2d_internals.cpp).
// The names are checked when that compiles: a Box2D whose members differ fails the build
// instead of misbehaving.
#pragma once

#include <box2d/box2d.h>

namespace shoal::box2d_internals {

// b2Body
uint16& flags(b2Body& body);
float& sleep_time(b2Body& body);
/// What b2Body keeps of its mass; SetType() recomputes it from the fixtures, which need not be
/// what the game set.
struct Mass {
  float mass = 0, inverse_mass = 0, inertia = 0, inverse_inertia = 0;
};
Mass mass(b2Body& body);
void set_mass(b2Body& body, const Mass& mass);

// b2Contact
uint32& flags(b2Contact& contact);
float& toi(b2Contact& contact);
int32& toi_count(b2Contact& contact);

// b2Fixture: one proxy per child shape, in the broad phase
b2FixtureProxy* proxies(b2Fixture& fixture);

// b2World
bool& new_contacts(b2World& world);
float& inverse_dt0(b2World& world);
bool& step_complete(b2World& world);
/// b2World hands its contact manager out read-only, but the world itself is not const, so
/// writing through it is well defined.
b2ContactManager& contact_manager(b2World& world);

// b2BroadPhase and its b2DynamicTree
/// The tree's bookkeeping beside its node array.
struct TreeHeader {
  int32 root = 0, node_count = 0, node_capacity = 0, free_list = 0, insertion_count = 0;
};
TreeHeader tree_header(b2BroadPhase& broad_phase);
void set_tree_header(b2BroadPhase& broad_phase, const TreeHeader& header);
b2TreeNode* tree_nodes(b2BroadPhase& broad_phase);
/// The proxies waiting for new pairs (moved since the last pair update), in order.
const int32* move_buffer(b2BroadPhase& broad_phase);
int32& move_count(b2BroadPhase& broad_phase);

}  // namespace shoal::box2d_internals
