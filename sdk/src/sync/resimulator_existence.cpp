// SPDX-License-Identifier: MIT
// Existence under re-simulation: spawns and removals are applied by every step at their
// frame, and restoring a frame restores which spawn slots held bodies then. A catch-up across
// a spawn or a removal is then nothing special: restore, step, apply the frame's changes.
#include <algorithm>

#include "sync/resimulator.hpp"

namespace shoal::sync {
namespace {

// A slot_bytes() row's bytes (its first byte counts them); a row of size 0 holds none.
std::span<const std::uint8_t> row_bytes(std::span<const std::uint8_t> row) {
  return row.empty() ? row : row.subspan(1, row[0]);
}

}  // namespace

void Resimulator::set_spawn_bytes(std::size_t max) {
  const std::size_t slots = engine_exists_.size();
  history_.set_spawn_slots(history_.first_spawn_slot(), slots, max);
  engine_bytes_.assign(slots * history_.slot_bytes_stride(), 0);
}

// Slot k's row of engine_bytes_ (empty without spawn bytes).
std::span<std::uint8_t> Resimulator::engine_row(std::size_t k) {
  const std::size_t stride = history_.slot_bytes_stride();
  return std::span(engine_bytes_).subspan(k * stride, stride);
}

void Resimulator::set_engine_row(std::size_t k, std::span<const std::uint8_t> bytes) {
  const std::span<std::uint8_t> row = engine_row(k);
  if (row.empty()) return;
  std::ranges::fill(row, 0);
  const std::size_t count = std::min(bytes.size(), row.size() - 1);
  row[0] = static_cast<std::uint8_t>(count);
  std::copy_n(bytes.begin(), count, row.begin() + 1);
}

void Resimulator::apply_world_changes(Frame frame) {
  slot_changes_.clear();
  if (world_changes_ == nullptr) return;
  const BodyIndex first = history_.first_spawn_slot();
  const std::size_t slots = engine_exists_.size();
  for (const WorldChange& change : world_changes_->at(frame)) {
    if (change.body < first || change.body - first >= slots) continue;  // not a slot: the caller checks
    const std::size_t k = change.body - first;
    if (change.kind == WorldChange::Kind::remove) {
      if (engine_exists_[k] == 0) continue;  // already empty: nothing to undo
      sim_.remove_body(change.body);
      engine_exists_[k] = 0;
      engine_types_[k] = 0;
      set_engine_row(k, {});
    } else {
      if (engine_exists_[k] != 0) continue;  // taken: the first spawn in order keeps it
      sim_.add_body(change.body, change.type, change.state, change.bytes.view());
      engine_exists_[k] = 1;
      engine_types_[k] = change.type;
      set_engine_row(k, change.bytes.view());
    }
    if (std::ranges::find(slot_changes_, change.body) == slot_changes_.end()) slot_changes_.push_back(change.body);
  }
}

void Resimulator::apply_now(const WorldChange& change) {
  const BodyIndex first = history_.first_spawn_slot();
  if (change.body < first || change.body - first >= engine_exists_.size() || history_.empty()) return;
  const std::size_t k = change.body - first;
  const bool spawn = change.kind == WorldChange::Kind::spawn;
  if (engine_exists_[k] != 0) sim_.remove_body(change.body);
  if (spawn) sim_.add_body(change.body, change.type, change.state, change.bytes.view());
  engine_exists_[k] = spawn ? 1 : 0;
  engine_types_[k] = spawn ? change.type : std::uint16_t{0};
  set_engine_row(k, spawn ? change.bytes.view() : std::span<const std::uint8_t>{});
  const ObjectState state = spawn ? change.state : empty_slot_state();
  for (Frame f = std::max(change.frame, history_.oldest()); f <= history_.newest(); ++f) {
    history_.set(f, change.body, state);
    history_.slot_exists(f)[k] = engine_exists_[k];
    history_.slot_types(f)[k] = engine_types_[k];
    std::ranges::copy(engine_row(k), history_.slot_bytes(f, k).begin());
  }
}

void Resimulator::restore_existence(Frame frame) {
  const std::span<const std::uint8_t> exists = history_.slot_exists(frame);
  const std::span<const std::uint16_t> types = history_.slot_types(frame);
  const BodyIndex first = history_.first_spawn_slot();
  for (std::size_t k = 0; k < exists.size(); ++k) {
    const std::span<const std::uint8_t> held = history_.slot_bytes(frame, k);
    const bool same = engine_exists_[k] == exists[k] &&
                      (exists[k] == 0 || (engine_types_[k] == types[k] && std::ranges::equal(engine_row(k), held)));
    if (same) continue;  // the usual case: its state is written with the others'
    const auto body = static_cast<BodyIndex>(first + k);
    if (engine_exists_[k] != 0) sim_.remove_body(body);
    if (exists[k] != 0) sim_.add_body(body, types[k], history_.state(frame, body), row_bytes(held));
    engine_exists_[k] = exists[k];
    engine_types_[k] = exists[k] != 0 ? types[k] : std::uint16_t{0};
    set_engine_row(k, exists[k] != 0 ? row_bytes(held) : std::span<const std::uint8_t>{});
  }
}

void Resimulator::record_existence(Frame frame) {
  if (engine_exists_.empty()) return;
  std::ranges::copy(engine_exists_, history_.slot_exists(frame).begin());
  std::ranges::copy(engine_types_, history_.slot_types(frame).begin());
  const std::size_t stride = history_.slot_bytes_stride();
  if (stride > 0) {
    const std::span<std::uint8_t> rows = history_.slot_bytes(frame, 0);
    std::ranges::copy(engine_bytes_, std::span(rows.data(), engine_bytes_.size()).begin());
  }
}

std::span<const BodyIndex> Resimulator::with_slot_changes(std::span<const BodyIndex> changed) {
  if (slot_changes_.empty()) return changed;
  changed_and_slots_.assign(changed.begin(), changed.end());
  for (BodyIndex b : slot_changes_) {
    if (std::ranges::find(changed, b) == changed.end()) changed_and_slots_.push_back(b);
  }
  return changed_and_slots_;
}

}  // namespace shoal::sync
