// SPDX-License-Identifier: MIT
// Objects spawned and removed during play: Peer::spawn and Peer::remove, the changes other
// peers send, and the leave rule. A change becomes part of the timeline the resimulator
// replays (sync::WorldChanges); one of a frame this peer has already simulated is caught up
// from the frame before it by the next corrections, like an owner frame heard late, or, past
// what a catch-up may re-simulate, put in place at the newest frame.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "peer/peer_impl.hpp"
#include "wire/state_checks.hpp"

namespace shoal {
namespace {

// Puts a change into the timeline. One of a frame already simulated is re-simulated from the
// frame before it at the next corrections; past what a catch-up may reach, it takes effect at
// the newest frame (its owner's snapshots correct the rest). False, changing nothing, when the
// timeline is full (a flood the rate limit let through): dropped as over_limit.
bool schedule_existence(Peer::Impl& m, const sync::WorldChange& change) {
  Spawning& spawning = m.spawning;
  const world::FrameHistory& history = m.history;
  spawning.timeline.forget_before(history.oldest());
  if (!spawning.timeline.add(change)) {
    m.drop(DropReason::over_limit);
    return false;
  }
  if (change.frame > history.newest()) return true;  // the straight run applies it
  const Frame from = change.frame - 1;
  if (history.has(from) && history.newest() - from <= m.config.max_resimulated_frames) {
    spawning.resimulate_from = spawning.resimulate_from == kNoFrame ? from : std::min(spawning.resimulate_from, from);
  } else {
    m.resimulator.apply_now(change);
    m.touch(std::span(&change.body, 1));
  }
  return true;
}

void apply_spawn(Peer::Impl& m, PeerId spawner, const wire::Spawn& spawn) {
  const auto body = static_cast<BodyIndex>(m.spawning.first_slot + spawn.slot);
  if (!schedule_existence(m, {spawn.frame, sync::WorldChange::Kind::spawn, body, spawn.type, spawn.state, spawn.bytes})) {
    return;
  }
  m.spawning.fill(spawn);
  m.objects.rename(body, spawn.object);
  m.authority.ownership->assign(body, spawner, spawn.frame);
  m.note_owner_change(body);
  ++m.stats.objects_spawned;
}

void apply_removal(Peer::Impl& m, const wire::Removal& removal, BodyIndex body) {
  if (!schedule_existence(m, {removal.frame, sync::WorldChange::Kind::remove, body, 0, {}, {}})) return;
  const std::size_t k = body - m.spawning.first_slot;
  m.spawning.empty(k, removal.frame);
  m.objects.rename(body, world::ObjectTable::empty_slot_id(k));
  m.authority.ownership->assign(body, m.authority.ownership->default_owner(), removal.frame);
  m.note_owner_change(body);
  ++m.stats.objects_removed;
}

// By this peer, its owner: applied and sent.
void remove_spawned(Peer::Impl& m, BodyIndex body) {
  Spawning& spawning = m.spawning;
  // An object exists for one frame at least: one spawned for the next frame goes a frame later.
  const Frame since = spawning.slot_since[body - spawning.first_slot];
  const wire::Removal made{std::max(m.history.newest() + 1, since + 1), m.objects.id(body)};
  apply_removal(m, made, body);
  spawning.out.spawns.clear();
  spawning.out.removals.assign(1, made);
  spawning.out.live_set = false;
  m.broadcast(spawning.out);
}

// An object of `from`'s this peer holds, which `from`'s live set shows it removed while its
// changes could not reach this peer: it goes from the next frame (or the one after its first).
// Returns that frame.
Frame remove_unheard(Peer::Impl& m, std::size_t k) {
  const auto body = static_cast<BodyIndex>(m.spawning.first_slot + k);
  const Frame at = std::max(m.history.newest() + 1, m.spawning.slot_since[k] + 1);
  apply_removal(m, {at, m.spawning.slot_object[k]}, body);
  return at;
}

// The end of `from`'s live set: what this peer holds of the sender's and the set did not list,
// the sender removed unheard.
void end_live_set(Peer::Impl& m, PeerId from) {
  Spawning& s = m.spawning;
  for (std::size_t k = 0; k < s.slots; ++k) {
    const bool listed = s.listed_by[k] == from;
    if (listed) s.listed_by[k] = kNoPeer;
    const auto body = static_cast<BodyIndex>(s.first_slot + k);
    if (!listed && s.slot_object[k] != 0 && m.authority.owner_of(body) == from) remove_unheard(m, k);
  }
}

// A live set, as a newcomer gets it from each older peer, or a member whose link to the sender
// timed out and came back: the objects the sender owns, in as many messages as it takes, then
// one that lists none. Those new here exist from the newest frame on (their owner's snapshots
// then correct them). What this peer holds of the sender's in a listed object's slot, or not
// listed at all, the sender removed while its changes could not reach this peer (they were
// sent on the link that timed out): it goes.
void on_live_set(Peer::Impl& m, PeerId from, const wire::WorldChanges& message) {
  Spawning& s = m.spawning;
  if (message.spawns.empty()) return end_live_set(m, from);
  for (wire::Spawn spawn : message.spawns) {
    const std::size_t k = spawn.slot;
    // A peer asks for baselines again (after a loss, say): what it knows already is no news.
    if (k < s.slots && s.slot_object[k] == spawn.object) {
      s.listed_by[k] = from;
      continue;
    }
    const bool in_range = k < s.slots && k / s.per_peer == s.range_of(Spawning::spawner_of(spawn.object));
    const bool unheard = in_range && s.slot_object[k] != 0 &&
                         m.authority.owner_of(static_cast<BodyIndex>(s.first_slot + k)) == from;
    if (!in_range || m.objects.contains(spawn.object) || !m.sim.can_spawn(spawn.type) ||
        (s.slot_object[k] != 0 && !unheard) || spawn.bytes.size > s.config.max_spawn_bytes) {
      m.drop(DropReason::bad_spawn);
      continue;
    }
    const Frame born = spawn.frame;
    // Here it exists from now (this peer holds no frame before); in a slot emptied for it, from
    // the removal's frame.
    spawn.frame = unheard ? remove_unheard(m, k) : m.history.newest();
    apply_spawn(m, from, spawn);
    if (s.slot_object[k] == spawn.object) {
      s.slot_born[k] = born;
      s.listed_by[k] = from;
    }
  }
}

}  // namespace

ObjectId Peer::spawn(std::uint16_t type, const ObjectState& state, std::span<const std::uint8_t> spawn_bytes) {
  Impl& m = *impl_;
  if (m.session.phase != Impl::Phase::in_match) throw std::logic_error("shoal::Peer::spawn: not in a match yet");
  if (!m.spawning.enabled()) throw std::logic_error("shoal::Peer::spawn: the simulation has no spawn slots");
  if (!m.sim.can_spawn(type)) {
    throw std::invalid_argument("shoal::Peer::spawn: the simulation does not spawn type " + std::to_string(type));
  }
  if (!wire::is_plausible(state)) throw std::invalid_argument("shoal::Peer::spawn: a non-finite state or a non-unit orientation");
  if (spawn_bytes.size() > m.config.spawning.max_spawn_bytes) {
    throw std::invalid_argument("shoal::Peer::spawn: " + std::to_string(spawn_bytes.size()) +
                                " spawn bytes, expected at most SpawnConfig::max_spawn_bytes (" +
                                std::to_string(m.config.spawning.max_spawn_bytes) + ")");
  }
  const PeerId self = m.session.members.self();
  Spawning& s = m.spawning;
  if (s.live_of(self) >= s.per_peer) {
    throw std::runtime_error("shoal::Peer::spawn: " + std::to_string(s.per_peer) +
                             " objects of this peer alive (SpawnConfig::max_objects_per_peer)");
  }
  const Frame frame = m.history.newest() + 1;  // the next frame stepped is the first it exists in
  if (!s.take_rate(self, frame, m.config.tick_hz)) {
    throw std::runtime_error("shoal::Peer::spawn: past SpawnConfig::max_spawns_per_second");
  }
  // The lowest empty slot of this peer's range; the lowest sequence whose id is not alive.
  // Objects inherited from a departed peer of the same range may fill it too.
  const std::size_t begin = s.range_of(self) * s.per_peer;
  const std::size_t end = std::min(begin + s.per_peer, s.slots);
  std::size_t k = begin;
  while (k < end && (s.slot_object[k] != 0 || s.slot_free_from[k] > frame)) ++k;
  if (k == end) throw std::runtime_error("shoal::Peer::spawn: every slot of this peer's range is taken");
  ObjectId id = Spawning::make_id(self, s.next_sequence++);
  while (m.objects.contains(id)) id = Spawning::make_id(self, s.next_sequence++);
  wire::Spawn made{frame, id, static_cast<std::uint32_t>(k), type, state, {}};
  made.bytes.assign(spawn_bytes);
  apply_spawn(m, self, made);
  s.out.spawns.assign(1, made);
  s.out.removals.clear();
  s.out.live_set = false;
  m.broadcast(s.out);
  if (m.recorder) m.recorder->write().spawn(type, state, spawn_bytes, id);
  return id;
}

void Peer::remove(ObjectId object) {
  Impl& m = *impl_;
  if (m.session.phase != Impl::Phase::in_match) throw std::logic_error("shoal::Peer::remove: not in a match");
  const std::optional<BodyIndex> body = m.objects.find(object);
  if (!body || !m.spawning.is_slot(*body)) {
    throw std::invalid_argument("shoal::Peer::remove: object " + std::to_string(object) + " is no live spawned object");
  }
  if (m.authority.owner_of(*body) != m.session.members.self()) {
    throw std::logic_error("shoal::Peer::remove: object " + std::to_string(object) + " is owned by peer " +
                           std::to_string(m.authority.owner_of(*body)) + ", not this one");
  }
  remove_spawned(m, *body);
  if (m.recorder) m.recorder->write().remove(object);
}

std::vector<ObjectId> Peer::spawned_objects() const {
  std::vector<ObjectId> live;
  for (ObjectId id : impl_->spawning.slot_object) {
    if (id != 0) live.push_back(id);
  }
  std::ranges::sort(live);
  return live;
}

std::optional<SpawnedObject> Peer::spawned_object(ObjectId object) const {
  const Impl& m = *impl_;
  const std::optional<BodyIndex> body = m.objects.find(object);
  if (!body || !m.spawning.is_slot(*body)) return std::nullopt;
  const std::size_t k = *body - m.spawning.first_slot;
  if (m.spawning.slot_object[k] != object) return std::nullopt;
  SpawnedObject found;
  found.id = object;
  found.type = m.spawning.slot_type[k];
  found.spawner = Spawning::spawner_of(object);
  found.owner = m.authority.owner_of(*body);
  found.frame = m.spawning.slot_born[k];
  found.byte_count = m.spawning.slot_bytes[k].size;
  found.bytes = m.spawning.slot_bytes[k].data;
  return found;
}

// A newcomer's baseline request: the live objects this peer owns go first, so that the
// baseline after it (same channel, in order) names objects the newcomer knows; a message that
// lists none ends them.
void Peer::Impl::send_live_set(ConnectionId connection) {
  if (session.phase != Phase::in_match || !spawning.enabled()) return;
  constexpr std::size_t kObjectsPerMessage = 300;  // each message well under the control limit
  wire::WorldChanges& m = spawning.out;
  m.spawns.clear();
  m.removals.clear();
  m.live_set = true;
  const std::span<const ObjectState> states = history.newest_states();
  for (std::size_t k = 0; k < spawning.slots; ++k) {
    const auto body = static_cast<BodyIndex>(spawning.first_slot + k);
    if (spawning.slot_object[k] == 0 || authority.owned_by_me[body] == 0) continue;
    m.spawns.push_back({spawning.slot_born[k], spawning.slot_object[k], static_cast<std::uint32_t>(k),
                        spawning.slot_type[k], states[body], spawning.slot_bytes[k]});
    if (m.spawns.size() == kObjectsPerMessage) {
      send_to(connection, m);
      m.spawns.clear();
    }
  }
  if (!m.spawns.empty()) send_to(connection, m);
  m.spawns.clear();
  send_to(connection, m);  // the end
}

void Peer::Impl::apply_early_changes() {
  for (const auto& [from, message] : spawning.early_changes) on_world_changes(from, message, true);
  spawning.early_changes.clear();
}

void Peer::Impl::on_world_changes(PeerId from, const wire::WorldChanges& message, bool heard_early) {
  Spawning& s = spawning;
  if (session.phase != Phase::in_match) {
    // Kept in order, like early baselines: a change is sent once, and those made while this
    // peer joins name objects of the live sets it gets (before or after them).
    if (s.early_changes.size() < s.timeline.capacity() + session.members.remotes().size() * (s.slots / 300 + 1) + 8) {
      s.early_changes.emplace_back(from, message);
    } else {
      drop(DropReason::over_limit);
    }
    return;
  }
  if (message.live_set) return on_live_set(*this, from, message);
  for (wire::Removal r : message.removals) {
    const std::optional<BodyIndex> body = objects.find(r.object);
    if (!body || !s.is_slot(*body)) {
      // Heard while joining, of an object gone before the live set was made: no news.
      if (!heard_early) drop(DropReason::bad_spawn);
      continue;
    }
    const std::size_t k = *body - s.first_slot;
    if (r.frame < s.slot_born[k]) {
      drop(DropReason::bad_spawn);
    } else if (authority.owner_of(*body) != from) {
      drop(DropReason::not_owner);
    } else {
      // An object got in a live set exists here only from the frame it came in (slot_since):
      // a removal its owner made before that falls just after it.
      r.frame = std::max(r.frame, s.slot_since[k] + 1);
      apply_removal(*this, r, *body);
    }
  }
  for (const wire::Spawn& spawn : message.spawns) {
    const std::size_t k = spawn.slot;
    if (heard_early && k < s.slots && s.slot_object[k] == spawn.object) continue;  // a live set told of it
    const bool ours = Spawning::spawner_of(spawn.object) == (from & 0x7FFF) && k < s.slots &&
                      k / s.per_peer == s.range_of(from);
    if (!ours || objects.contains(spawn.object) || !sim.can_spawn(spawn.type) ||
        spawn.frame > history.newest() + spawn_horizon_frames(config) || spawn.bytes.size > s.config.max_spawn_bytes) {
      drop(DropReason::bad_spawn);
    } else if (s.live_of(from) >= s.per_peer || !s.take_rate(from, spawn.frame, config.tick_hz)) {
      drop(DropReason::over_limit);
    } else if (s.slot_object[k] != 0) {
      drop(DropReason::bad_spawn);
    } else {
      apply_spawn(*this, from, spawn);
    }
  }
}

// Once per frame: forgets what no catch-up can reach, and removes the objects this peer
// inherited from a peer that left when their type says so.
void Peer::Impl::spawning_frame() {
  if (!spawning.enabled()) return;
  spawning.timeline.forget_before(history.oldest());
  const PeerId self = session.members.self();
  for (std::size_t k = 0; k < spawning.slots; ++k) {
    const ObjectId id = spawning.slot_object[k];
    if (id == 0 || std::ranges::find(spawning.config.removed_on_leave, spawning.slot_type[k]) ==
                       spawning.config.removed_on_leave.end()) {
      continue;
    }
    const auto body = static_cast<BodyIndex>(spawning.first_slot + k);
    if (authority.owner_of(body) == self && !authority.ownership->is_live(Spawning::spawner_of(id))) remove_spawned(*this, body);
  }
}

}  // namespace shoal
