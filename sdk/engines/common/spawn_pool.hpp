// SPDX-License-Identifier: MIT
// What both adapters keep for their spawn slots (Simulation::spawn_slot_count): the spawned
// types and the functions that make their bodies, and the pool of bodies made up front, one
// per slot and type, parked while unused (box2d_spawning.cpp, bullet_spawning.cpp say how each
// engine parks a body). Slot k's body of type number t is pooled body k * types + t. The
// bookkeeping and the checks are here; making, waking and parking bodies is each engine's.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "body_table.hpp"
#include "shoal/simulation.hpp"

namespace shoal::engines {

/// Where pooled body n waits: far below any sane world, 4 m from the next (x, y; z is 0).
inline std::pair<float, float> parking_spot(std::size_t n) {
  return {4.0f * static_cast<float>(n % 1024), -100000.0f - 4.0f * static_cast<float>(n / 1024)};
}

/// Body: the engine's body type; Maker: the game's function making one; Kept: what the
/// engine keeps per pooled body to make it dynamic again.
template <class Body, class Maker, class Kept>
struct SpawnPool {
  struct Type {
    std::uint16_t type;
    Maker make;
  };
  std::vector<Type> types;        // in declaration order
  BodyIndex first_slot = 0;
  std::vector<std::uint8_t> filled;  // per slot
  std::vector<Body*> bodies;         // slots x types
  std::vector<Kept> kept;            // per pooled body
  std::vector<float> radii;          // per pooled body

  std::size_t slot_count() const { return filled.size(); }
  bool is_slot(BodyIndex b) const { return b >= first_slot && b - first_slot < filled.size(); }
  bool empty_slot(BodyIndex b) const { return is_slot(b) && filled[b - first_slot] == 0; }
  bool can_spawn(std::uint16_t type) const { return find(type).has_value(); }
  std::optional<std::size_t> find(std::uint16_t type) const {
    for (std::size_t t = 0; t < types.size(); ++t) {
      if (types[t].type == type) return t;
    }
    return std::nullopt;
  }
  /// The parked body that stands for empty slot k (no call reaches it while the slot is empty).
  Body* stand_in(std::size_t k) const { return bodies[k * types.size()]; }

  /// set_spawn_type(): throws once slots exist or for an empty maker; a type declared again
  /// takes the new maker.
  void declare(const BodyTable& table, std::uint16_t type, Maker make) {
    if (!bodies.empty()) table.fail("set_spawn_type", "type " + std::to_string(type) + " after add_spawn_slots: expected every type first");
    if (!make) table.fail("set_spawn_type", "type " + std::to_string(type) + " given an empty maker");
    std::erase_if(types, [&](const Type& t) { return t.type == type; });
    types.push_back({type, std::move(make)});
  }
  /// add_spawn_slots()'s checks: once, after a type was declared.
  void check_can_reserve(const BodyTable& table) const {
    if (!bodies.empty()) table.fail("add_spawn_slots", "slots were added already: expected one call");
    if (types.empty()) table.fail("add_spawn_slots", "no spawned type: expected set_spawn_type() first");
  }
  /// Keeps a body just made for the pool.
  void keep(Body& body, const Kept& dynamic, float radius) {
    bodies.push_back(&body);
    kept.push_back(dynamic);
    radii.push_back(radius);
  }
  /// Registers slot k (its pooled bodies kept already) in the table, empty.
  void add_slot(BodyTable& table, std::size_t k) {
    table.add(kSpawnedIdBit | 0x7FFF0000u | static_cast<ObjectId>(k), 0, 0, empty_slot_state());
    filled.push_back(0);
  }
  /// add_body()'s checks and bookkeeping: marks slot b filled with `type`, gives the table its
  /// radius and type, and returns the pooled body's number.
  std::size_t fill(BodyTable& table, BodyIndex b, std::uint16_t type, const ObjectState& state) {
    if (!empty_slot(b)) table.fail("add_body", "body " + std::to_string(b) + " is not an empty spawn slot");
    const std::optional<std::size_t> t = find(type);
    if (!t) table.fail("add_body", "type " + std::to_string(type) + " has no maker: expected set_spawn_type() first");
    table.check_finite(b, state, "add_body");
    const std::size_t k = b - first_slot;
    const std::size_t n = k * types.size() + *t;
    filled[k] = 1;
    table.set_radius(b, radii[n]);
    table.set_type(b, type);
    return n;
  }
  /// remove_body()'s checks and bookkeeping: the number of `active`, the body slot b holds,
  /// with the slot marked empty and the table reading it as empty; nullopt when it was empty.
  std::optional<std::size_t> empty(BodyTable& table, BodyIndex b, const Body* active) {
    if (!is_slot(b)) table.fail("remove_body", "body " + std::to_string(b) + " is not a spawn slot");
    if (empty_slot(b)) return std::nullopt;
    filled[b - first_slot] = 0;
    table.state(b) = empty_slot_state();
    table.set_radius(b, 0);
    table.set_type(b, 0);
    return static_cast<std::size_t>(std::ranges::find(bodies, active) - bodies.begin());
  }
};

}  // namespace shoal::engines
