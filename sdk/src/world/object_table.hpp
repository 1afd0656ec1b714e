// ObjectId -> BodyIndex lookup: a vector sorted by id, searched by bisection (deterministic,
// no hashing, one allocation at build time).
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
  /// Built from the simulation's bodies, in body order. Same duplicate rule.
  explicit ObjectTable(const Simulation& simulation);

  std::optional<BodyIndex> find(ObjectId id) const;
  bool contains(ObjectId id) const { return find(id).has_value(); }
  /// The id of a body; body must be < size().
  ObjectId id(BodyIndex body) const { return ids_[body]; }
  std::size_t size() const { return ids_.size(); }

 private:
  struct Entry {
    ObjectId id;
    BodyIndex body;
  };
  void build();

  std::vector<ObjectId> ids_;     // by body
  std::vector<Entry> by_id_;      // sorted by id
};

}  // namespace shoal::world
