#include "sync/resimulator.hpp"

#include <algorithm>

namespace shoal::sync {

Resimulator::Resimulator(Simulation& simulation, world::FrameHistory& history,
                         const OwnerFrames& owner_frames, const InputLog& inputs)
    : sim_(simulation), history_(history), owner_frames_(owner_frames), inputs_(inputs) {
  state_scratch_.resize(sim_.body_count());
  confirmed_scratch_.resize(sim_.body_count());
}

void Resimulator::step_forward(std::span<const std::uint8_t> replay) {
  step_and_record(history_.newest() + 1, replay, true, false);
}

int Resimulator::resimulate(Frame from, std::span<const std::uint8_t> replay, bool inject) {
  const Frame to = history_.newest();
  if (!history_.has(from)) return 0;
  restore(from, inject);  // an override of the newest frame is just this
  for (Frame f = from + 1; f <= to; ++f) step_and_record(f, replay, inject, true);
  return to - from;
}

void Resimulator::restore(Frame frame, bool inject) {
  std::span<ObjectState> states = history_.states(frame);
  const auto count = static_cast<BodyIndex>(states.size());
  if (inject) {
    for (BodyIndex b = 0; b < count; ++b) {
      if (const ObjectState* owner = owner_frames_.find(frame, b)) {
        states[b] = *owner;
        history_.set_confirmed(frame, b, true);
      }
    }
  }
  // Bodies first: writing a body may reset engine state (waking it) that restore() then sets.
  for (BodyIndex b = 0; b < count; ++b) sim_.write(b, states[b]);
  if (user_bytes_ != nullptr) restore_user_bytes(frame, inject);
  sim_.restore(frame);
}

void Resimulator::step_and_record(Frame frame, std::span<const std::uint8_t> replay, bool inject,
                                  bool rewrite) {
  inputs_.gather(frame, input_scratch_);
  sim_.step(frame, input_scratch_);
  sim_.save(frame);
  const auto count = static_cast<BodyIndex>(state_scratch_.size());
  // The frame's rows are looked up once, not per body; a fresh frame has none until recorded.
  const std::span<ObjectState> held = rewrite ? history_.states(frame) : std::span<ObjectState>{};
  const bool replaying = rewrite && !replay.empty();
  for (BodyIndex b = 0; b < count; ++b) {
    const ObjectState* forced = inject ? owner_frames_.find(frame, b) : nullptr;
    confirmed_scratch_[b] = forced != nullptr ? 1 : 0;
    if (forced == nullptr && replaying && replay[b] != 0) forced = &held[b];
    if (forced != nullptr) {
      state_scratch_[b] = *forced;
      sim_.write(b, *forced);
    } else {
      state_scratch_[b] = sim_.read(b);
      if (filter_ != nullptr && filter_->apply(b, state_scratch_[b])) {
        sim_.write(b, state_scratch_[b]);
      }
    }
  }
  if (rewrite) {
    std::copy(state_scratch_.begin(), state_scratch_.end(), held.begin());
  } else {
    history_.record(frame, state_scratch_);
  }
  const std::span<std::uint8_t> confirmed = history_.confirmed_flags(frame);
  std::copy(confirmed_scratch_.begin(), confirmed_scratch_.end(), confirmed.begin());
  if (user_bytes_ != nullptr) record_user_bytes(frame, replay, inject, rewrite);
}

// User bytes follow their body's state: the owner's where injected, the recorded ones where
// replayed, else what the step made of them.
void Resimulator::restore_user_bytes(Frame frame, bool inject) {
  for (BodyIndex b : user_bytes_->bodies) {
    const std::span<std::uint8_t> held = history_.user_bytes(frame, b).first(user_bytes_->size[b]);
    if (inject && owner_frames_.find(frame, b) != nullptr) {
      const std::span<const std::uint8_t> owner = owner_frames_.user_bytes(frame, b);
      std::copy_n(owner.begin(), held.size(), held.begin());
    }
    sim_.write_user_bytes(b, held);
  }
}

void Resimulator::record_user_bytes(Frame frame, std::span<const std::uint8_t> replay, bool inject,
                                    bool rewrite) {
  const bool replaying = rewrite && !replay.empty();
  for (BodyIndex b : user_bytes_->bodies) {
    const std::span<std::uint8_t> held = history_.user_bytes(frame, b).first(user_bytes_->size[b]);
    if (inject && owner_frames_.find(frame, b) != nullptr) {
      const std::span<const std::uint8_t> owner = owner_frames_.user_bytes(frame, b);
      std::copy_n(owner.begin(), held.size(), held.begin());
      sim_.write_user_bytes(b, held);
    } else if (replaying && replay[b] != 0) {
      sim_.write_user_bytes(b, held);
    } else {
      sim_.read_user_bytes(b, held);
    }
  }
}

}  // namespace shoal::sync
