// SPDX-License-Identifier: MIT
#include "world/object_table.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace shoal::world {

ObjectTable::ObjectTable(std::span<const ObjectId> ids) : ids_(ids.begin(), ids.end()) {
  build();
}

ObjectTable::ObjectTable(const Simulation& simulation) {
  ids_.reserve(simulation.body_count());
  const std::size_t fixed = simulation.body_count() - simulation.spawn_slot_count();
  for (BodyIndex b = 0; b < fixed; ++b) ids_.push_back(simulation.body_id(b));
  // Spawn slots are not asked: until something is spawned there, each has its placeholder.
  for (BodyIndex b = 0; b < simulation.spawn_slot_count(); ++b) ids_.push_back(empty_slot_id(b));
  build();
}

void ObjectTable::build() {
  // At least twice the bodies: probe runs stay short, and a free slot always ends a search.
  const std::size_t size = std::bit_ceil(std::max<std::size_t>(2, 2 * ids_.size()));
  slots_.assign(size, Slot{});
  shift_ = 32 - std::countr_zero(size);
  for (BodyIndex b = 0; b < ids_.size(); ++b) {
    const ObjectId id = ids_[b];
    std::size_t i = home(id);
    for (; slots_[i].body != kFree; i = (i + 1) & (size - 1)) {
      if (slots_[i].id == id) {
        throw std::invalid_argument("ObjectTable: object id " + std::to_string(id) + " is used by bodies " +
                                    std::to_string(slots_[i].body) + " and " + std::to_string(b) +
                                    "; every body needs its own id");
      }
    }
    slots_[i] = {id, b};
  }
}

// Fibonacci hashing: the top bits of the id times 2^32 / golden ratio, which spreads ids
// that games hand out in runs (1000, 1001, ...) over the whole table.
std::size_t ObjectTable::home(ObjectId id) const {
  return static_cast<std::size_t>(static_cast<std::uint32_t>(id * 0x9E3779B1u) >> shift_);
}

void ObjectTable::rename(BodyIndex body, ObjectId id) {
  const ObjectId old = ids_.at(body);
  if (old == id) return;
  if (const auto holder = find(id)) {
    throw std::invalid_argument("ObjectTable::rename: object id " + std::to_string(id) + " is body " +
                                std::to_string(*holder) + "'s");
  }
  // Linear probing: take the old entry out, then move back every entry after it in its run
  // that would no longer be found past the hole (the shift deletion that keeps every search
  // ending at a free slot).
  const std::size_t mask = slots_.size() - 1;
  std::size_t hole = home(old);
  while (slots_[hole].id != old || slots_[hole].body != body) hole = (hole + 1) & mask;
  slots_[hole] = Slot{};
  for (std::size_t i = (hole + 1) & mask; slots_[i].body != kFree; i = (i + 1) & mask) {
    const std::size_t want = home(slots_[i].id);
    // The entry at i may fill the hole unless its home lies cyclically in (hole, i].
    const bool home_after_hole = hole <= i ? (want > hole && want <= i) : (want > hole || want <= i);
    if (home_after_hole) continue;
    slots_[hole] = slots_[i];
    slots_[i] = Slot{};
    hole = i;
  }
  std::size_t i = home(id);
  while (slots_[i].body != kFree) i = (i + 1) & mask;
  slots_[i] = {id, body};
  ids_[body] = id;
}

std::optional<BodyIndex> ObjectTable::find(ObjectId id) const {
  if (slots_.empty()) return std::nullopt;  // default-constructed
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t i = home(id);; i = (i + 1) & mask) {
    const Slot& slot = slots_[i];
    if (slot.body == kFree) return std::nullopt;
    if (slot.id == id) return slot.body;
  }
}

}  // namespace shoal::world
