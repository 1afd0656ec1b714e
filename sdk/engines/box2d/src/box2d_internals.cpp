// SPDX-License-Identifier: MIT
// How box2d_internals.hpp reaches private members: naming one in an explicit template
// instantiation is allowed ([temp.spec]), so each Member<Tag, &Class::member> instantiation
// hands the member pointer to a friend function found through its tag. Explicit
// instantiations may appear once in a program: hence this one file.
#include "box2d_internals.hpp"

namespace shoal::box2d_internals {
namespace {

template <class Tag, typename Tag::type Pointer>
struct Member {
  friend typename Tag::type member_pointer(Tag) { return Pointer; }
};

template <class Tag, class Object>
auto& reach(Object& object) {
  return object.*member_pointer(Tag{});
}

#define SHOAL_BOX2D_MEMBER(Tag, Class, Type, name) \
  struct Tag {                                     \
    using type = Type Class::*;                    \
    friend type member_pointer(Tag);               \
  };                                               \
  template struct Member<Tag, &Class::name>

SHOAL_BOX2D_MEMBER(BodyFlags, b2Body, uint16, m_flags);
SHOAL_BOX2D_MEMBER(BodySleepTime, b2Body, float, m_sleepTime);
SHOAL_BOX2D_MEMBER(BodyMass, b2Body, float, m_mass);
SHOAL_BOX2D_MEMBER(BodyInverseMass, b2Body, float, m_invMass);
SHOAL_BOX2D_MEMBER(BodyInertia, b2Body, float, m_I);
SHOAL_BOX2D_MEMBER(BodyInverseInertia, b2Body, float, m_invI);
SHOAL_BOX2D_MEMBER(ContactFlags, b2Contact, uint32, m_flags);
SHOAL_BOX2D_MEMBER(ContactToi, b2Contact, float, m_toi);
SHOAL_BOX2D_MEMBER(ContactToiCount, b2Contact, int32, m_toiCount);
SHOAL_BOX2D_MEMBER(FixtureProxies, b2Fixture, b2FixtureProxy*, m_proxies);
SHOAL_BOX2D_MEMBER(WorldNewContacts, b2World, bool, m_newContacts);
SHOAL_BOX2D_MEMBER(WorldInverseDt0, b2World, float, m_inv_dt0);
SHOAL_BOX2D_MEMBER(WorldStepComplete, b2World, bool, m_stepComplete);
SHOAL_BOX2D_MEMBER(BroadPhaseTree, b2BroadPhase, b2DynamicTree, m_tree);
SHOAL_BOX2D_MEMBER(BroadPhaseMoveBuffer, b2BroadPhase, int32*, m_moveBuffer);
SHOAL_BOX2D_MEMBER(BroadPhaseMoveCount, b2BroadPhase, int32, m_moveCount);
SHOAL_BOX2D_MEMBER(TreeRoot, b2DynamicTree, int32, m_root);
SHOAL_BOX2D_MEMBER(TreeNodes, b2DynamicTree, b2TreeNode*, m_nodes);
SHOAL_BOX2D_MEMBER(TreeNodeCount, b2DynamicTree, int32, m_nodeCount);
SHOAL_BOX2D_MEMBER(TreeNodeCapacity, b2DynamicTree, int32, m_nodeCapacity);
SHOAL_BOX2D_MEMBER(TreeFreeList, b2DynamicTree, int32, m_freeList);
SHOAL_BOX2D_MEMBER(TreeInsertionCount, b2DynamicTree, int32, m_insertionCount);

#undef SHOAL_BOX2D_MEMBER

b2DynamicTree& tree(b2BroadPhase& broad_phase) { return reach<BroadPhaseTree>(broad_phase); }

}  // namespace

uint16& flags(b2Body& body) { return reach<BodyFlags>(body); }
float& sleep_time(b2Body& body) { return reach<BodySleepTime>(body); }

Mass mass(b2Body& body) {
  return {reach<BodyMass>(body), reach<BodyInverseMass>(body), reach<BodyInertia>(body),
          reach<BodyInverseInertia>(body)};
}

void set_mass(b2Body& body, const Mass& mass) {
  reach<BodyMass>(body) = mass.mass;
  reach<BodyInverseMass>(body) = mass.inverse_mass;
  reach<BodyInertia>(body) = mass.inertia;
  reach<BodyInverseInertia>(body) = mass.inverse_inertia;
}

uint32& flags(b2Contact& contact) { return reach<ContactFlags>(contact); }
float& toi(b2Contact& contact) { return reach<ContactToi>(contact); }
int32& toi_count(b2Contact& contact) { return reach<ContactToiCount>(contact); }

b2FixtureProxy* proxies(b2Fixture& fixture) { return reach<FixtureProxies>(fixture); }

bool& new_contacts(b2World& world) { return reach<WorldNewContacts>(world); }
float& inverse_dt0(b2World& world) { return reach<WorldInverseDt0>(world); }
bool& step_complete(b2World& world) { return reach<WorldStepComplete>(world); }
b2ContactManager& contact_manager(b2World& world) {
  return const_cast<b2ContactManager&>(world.GetContactManager());
}

TreeHeader tree_header(b2BroadPhase& broad_phase) {
  b2DynamicTree& t = tree(broad_phase);
  return {reach<TreeRoot>(t), reach<TreeNodeCount>(t), reach<TreeNodeCapacity>(t), reach<TreeFreeList>(t),
          reach<TreeInsertionCount>(t)};
}

void set_tree_header(b2BroadPhase& broad_phase, const TreeHeader& header) {
  b2DynamicTree& t = tree(broad_phase);
  reach<TreeRoot>(t) = header.root;
  reach<TreeNodeCount>(t) = header.node_count;
  reach<TreeFreeList>(t) = header.free_list;
  reach<TreeInsertionCount>(t) = header.insertion_count;
}

b2TreeNode* tree_nodes(b2BroadPhase& broad_phase) { return reach<TreeNodes>(tree(broad_phase)); }
const int32* move_buffer(b2BroadPhase& broad_phase) { return reach<BroadPhaseMoveBuffer>(broad_phase); }
int32& move_count(b2BroadPhase& broad_phase) { return reach<BroadPhaseMoveCount>(broad_phase); }

}  // namespace shoal::box2d_internals
