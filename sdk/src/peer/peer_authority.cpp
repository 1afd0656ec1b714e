// SPDX-License-Identifier: MIT
// Regions and ownership, once per simulated frame, and the ownership messages.
#include <algorithm>

#include "peer/peer_impl.hpp"

namespace shoal {
namespace {

// This peer's record of an object it owns, as sent to a newcomer.
wire::OwnershipChange owned_record(const AuthorityState& authority, const world::ObjectTable& objects, PeerId self,
                                   BodyIndex b) {
  const authority::OwnerRecord& r = authority.ownership->record(b);
  return {objects.id(b), self, r.sequence, r.author, r.frame};
}

// Tells `peer` this peer's record of an object it owns.
void tell_record(Peer::Impl& m, PeerId peer, BodyIndex b) {
  const session::Member* member = m.session.members.find(peer);
  if (member == nullptr) return;
  wire::Ownership message;
  message.records = true;
  message.changes.push_back(owned_record(m.authority, m.objects, m.session.members.self(), b));
  m.send_to(member->connection, message);
}

}  // namespace

void Peer::Impl::update_regions_and_ownership(Frame frame) {
  if (authority.region_touched.all) {
    authority.regions.rebuild({history.newest_states(), authority.radii});
  } else {
    authority.regions.rebuild_touched({history.newest_states(), authority.radii}, authority.region_touched.bodies);
  }
  authority.region_touched.reset();
  // Every live peer's regions as seen here: ownership checks claims against them and
  // snapshots go to the peers whose simulated region holds an object. This peer's own regions
  // decide its claims and are kept exact; remote peers' only bound what they may claim and
  // what they are sent, so a few frames of staleness cost nothing and save a pass per peer.
  constexpr Frame kRemoteRegionInterval = 4;
  authority.controlled_scratch.clear();
  if (controlled) authority.controlled_scratch.push_back(*controlled);
  authority.regions.compute(authority.controlled_scratch, authority.regions_of(session.members.self()));
  for (const auto& [peer, body] : remote_controlled) {
    if ((frame + peer) % kRemoteRegionInterval != 0) continue;
    const BodyIndex controlled_of_peer[] = {body};
    authority.regions.compute(controlled_of_peer, authority.regions_of(peer));
  }
  // Only what this peer owns or its core holds can change hands here.
  const authority::PeerRegions& mine = authority.regions_of(session.members.self());
  authority.decide_candidates.assign(authority.owned_bodies.begin(), authority.owned_bodies.end());
  for (BodyIndex b : mine.core_bodies) {
    if (authority.owned_by_me[b] == 0) authority.decide_candidates.push_back(b);
  }
  // Spawned objects stay with their spawner (Peer::spawn): never claimed or handed over.
  if (spawning.enabled()) std::erase_if(authority.decide_candidates, [&](BodyIndex b) { return spawning.is_slot(b); });
  authority.ownership->decide(frame, authority.peer_regions, authority.regions.at_rest(), authority.decided,
                    [this](BodyIndex b) { return everyone_holds_resting_state(b); },
                    std::span<const BodyIndex>(authority.decide_candidates));
  send_decided_changes();
}

void Peer::Impl::send_decided_changes() {
  if (authority.decided.empty()) return;
  for (authority::OwnershipChange& c : authority.decided) c.object = objects.id(c.body);
  authority.ownership_out.changes.assign(authority.decided.begin(), authority.decided.end());
  broadcast(authority.ownership_out);
  for (const authority::OwnershipChange& c : authority.decided) note_owner_change(c.body);
}

// Whether every other peer acknowledged this body's state as it rests now. Only then may it go
// to the default owner: the heir's own copy may be stale (it froze the body, or simulated it
// without the corrections only peers near it get), and its frames would become everyone's.
// Without quantisation nothing is acknowledged: the hand-over is not held back.
bool Peer::Impl::everyone_holds_resting_state(BodyIndex body) {
  if (!config.snapshots.quantize) return true;
  const Frame newest = history.newest();
  const wire::QuantizedState resting = quantizer.quantize(history.state(newest, body));
  const std::size_t size = user_bytes.size[body];
  for (const session::Member& m : session.members.remotes()) {
    const SnapshotLink* link = links.find(m.id);
    const wire::QuantizedState* acked = link != nullptr ? link->sent.acknowledged(body) : nullptr;
    if (acked == nullptr || !(*acked == resting)) return false;
    if (size > 0 && !std::ranges::equal(link->sent.baseline_user_bytes(body).first(size),
                                        held_user_bytes(newest, body))) {
      return false;
    }
  }
  return true;
}

void Peer::Impl::apply_ownership(wire::OwnershipChange change, bool record) {
  const auto body = objects.find(change.object);
  // A change counts from a frame of the match (or from none, kNoFrame): no frame before 0.
  if (!body || change.frame < kNoFrame) return drop(DropReason::malformed);
  if (spawning.is_slot(*body)) return drop(DropReason::not_owner);  // spawned objects do not change hands
  change.body = *body;
  const authority::ApplyResult result =
      record ? authority.ownership->adopt(change, change.new_owner) : authority.ownership->apply(change, authority.peer_regions);
  switch (result) {
    case authority::ApplyResult::applied:
      note_owner_change(*body);
      break;
    case authority::ApplyResult::stale:
      // The normal outcome of a race: the table already holds the winner. But the author may
      // never have heard of it (a newcomer admitted just as the change was made gets neither
      // the change nor, from its maker, the record), and would keep its own claim for good: the
      // owner tells it what it holds, which the author then adopts.
      if (!record && authority.ownership->owner(*body) == session.members.self()) tell_record(*this, change.author, *body);
      break;
    case authority::ApplyResult::duplicate:
      break;
    case authority::ApplyResult::rejected_invalid:
      drop(DropReason::malformed);
      break;
    default:
      drop(DropReason::not_owner);
      break;
  }
}

void Peer::Impl::note_owner_changes() {
  for (BodyIndex b = 0; b < body_count; ++b) note_owner_change(b);
}

void Peer::Impl::note_owner_change(BodyIndex b) {
  const PeerId owner = authority.ownership->owner(b);
  const std::uint8_t mine = owner == session.members.self() ? 1 : 0;
  if (mine != authority.owned_by_me[b]) {
    authority.owned_by_me[b] = mine;
    // Kept in index order: snapshots list records by ascending index.
    const auto at = std::lower_bound(authority.owned_bodies.begin(), authority.owned_bodies.end(), b);
    if (mine) {
      authority.owned_bodies.insert(at, b);
    } else {
      authority.owned_bodies.erase(at);
    }
  }
  if (owner == authority.known_owner[b]) return;
  const bool first = authority.known_owner[b] == kNoPeer;
  authority.known_owner[b] = owner;
  if (first) return;  // the initial assignment is not a change
  // The new owner's frames count from the change on: whatever this peer holds for later
  // frames came from the old owner or its own prediction, so it is no longer confirmed.
  const authority::OwnerRecord& record = authority.ownership->record(b);
  const Frame since = record.frame;
  corrections.forensics.owner_changed(b, {since, owner, record.sequence, record.author, history.empty() ? kNoFrame : history.newest()});
  if (since != kNoFrame && !history.empty()) {
    owner_frames.forget_from(b, since);
    for (Frame f = std::max(since, history.oldest()); f <= history.newest(); ++f) {
      history.set_confirmed(f, b, false);
    }
  }
  links.forget_resets_but(owner, b);  // only the new owner sends it from now on
  take_held_record(b, owner, since);
  // A copy kept still here is held up against its new owner's word too: it may have come to
  // rest while this peer owned it (and was checked against nobody), or while the previous
  // owner was asked to repair it.
  if (mine == 0 && config.snapshots.quantize && !history.empty()) {
    rest_checks.changed(std::span(&b, 1), history.newest());
  }
  ++stats.ownership_changes;
  emit(make_event(EventKind::ownership_changed, owner, objects.id(b), history.newest()));
}

void Peer::Impl::send_owned_records(ConnectionId connection) {
  if (!authority.ownership) return;
  // A newcomer missed the claims made before it came: every peer tells it what it owns.
  constexpr std::size_t kRecordsPerMessage = 1024;
  wire::Ownership message;
  message.records = true;
  const PeerId self = session.members.self();
  for (BodyIndex b = 0; b < body_count; ++b) {
    const authority::OwnerRecord& r = authority.ownership->record(b);
    if (r.owner != self || r.sequence == 0) continue;  // never changed: the newcomer agrees
    message.changes.push_back(owned_record(authority, objects, self, b));
    if (message.changes.size() == kRecordsPerMessage) {
      send_to(connection, message);
      message.changes.clear();
    }
  }
  if (!message.changes.empty()) send_to(connection, message);
}

}  // namespace shoal
