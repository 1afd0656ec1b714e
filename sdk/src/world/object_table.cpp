#include "world/object_table.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace shoal::world {

ObjectTable::ObjectTable(std::span<const ObjectId> ids) : ids_(ids.begin(), ids.end()) {
  build();
}

ObjectTable::ObjectTable(const Simulation& simulation) {
  ids_.reserve(simulation.body_count());
  for (BodyIndex b = 0; b < simulation.body_count(); ++b) ids_.push_back(simulation.body_id(b));
  build();
}

void ObjectTable::build() {
  by_id_.reserve(ids_.size());
  for (BodyIndex b = 0; b < ids_.size(); ++b) by_id_.push_back({ids_[b], b});
  std::sort(by_id_.begin(), by_id_.end(), [](const Entry& x, const Entry& y) {
    return x.id != y.id ? x.id < y.id : x.body < y.body;
  });
  for (std::size_t i = 1; i < by_id_.size(); ++i) {
    if (by_id_[i].id == by_id_[i - 1].id) {
      throw std::invalid_argument("ObjectTable: object id " + std::to_string(by_id_[i].id) +
                                  " is used by bodies " + std::to_string(by_id_[i - 1].body) +
                                  " and " + std::to_string(by_id_[i].body) +
                                  "; every body needs its own id");
    }
  }
}

std::optional<BodyIndex> ObjectTable::find(ObjectId id) const {
  // Games often number their objects in body order: then the id is the index, and a search
  // (ten mispredicted halvings for a thousand objects, for every object a message names) is
  // not needed. Ids are unique, so a body holding this id is the one.
  if (id < ids_.size() && ids_[static_cast<std::size_t>(id)] == id) return static_cast<BodyIndex>(id);
  const auto it = std::lower_bound(by_id_.begin(), by_id_.end(), id,
                                   [](const Entry& e, ObjectId key) { return e.id < key; });
  if (it == by_id_.end() || it->id != id) return std::nullopt;
  return it->body;
}

}  // namespace shoal::world
