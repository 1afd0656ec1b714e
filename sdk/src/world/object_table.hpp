// SPDX-License-Identifier: MIT
// ObjectId -> BodyIndex lookup. Messages name objects by id, and some name hundreds at once
// (a desync checksum lists every object its sender owns), so the lookup is a hash table: open
// addressing with linear probing, at most half full, built once. Deterministic: no seed.
#pragma once

#include <optional>
#include <span>
#include <vector>

#include "shoal/simulation.hpp"
#include "shoal/types.hpp"

namespace shoal::world {

class ObjectTable {
 public:
  ObjectTable() = default;
  /// Body i has ids[i]. Throws std::invalid_argument when two bodies share an id.
  explicit ObjectTable(std::span<const ObjectId> ids);
  /// The id an empty spawn slot is known by (k: its place among the slots). The spawning
  /// peer 0x7FFF is never a member's, so no spawned object has it.
  static constexpr ObjectId empty_slot_id(std::size_t k) {
    return kSpawnedIdBit | 0x7FFF0000u | static_cast<ObjectId>(k & 0xFFFFu);
  }
  /// Built from the simulation's bodies, in body order (spawn slots with their
  /// empty_slot_id()). Same duplicate rule.
  explicit ObjectTable(const Simulation& simulation);

  /// Gives body a new id (a spawn slot taking a spawned object's id, or its placeholder back
  /// when the object is removed). Throws std::invalid_argument when another body has the id.
  void rename(BodyIndex body, ObjectId id);

  std::optional<BodyIndex> find(ObjectId id) const;
  bool contains(ObjectId id) const { return find(id).has_value(); }
  /// The id of a body; body must be < size().
  ObjectId id(BodyIndex body) const { return ids_[body]; }
  std::size_t size() const { return ids_.size(); }

 private:
  static constexpr BodyIndex kFree = 0xFFFFFFFF;
  struct Slot {
    ObjectId id = 0;
    BodyIndex body = kFree;
  };
  void build();
  std::size_t home(ObjectId id) const;

  std::vector<ObjectId> ids_;  // by body
  std::vector<Slot> slots_;    // a power of two of them
  int shift_ = 0;              // 32 - log2(slots_.size())
};

}  // namespace shoal::world
