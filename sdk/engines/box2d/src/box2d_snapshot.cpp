// SPDX-License-Identifier: MIT
// Box2dSimulation's save and restore: Box2D's private state of a frame (see snapshot_ring.hpp
// for why a frame is taken as the next step begins, adapter_core.hpp for when).
#include <cstring>

#include "box2d_simulation_impl.hpp"
#include "core/bitwise_equal.hpp"

namespace shoal {

namespace internals = box2d_internals;

void Box2dImpl::take_snapshot(box2d::Snapshot& s) {
  s.states.assign(table.states().begin(), table.states().end());
  s.bodies.resize(bodies.size());
  for (BodyIndex b = 0; b < bodies.size(); ++b) {
    s.bodies[b] = empty_slot(b) ? box2d::Snapshot::Body{0, 0, table.frozen(b)}
                                : box2d::Snapshot::Body{internals::sleep_time(*bodies[b]), internals::flags(*bodies[b]),
                                                        table.frozen(b)};
  }
  s.contacts.clear();
  for (b2Contact* c = world.GetContactList(); c != nullptr; c = c->GetNext()) {
    s.contacts.push_back({c->GetFixtureA(), c->GetFixtureB(), c->GetChildIndexA(), c->GetChildIndexB(),
                          internals::flags(*c), *c->GetManifold(), c->GetFriction(), c->GetRestitution(),
                          c->GetRestitutionThreshold(), c->GetTangentSpeed(), internals::toi(*c),
                          internals::toi_count(*c)});
  }
  b2BroadPhase& phase = broad_phase();
  s.tree_header = internals::tree_header(phase);
  const b2TreeNode* nodes = internals::tree_nodes(phase);
  s.tree.assign(nodes, nodes + s.tree_header.node_capacity);
  const int32* moved = internals::move_buffer(phase);
  s.moved.assign(moved, moved + internals::move_count(phase));
  s.new_contacts = internals::new_contacts(world);
  s.inverse_dt0 = internals::inverse_dt0(world);
  s.step_complete = internals::step_complete(world);
}

void Box2dImpl::restore_snapshot(const box2d::Snapshot& s) {
  // Body types first: freezing and thawing drop contacts and touch the broad phase, both of
  // which are put back next.
  for (BodyIndex b = 0; b < bodies.size(); ++b) {
    if (s.bodies[b].frozen == table.frozen(b)) continue;
    if (s.bodies[b].frozen) {
      freeze(b);
    } else {
      thaw(b);
    }
  }
  if (restored.broad_phase) restore_broad_phase(s);
  // Destroying a touching contact wakes both bodies (restarting their sleep timers): with sleep
  // left out of the restore, what they held before is kept instead.
  if (!restored.sleep) {
    kept_sleep.resize(bodies.size());
    for (BodyIndex b = 0; b < bodies.size(); ++b) {
      if (empty_slot(b)) continue;
      kept_sleep[b] = {internals::sleep_time(*bodies[b]), internals::flags(*bodies[b]), table.frozen(b)};
    }
  }
  if (restored.contacts) {
    rebuild_contacts(s);
  } else {
    destroy_contacts();
  }
  const std::vector<box2d::Snapshot::Body>& sleep = restored.sleep ? s.bodies : kept_sleep;
  for (BodyIndex b = 0; b < bodies.size(); ++b) {
    if (empty_slot(b)) continue;  // a parked body: restoring which slots hold bodies is Shoal's
    internals::sleep_time(*bodies[b]) = sleep[b].sleep_time;
    internals::flags(*bodies[b]) = sleep[b].flags;
    // A body written otherwise than it was then (an owner's state) gets the write's effects on
    // what was just restored: its proxies moved, asleep, or woken with a fresh timer.
    if (!core::bitwise_equal(table.state(b), s.states[b])) apply(b, table.state(b), true);
  }
}

void Box2dImpl::restore_broad_phase(const box2d::Snapshot& s) {
  b2BroadPhase& phase = broad_phase();
  if (internals::tree_header(phase).node_capacity == s.tree_header.node_capacity) {
    std::memcpy(internals::tree_nodes(phase), s.tree.data(), s.tree.size() * sizeof(b2TreeNode));
    internals::set_tree_header(phase, s.tree_header);
  }
  internals::move_count(phase) = 0;
  for (int32 proxy : s.moved) phase.TouchProxy(proxy);  // appends, growing the buffer if need be
  internals::new_contacts(world) = s.new_contacts;
  internals::inverse_dt0(world) = s.inverse_dt0;
  internals::step_complete(world) = s.step_complete;
}

void Box2dImpl::rebuild_contacts(const box2d::Snapshot& s) {
  b2ContactManager& manager = internals::contact_manager(world);
  b2ContactListener* listener = manager.m_contactListener;
  manager.m_contactListener = nullptr;  // the game saw these contacts begin and end already
  while (b2Contact* c = world.GetContactList()) manager.Destroy(c);
  // Box2D puts a new contact at the head of the world's list and of both bodies' lists: made
  // again in reverse, every list is in its saved order.
  for (auto saved = s.contacts.rbegin(); saved != s.contacts.rend(); ++saved) {
    const b2Contact* head = world.GetContactList();
    manager.AddPair(&internals::proxies(*saved->fixture_a)[saved->child_a],
                    &internals::proxies(*saved->fixture_b)[saved->child_b]);
    b2Contact* c = world.GetContactList();
    if (c == head) continue;  // refused: a filter that no longer lets the pair collide
    internals::flags(*c) = saved->flags;
    *c->GetManifold() = saved->manifold;
    c->SetFriction(saved->friction);
    c->SetRestitution(saved->restitution);
    c->SetRestitutionThreshold(saved->restitution_threshold);
    c->SetTangentSpeed(saved->tangent_speed);
    internals::toi(*c) = saved->toi;
    internals::toi_count(*c) = saved->toi_count;
  }
  manager.m_contactListener = listener;
}

void Box2dImpl::destroy_contacts() {
  b2ContactManager& manager = internals::contact_manager(world);
  b2ContactListener* listener = manager.m_contactListener;
  manager.m_contactListener = nullptr;
  while (b2Contact* c = world.GetContactList()) manager.Destroy(c);
  manager.m_contactListener = listener;
  // Every proxy looks for its pairs again when the next step begins, so that no contact is
  // missing (new ones carry no impulses).
  b2BroadPhase& phase = broad_phase();
  for (b2Body* body = world.GetBodyList(); body != nullptr; body = body->GetNext()) {
    if (!body->IsEnabled()) continue;  // a disabled body has no proxies
    for (b2Fixture* f = body->GetFixtureList(); f != nullptr; f = f->GetNext()) {
      const b2FixtureProxy* proxies = internals::proxies(*f);
      for (int32 child = 0; child < f->GetShape()->GetChildCount(); ++child) phase.TouchProxy(proxies[child].proxyId);
    }
  }
  internals::new_contacts(world) = true;
}

void Box2dImpl::restore_fresh() {
  destroy_contacts();
  for (BodyIndex b = 0; b < bodies.size(); ++b) {
    if (table.frozen(b) || table.state(b).at_rest || empty_slot(b)) continue;
    internals::sleep_time(*bodies[b]) = 0;
  }
}

}  // namespace shoal
