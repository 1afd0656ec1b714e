// SPDX-License-Identifier: MIT
// The peer's part that keeps the objects spawned during play: which spawn slot holds which
// object (as of every change heard), the timeline of spawns and removals the resimulator
// replays, each peer's spawn rate, the earliest frame a change heard late must be
// re-simulated from, and the changes heard before the match started here. Receiving changes
// and Peer::spawn / remove fill it (peer_spawning.cpp); the corrections at the start of each
// update drain resimulate_from.
//
// Slots: each peer spawns into its own range of max_objects_per_peer slots, so peers never
// pick the same slot and need not agree on anything but the frame: a frame's changes apply
// in one order everywhere (sync::WorldChange::before).
#pragma once

#include <algorithm>
#include <stdexcept>
#include <utility>
#include <vector>

#include "shoal/peer_config.hpp"
#include "shoal/simulation.hpp"
#include "sync/world_changes.hpp"
#include "wire/control_messages.hpp"

namespace shoal {

struct Spawning {
  Spawning(const SpawnConfig& spawn_config, const Simulation& simulation, int history_frames)
      : config(spawn_config),
        slots(simulation.spawn_slot_count()),
        first_slot(static_cast<BodyIndex>(simulation.body_count() - slots)),
        per_peer(std::min(spawn_config.max_objects_per_peer, std::max<std::size_t>(slots, 1))),
        ranges(std::max<std::size_t>(slots / per_peer, 1)),
        // Every change of the window: at most every slot emptied and filled once per frame
        // would be absurd; the rate limit bounds what peers may make per frame instead.
        timeline(std::max<std::size_t>(4 * slots, 64) + static_cast<std::size_t>(history_frames) * 4),
        slot_object(slots, 0),
        slot_type(slots, 0),
        slot_since(slots, kNoFrame),
        slot_born(slots, kNoFrame),
        slot_free_from(slots, kNoFrame),
        slot_bytes(slots),
        listed_by(slots, kNoPeer) {}

  /// Its invariants (the test build checks them every frame); throws std::logic_error.
  void validate() const {
    for (std::size_t k = 0; k < slots; ++k) {
      if (slot_object[k] == 0) continue;
      if ((slot_object[k] & kSpawnedIdBit) == 0) throw std::logic_error("Spawning: a live object without the spawned bit");
      if (range_of(spawner_of(slot_object[k])) != k / per_peer) {
        throw std::logic_error("Spawning: an object outside its spawner's range of slots");
      }
    }
    if (timeline.size() > timeline.capacity()) throw std::logic_error("Spawning: the timeline past its capacity");
  }

  bool enabled() const { return slots > 0; }
  bool is_slot(BodyIndex body) const { return body >= first_slot && body - first_slot < slots; }
  /// Whether spawn slot `body` holds an object at `frame`, as far as this peer knows.
  bool holds(BodyIndex body, Frame frame) const {
    const std::size_t k = body - first_slot;
    return slot_object[k] != 0 && frame >= slot_since[k];
  }
  static PeerId spawner_of(ObjectId object) { return static_cast<PeerId>((object >> 16) & 0x7FFF); }
  static ObjectId make_id(PeerId spawner, std::uint16_t sequence) {
    return kSpawnedIdBit | (static_cast<ObjectId>(spawner & 0x7FFF) << 16) | sequence;
  }
  std::size_t range_of(PeerId peer) const { return static_cast<std::size_t>(peer & 0x7FFF) % ranges; }
  /// Live objects `peer` spawned (they all sit in its range).
  std::size_t live_of(PeerId peer) const {
    const std::size_t begin = range_of(peer) * per_peer;
    std::size_t live = 0;
    for (std::size_t k = begin; k < begin + per_peer && k < slots; ++k) {
      live += slot_object[k] != 0 && spawner_of(slot_object[k]) == (peer & 0x7FFF) ? 1 : 0;
    }
    return live;
  }
  /// Counts a spawn of `peer` at `frame` against its rate; false (not counted) when over it.
  bool take_rate(PeerId peer, Frame frame, float tick_hz) {
    auto it = std::ranges::find_if(rates, [&](const Rate& r) { return r.peer == peer; });
    if (it == rates.end()) it = rates.insert(rates.end(), Rate{peer, frame, 0});
    // A window opens only forward: frames named out of order count in the current one.
    if (frame - it->window_start >= static_cast<Frame>(tick_hz)) {
      it->window_start = frame;
      it->count = 0;
    }
    if (it->count >= config.max_spawns_per_second) return false;
    ++it->count;
    return true;
  }
  /// Slot `spawn.slot` holds `spawn.object` from spawn.frame on.
  void fill(const wire::Spawn& spawn) {
    slot_object[spawn.slot] = spawn.object;
    slot_type[spawn.slot] = spawn.type;
    slot_since[spawn.slot] = spawn.frame;
    slot_born[spawn.slot] = spawn.frame;
    slot_bytes[spawn.slot] = spawn.bytes;
  }
  /// Slot `k` is empty from `frame` on.
  void empty(std::size_t k, Frame frame) {
    slot_object[k] = 0;
    slot_type[k] = 0;
    slot_bytes[k] = {};
    slot_free_from[k] = frame;
  }
  /// The earliest frame to re-simulate from for the changes heard late, then none.
  Frame take_resimulate_from() { return std::exchange(resimulate_from, kNoFrame); }

  SpawnConfig config;
  std::size_t slots;        // the simulation's spawn slots
  BodyIndex first_slot;     // body index of the first
  std::size_t per_peer;     // slots of one peer's range
  std::size_t ranges;       // ranges of per_peer slots
  sync::WorldChanges timeline;
  std::vector<ObjectId> slot_object;   // per slot: the live object, 0 = empty
  std::vector<std::uint16_t> slot_type;
  std::vector<Frame> slot_since;       // per slot: its object's first frame here
  std::vector<Frame> slot_born;        // per slot: its spawn frame as its spawner named it
  // Per slot: the frame of its last removal. A slot is empty from there on, and this peer
  // fills it again only from that frame: a removal scheduled for a frame still to come
  // would otherwise take the next object out of the slot.
  std::vector<Frame> slot_free_from;
  std::vector<wire::SpawnBytes> slot_bytes;  // per slot: its spawn bytes
  // Per slot: the peer whose live set, being received, listed its object (kNoPeer: none).
  std::vector<PeerId> listed_by;
  std::uint16_t next_sequence = 0;
  struct Rate {
    PeerId peer;
    Frame window_start;
    int count;
  };
  std::vector<Rate> rates;  // per peer that spawned: its spawns in the current second
  Frame resimulate_from = kNoFrame;
  wire::WorldChanges out, in;  // kept so that their vectors keep their capacity
  std::vector<std::pair<PeerId, wire::WorldChanges>> early_changes;  // heard before the match started here, in order
};

}  // namespace shoal
