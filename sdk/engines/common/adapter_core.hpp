// SPDX-License-Identifier: MIT
// What an engine adapter does that is the same on every engine: the bodies it registered, the
// steps around the engine's own step, freezing, writes, saved frames and spawn slots. An
// adapter's Impl derives from AdapterCore<Impl, ...> and adds only engine calls (the hooks
// below); shoal::EngineSimulation (shoal/engine_simulation.hpp) answers Simulation from here.
//
// Hooks the Impl provides (Body is the engine's body type):
//   void check_world()                        before a step: the world is one a catch-up can replay
//   bool awake(const Body&) const             the engine would move it this step
//   void push(Body&, const Input&) const      the built-in input rule
//   void run_step()                           the engine's step
//   ObjectState engine_state(BodyIndex) const the body as the engine holds it
//   void apply(BodyIndex, const ObjectState&) write()'s effect on the engine (and on read())
//   void apply_placed(BodyIndex, const ObjectState&)  the same for a body just put in place
//   void make_static(BodyIndex) / make_dynamic(BodyIndex)  freezing and thawing, in place
//   void park(Body&, std::size_t n)           static and out of the way: pooled body n, unused
//   void forget_write(BodyIndex)              the body's next engine_state() reads the engine afresh
//   void body_added()                         a body (or slot) was appended: grow per-body data
//   float radius_of(Body&) const; Kept kept_of(Body&) const   registration's facts of a body
//   void check_new_body(Body&, const char* call, const std::string& which) const   what add_body refuses
//   Body& make_body(const Maker&, const std::string& which)   a spawn maker's body, checked
//   void take_snapshot(Snapshot&); void restore_snapshot(const Snapshot&); void restore_fresh()
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "body_table.hpp"
#include "shoal/simulation.hpp"
#include "snapshot_ring.hpp"
#include "spawn_pool.hpp"

namespace shoal::engines {

/// Impl: the adapter's state (CRTP); Body: the engine's body; Snapshot: one frame's
/// engine-private state; Kept: what making a body dynamic again needs; Maker: a spawn maker.
template <class Impl, class Body, class Snapshot, class Kept, class Maker>
class AdapterCore {
 public:
  AdapterCore(const char* name, int history_frames) : table(name), snapshots(history_frames) {}

  /// Registers a dynamic body of the world (Box2dSimulation::add_body(id, body, type)).
  BodyIndex register_body(ObjectId id, Body& body, std::uint16_t type) {
    const std::string which = "body " + std::to_string(id);
    if (!spawn.bodies.empty()) table.fail("add_body", which + " after the spawn slots: expected every body registered first");
    self().check_new_body(body, "add_body", which);
    check_unregistered(body, "add_body", which);
    const BodyIndex index = table.add(id, self().radius_of(body), type, ObjectState{});
    append(&body, self().kept_of(body));
    remember(body);
    self().apply(index, self().engine_state(index));
    snapshots.clear();  // saved frames lack the body
    return index;
  }

  Body& body(BodyIndex b) const { return *bodies.at(table.check(b, "body")); }

  void step(std::span<const BodyInput> inputs) {
    for (const BodyInput& in : inputs) {
      if (in.body >= table.size()) {
        table.fail("step", "input for body " + std::to_string(in.body) + ", but there are only " +
                               std::to_string(table.size()) + " bodies");
      }
    }
    self().check_world();
    if (Snapshot* snapshot = snapshots.take_marked()) self().take_snapshot(*snapshot);
    for (const BodyInput& in : inputs) {
      if (table.frozen(in.body) || empty_slot(in.body)) continue;
      if (input_handler) {
        input_handler(*bodies[in.body], in.input);
      } else {
        self().push(*bodies[in.body], in.input);
      }
    }
    for (BodyIndex b = 0; b < table.size(); ++b) was_awake[b] = self().awake(*bodies[b]) && !empty_slot(b) ? 1 : 0;
    self().run_step();
    // Only a body awake before or after the step can have moved (one asleep throughout kept its
    // pose and zero velocities): those are re-read and written back (see BodyTable).
    std::vector<BodyIndex>& changed = table.changed();
    changed.clear();
    for (BodyIndex b = 0; b < table.size(); ++b) {
      if (table.frozen(b) || empty_slot(b) || (was_awake[b] == 0 && !self().awake(*bodies[b]))) continue;
      changed.push_back(b);
      self().apply(b, self().engine_state(b));
    }
  }

  void write(BodyIndex b, const ObjectState& state) {
    table.check(b, "write");
    table.check_finite(b, state, "write");
    if (empty_slot(b)) return;  // an empty slot ignores writes
    self().apply(b, state);
  }

  void set_frozen(BodyIndex b, bool frozen) {
    table.check(b, "set_frozen");
    if (frozen == table.frozen(b)) return;
    if (empty_slot(b)) return table.set_frozen(b, frozen);  // kept for the body that fills it
    if (frozen) {
      freeze(b);
    } else {
      thaw(b);
    }
  }
  void freeze(BodyIndex b) {
    table.set_frozen(b, true);
    if (empty_slot(b)) return;
    self().make_static(b);
    self().apply(b, table.state(b));
  }
  void thaw(BodyIndex b) {
    if (!empty_slot(b)) self().make_dynamic(b);
    table.set_frozen(b, false);
    self().apply(b, table.state(b));
  }

  void save(Frame frame) { snapshots.mark(frame); }
  void restore(Frame frame) {
    if (frame == snapshots.marked()) return;  // the engine holds that frame, writes since included
    if (const Snapshot* snapshot = snapshots.find(frame)) {
      self().restore_snapshot(*snapshot);
    } else {
      self().restore_fresh();
    }
    snapshots.mark(frame);  // the next step takes the frame afresh, as it is now
  }

  // Spawn slots (spawn_pool.hpp): every body a slot may hold is made when the slots are
  // reserved and parked until a spawn puts it to use, so no body comes or goes during play
  // and saved frames stay valid whatever was spawned since.
  void add_spawn_slots(std::size_t count) {
    spawn.check_can_reserve(table);
    spawn.first_slot = static_cast<BodyIndex>(table.size());
    for (std::size_t k = 0; k < count; ++k) {
      for (const auto& [type, make] : spawn.types) {
        const std::string which = "the body made for type " + std::to_string(type);
        Body& body = self().make_body(make, which);
        check_unregistered(body, "add_spawn_slots", which);
        spawn.keep(body, self().kept_of(body), self().radius_of(body));
        remember(body);
        self().park(body, spawn.bodies.size() - 1);
      }
      spawn.add_slot(table, k);
      append(spawn.stand_in(k), spawn.kept[k * spawn.types.size()]);
    }
    bodies_checked = -1;
    snapshots.clear();  // saved frames lack the slots
  }
  void fill_slot(BodyIndex b, std::uint16_t type, const ObjectState& state) {
    const std::size_t n = spawn.fill(table, b, type, state);
    bodies[b] = spawn.bodies[n];
    kept[b] = spawn.kept[n];
    self().forget_write(b);
    if (!table.frozen(b)) self().make_dynamic(b);
    self().apply_placed(b, state);
  }
  void empty_slot_of(BodyIndex b) {
    const std::optional<std::size_t> n = spawn.empty(table, b, spawn.is_slot(b) ? bodies[b] : nullptr);
    if (!n) return;
    self().park(*spawn.bodies[*n], *n);
    const std::size_t k = b - spawn.first_slot;
    bodies[b] = spawn.stand_in(k);
    kept[b] = spawn.kept[k * spawn.types.size()];
  }
  /// Spawn slot `b` holds no body: the engine's calls leave it alone.
  bool empty_slot(BodyIndex b) const { return spawn.empty_slot(b); }

  BodyTable table;
  std::vector<Body*> bodies;               // per body: the engine's (a slot's: a parked one while empty)
  std::vector<Kept> kept;                  // per body: what making it dynamic again needs
  SpawnPool<Body, Maker, Kept> spawn;
  std::vector<const Body*> registered;     // sorted, for check_world()
  int bodies_checked = -1;                 // the world's body count at check_world()'s last look
  std::function<void(Body&, const Input&)> input_handler;
  SnapshotRing<Snapshot> snapshots;

 private:
  Impl& self() { return static_cast<Impl&>(*this); }
  const Impl& self() const { return static_cast<const Impl&>(*this); }

  void append(Body* body, const Kept& k) {
    bodies.push_back(body);
    kept.push_back(k);
    was_awake.push_back(0);
    self().body_added();
  }
  void check_unregistered(const Body& body, const char* call, const std::string& which) const {
    if (std::binary_search(registered.begin(), registered.end(), &body)) {
      table.fail(call, which + ": that body is registered already");
    }
  }
  void remember(const Body& body) {
    registered.insert(std::upper_bound(registered.begin(), registered.end(), &body), &body);
    bodies_checked = -1;
  }

  std::vector<std::uint8_t> was_awake;  // step scratch
};

}  // namespace shoal::engines
