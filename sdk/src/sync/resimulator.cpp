// SPDX-License-Identifier: MIT
#include "sync/resimulator.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <stdexcept>
#include <string>

#include "sync/state_compare.hpp"

namespace shoal::sync {

Resimulator::Resimulator(Simulation& simulation, world::FrameHistory& history,
                         const OwnerFrames& owner_frames, const InputLog& inputs)
    : sim_(simulation),
      history_(history),
      owner_frames_(owner_frames),
      inputs_(inputs),
      changes_(simulation.body_count()),
      injected_(simulation.body_count()),
      stepped_(simulation.body_count()),
      newest_before_(simulation.body_count()),
      was_newest_(simulation.body_count()) {
  state_scratch_.resize(sim_.body_count());
  filtered_scratch_.reserve(sim_.body_count());
  changed_scratch_.resize(sim_.body_count());
  confirmed_scratch_.resize(sim_.body_count());
  engine_frozen_.resize(sim_.body_count());
  const std::size_t slots = sim_.spawn_slot_count();
  history_.set_spawn_slots(static_cast<BodyIndex>(sim_.body_count() - slots), slots);
  engine_exists_.resize(slots);
  engine_types_.resize(slots);
  slot_changes_.reserve(slots);
  changed_and_slots_.reserve(sim_.body_count());
}

void Resimulator::start(Frame frame) {
  history_.clear();
  apply_frozen({});
  const auto count = static_cast<BodyIndex>(state_scratch_.size());
  for (BodyIndex b = 0; b < count; ++b) state_scratch_[b] = read_filtered(b, frame);
  history_.record(frame, state_scratch_);
  record_existence(frame);
  changes_.clear();
  if (user_bytes_ != nullptr) {
    for (BodyIndex b : user_bytes_->bodies) {
      sim_.read_user_bytes(b, held_user_bytes(frame, b));
    }
  }
  sim_.save(frame);
}

void Resimulator::step_forward(std::span<const std::uint8_t> replay,
                               std::span<const std::uint8_t> frozen) {
  if (!frozen.empty() && frozen.size() != engine_frozen_.size()) {
    throw std::invalid_argument("Resimulator::step_forward: " + std::to_string(frozen.size()) +
                                " frozen flags, expected one per body (" +
                                std::to_string(engine_frozen_.size()) + ")");
  }
  const Frame frame = history_.newest() + 1;
  apply_frozen(frozen);
  step_and_record(frame, replay, Injection::owner_frames, Pass::first);
  if (!frozen.empty()) std::ranges::copy(frozen, history_.frozen_flags(frame).begin());
  changes_.clear();
  gather_changes(frame);
}

void Resimulator::gather_changes(Frame f) { changes_.add(history_.changed_at(f)); }

void Resimulator::apply_frozen(std::span<const std::uint8_t> frozen) {
  if (frozen.empty()) {
    if (std::ranges::find(engine_frozen_, std::uint8_t{1}) == engine_frozen_.end()) return;
  } else if (std::ranges::equal(frozen, engine_frozen_)) {
    return;  // the usual case: the set changes only when a region's edge is crossed
  }
  // A few flags changed (bodies crossing a region's edge): runs of equal flags are skipped a
  // word at a time.
  const std::size_t count = engine_frozen_.size();
  constexpr std::size_t kWord = sizeof(std::uint64_t);
  for (std::size_t b = 0; b < count; ++b) {
    if (b % kWord == 0 && b + kWord <= count && !frozen.empty() &&
        std::memcmp(&frozen[b], &engine_frozen_[b], kWord) == 0) {
      b += kWord - 1;
      continue;
    }
    const std::uint8_t wanted = frozen.empty() ? 0 : frozen[b];
    if (wanted == engine_frozen_[b]) continue;
    engine_frozen_[b] = wanted;
    sim_.set_frozen(static_cast<BodyIndex>(b), wanted != 0);
  }
}

int Resimulator::resimulate(Frame from, std::span<const std::uint8_t> replay, Injection injection) {
  const Frame to = history_.newest();
  if (!history_.has(from)) return 0;
  // What changed over the frames about to be rewritten, as they were: bodies outside it hold
  // the same state in every one of them, which the re-simulation will not change unless it
  // lists them anew.
  changes_.clear();
  for (Frame f = from + 1; f <= to; ++f) gather_changes(f);
  keep_newest(from, injection);
  restore(from, injection);  // an override of the newest frame is just this (existence too)
  for (Frame f = from + 1; f <= to; ++f) {
    apply_frozen(history_.frozen_flags(f));
    step_and_record(f, replay, injection, Pass::again);
    gather_changes(f);
  }
  return to - from;
}

void Resimulator::keep_newest(Frame from, Injection injection) {
  const bool inject = injection == Injection::owner_frames;
  // A body that no frame after `from` changed, and that `from` does not get injected, holds
  // the same state in every frame from `from` to the newest: row `from`, which the
  // re-simulation leaves alone, still tells what it was. Only the others need a copy.
  resimulated_from_ = from;
  was_newest_.clear();
  const std::span<const ObjectState> newest = history_.newest_states();
  auto keep = [&](BodyIndex b) {
    if (was_newest_.contains(b)) return;
    was_newest_.add(b);
    newest_before_[b] = newest[b];
  };
  for (BodyIndex b : changes_.bodies()) keep(b);
  if (inject) {
    for (BodyIndex b : owner_frames_.bodies_at(from)) keep(b);
  }
}

bool Resimulator::correct_frozen(Frame from, std::span<const BodyIndex> bodies) {
  const Frame to = history_.newest();
  if (!history_.has(from)) return false;
  for (Frame f = from + 1; f <= to; ++f) {
    const std::span<const std::uint8_t> frozen = history_.frozen_flags(f);
    for (BodyIndex b : bodies) {
      if (frozen[b] == 0) return false;
    }
  }
  changes_.clear();
  changes_.add(bodies);
  for (BodyIndex b : bodies) {
    const bool has_bytes = user_bytes_ != nullptr && user_bytes_->size[b] > 0;
    const ObjectState* carried = nullptr;  // the owner's latest state so far
    for (Frame f = from; f <= to; ++f) {
      if (const ObjectState* owner = owner_frames_.find(f, b)) {
        carried = owner;
        history_.set_confirmed(f, b, true);
        if (has_bytes) take_owner_user_bytes(f, b, held_user_bytes(f, b));
      } else if (carried == nullptr) {
        continue;  // before the body's first owner frame: its own state stands
      } else if (has_bytes) {
        std::ranges::copy(held_user_bytes(f - 1, b), held_user_bytes(f, b).begin());
      }
      history_.set(f, b, *carried);
    }
    sim_.write(b, history_.state(to, b));
    if (has_bytes) sim_.write_user_bytes(b, held_user_bytes(to, b));
  }
  return true;
}

void Resimulator::restore(Frame frame, Injection injection) {
  const bool inject = injection == Injection::owner_frames;
  const auto count = static_cast<BodyIndex>(history_.body_count());
  // Bodies first: writing a body may reset engine state (waking it) that restore() then sets.
  // An engine that lists its changed bodies holds the newest frame, and writing what a body
  // already holds changes nothing there: only the bodies that differ from it are written (the
  // injected ones always: when `frame` is the newest, they differ from what the engine holds
  // but no longer from the frame's row).
  const std::span<const ObjectState> current = history_.newest_states();
  const bool only_differences = sim_.changed_bodies().has_value();
  restore_existence(frame);  // bodies must exist before they are written
  if (inject) {
    for (BodyIndex b : owner_frames_.bodies_at(frame)) {
      if (const ObjectState* owner = owner_frames_.find(frame, b)) {
        history_.set(frame, b, *owner);
        history_.set_confirmed(frame, b, true);
        changes_.add(b);
        if (only_differences) sim_.write(b, *owner);
      }
    }
  }
  if (only_differences) {
    // Only bodies that changed after `frame` can differ from the newest frame's, which the
    // engine holds: they were gathered into changes_ already.
    for (BodyIndex b : changes_.bodies()) {
      const ObjectState& state = history_.state(frame, b);
      if (!bitwise_equal(state, current[b])) sim_.write(b, state);
    }
  } else {
    for (BodyIndex b = 0; b < count; ++b) {
      const ObjectState& state = history_.state(frame, b);
      if (!only_differences || !bitwise_equal(state, current[b])) sim_.write(b, state);
    }
  }
  if (user_bytes_ != nullptr) restore_user_bytes(frame, injection);
  sim_.restore(frame);
}

void Resimulator::step_and_record(Frame frame, std::span<const std::uint8_t> replay, Injection injection,
                                  Pass pass) {
  step_simulation(frame, pass);
  apply_world_changes(frame);
  sim_.save(frame);
  const std::optional<std::span<const BodyIndex>> changed = sim_.changed_bodies();
  if (changed) {
    record_changed_bodies(frame, with_slot_changes(*changed), replay, injection, pass);
  } else {
    record_every_body(frame, replay, injection, pass);
  }
  record_existence(frame);
}

void Resimulator::step_simulation(Frame frame, Pass pass) {
  inputs_.gather(frame, input_scratch_);
  if (!time_steps_) return sim_.step(frame, input_scratch_);
  using Clock = std::chrono::steady_clock;
  const Clock::time_point start = Clock::now();
  sim_.step(frame, input_scratch_);
  const std::int64_t ns = std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count();
  (pass == Pass::again ? resimulated_step_ns_ : straight_step_ns_) += ns;
}

ObjectState Resimulator::read_filtered(BodyIndex body, Frame frame) {
  ObjectState state = sim_.read(body);
  if (filter_ != nullptr && filter_->apply(body, frame, state)) sim_.write(body, state);
  return state;
}

void Resimulator::record_every_body(Frame frame, std::span<const std::uint8_t> replay, Injection injection,
                                    Pass pass) {
  const bool inject = injection == Injection::owner_frames;
  const bool rewrite = pass == Pass::again;
  const auto count = static_cast<BodyIndex>(state_scratch_.size());
  const bool replaying = rewrite && !replay.empty();
  for (BodyIndex b = 0; b < count; ++b) {
    const ObjectState* forced = inject ? owner_frames_.find(frame, b) : nullptr;
    confirmed_scratch_[b] = forced != nullptr ? 1 : 0;
    if (forced == nullptr && replaying && replay[b] != 0) forced = &history_.state(frame, b);
    if (forced != nullptr) {
      state_scratch_[b] = *forced;
      sim_.write(b, *forced);
    } else {
      state_scratch_[b] = read_filtered(b, frame);
    }
  }
  history_.record(frame, state_scratch_);  // the next frame, or a rewrite of this one
  const std::span<std::uint8_t> confirmed = history_.confirmed_flags(frame);
  std::copy(confirmed_scratch_.begin(), confirmed_scratch_.end(), confirmed.begin());
  if (user_bytes_ != nullptr) record_user_bytes(frame, replay, injection, pass);
}

// User bytes follow their body's state: the owner's where injected, the recorded ones where
// replayed, else what the step made of them.
std::span<std::uint8_t> Resimulator::held_user_bytes(Frame frame, BodyIndex body) {
  return history_.user_bytes(frame, body).first(user_bytes_->size[body]);
}

bool Resimulator::take_owner_user_bytes(Frame frame, BodyIndex body, std::span<std::uint8_t> held) const {
  if (owner_frames_.find(frame, body) == nullptr) return false;
  const std::span<const std::uint8_t> owner = owner_frames_.user_bytes(frame, body);
  std::copy_n(owner.begin(), held.size(), held.begin());
  return true;
}

void Resimulator::restore_user_bytes(Frame frame, Injection injection) {
  const bool inject = injection == Injection::owner_frames;
  for (BodyIndex b : user_bytes_->bodies) {
    const std::span<std::uint8_t> held = held_user_bytes(frame, b);
    if (inject) take_owner_user_bytes(frame, b, held);
    sim_.write_user_bytes(b, held);
  }
}

void Resimulator::record_user_bytes(Frame frame, std::span<const std::uint8_t> replay, Injection injection,
                                    Pass pass) {
  const bool inject = injection == Injection::owner_frames;
  const bool rewrite = pass == Pass::again;
  const bool replaying = rewrite && !replay.empty();
  for (BodyIndex b : user_bytes_->bodies) {
    const std::span<std::uint8_t> held = held_user_bytes(frame, b);
    if ((inject && take_owner_user_bytes(frame, b, held)) || (replaying && replay[b] != 0)) {
      sim_.write_user_bytes(b, held);
    } else {
      sim_.read_user_bytes(b, held);
    }
  }
}

void Resimulator::record_changed_bodies(Frame frame, std::span<const BodyIndex> changed,
                                        std::span<const std::uint8_t> replay, Injection injection,
                                        Pass pass) {
  const bool inject = injection == Injection::owner_frames;
  const bool rewrite = pass == Pass::again;
  const bool replaying = rewrite && !replay.empty();
  // The owner frames of this frame, looked up once: the passes below ask of every body they
  // visit whether it is injected, and a lookup in the owner frames' ring is a cache miss.
  injected_.clear();
  if (inject) {
    for (BodyIndex b : owner_frames_.bodies_at(frame)) {
      if (owner_frames_.find(frame, b) != nullptr) injected_.add(b);
    }
  }
  auto injected = [&](BodyIndex b) { return injected_.contains(b); };
  // The next frame starts after the filter has run, which reads nothing of the history, so
  // that its settling overlaps the misses of the frame the start drops.
  if (!rewrite) {
    history_.prefetch_advance();
  } else {
    const std::span<std::uint8_t> confirmed = history_.confirmed_flags(frame);
    std::fill(confirmed.begin(), confirmed.end(), std::uint8_t{0});
    // A replayed body keeps its recorded state; the engine, which the step did not move it
    // in, still holds the previous frame's. Every other body starts from the previous frame,
    // but for those the step moved or an owner's frame sets, which are written below.
    stepped_.clear();
    stepped_.add(changed);
    auto carry = [&](BodyIndex b) {
      if (stepped_.contains(b) || injected(b)) return;
      if (!replaying || replay[b] == 0) {
        history_.carry(frame, b);
      } else if (!bitwise_equal(history_.state(frame, b), history_.state(frame - 1, b))) {
        sim_.write(b, history_.state(frame, b));
      }
    };
    // A body outside changes_ (every frame's old list, what was injected at the start and
    // what the frames re-simulated so far changed) held one state from the start to this
    // frame, before and after: its state here already is the previous frame's.
    for (BodyIndex b : changes_.bodies()) carry(b);
  }
  // The bodies the step moved and nothing overrides are read, filtered all at once (the
  // quantiser settles several in one go), and recorded.
  filtered_scratch_.clear();
  for (BodyIndex b : changed) {
    if (injected(b)) continue;
    if (replaying && replay[b] != 0) {
      sim_.write(b, history_.state(frame, b));
    } else {
      filtered_scratch_.push_back(b);
    }
  }
  const std::span<const BodyIndex> filtered = filtered_scratch_;
  const std::span<ObjectState> states = std::span(state_scratch_).first(filtered.size());
  for (std::size_t k = 0; k < filtered.size(); ++k) states[k] = sim_.read(filtered[k]);
  if (filter_ != nullptr) {
    const std::span<std::uint8_t> rewritten = std::span(changed_scratch_).first(filtered.size());
    filter_->apply_all(filtered, frame, states, rewritten);
    for (std::size_t k = 0; k < filtered.size(); ++k) {
      if (rewritten[k] != 0) sim_.write(filtered[k], states[k]);
    }
  }
  if (!rewrite) history_.advance();  // every body carried over, flags cleared
  for (std::size_t k = 0; k < filtered.size(); ++k) history_.set(frame, filtered[k], states[k]);
  const std::span<std::uint8_t> confirmed = history_.confirmed_flags(frame);
  for (BodyIndex b : injected_.bodies()) {
    const ObjectState& owner = *owner_frames_.find(frame, b);
    history_.set(frame, b, owner);
    sim_.write(b, owner);
    confirmed[b] = 1;
  }
  if (user_bytes_ != nullptr) record_user_bytes(frame, replay, injection, pass);
}

}  // namespace shoal::sync
