#include "sync/resimulator.hpp"

#include <algorithm>

namespace shoal::sync {

Resimulator::Resimulator(Simulation& simulation, world::FrameHistory& history,
                         const OwnerFrames& owner_frames, const InputLog& inputs)
    : sim_(simulation), history_(history), owner_frames_(owner_frames), inputs_(inputs) {
  state_scratch_.resize(sim_.body_count());
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
  sim_.restore(frame);
}

void Resimulator::step_and_record(Frame frame, std::span<const std::uint8_t> replay, bool inject,
                                  bool rewrite) {
  inputs_.gather(frame, input_scratch_);
  sim_.step(frame, input_scratch_);
  sim_.save(frame);
  const auto count = static_cast<BodyIndex>(state_scratch_.size());
  for (BodyIndex b = 0; b < count; ++b) {
    const ObjectState* forced = inject ? owner_frames_.find(frame, b) : nullptr;
    const bool confirmed = forced != nullptr;
    if (forced == nullptr && rewrite && !replay.empty() && replay[b] != 0) {
      forced = &history_.states(frame)[b];
    }
    if (forced != nullptr) {
      state_scratch_[b] = *forced;
      sim_.write(b, *forced);
    } else {
      state_scratch_[b] = sim_.read(b);
      if (filter_ != nullptr) {
        filter_->apply(b, state_scratch_[b]);
        sim_.write(b, state_scratch_[b]);
      }
    }
    if (!rewrite) {
      // A fresh frame: record first (below), flags are set afterwards.
      continue;
    }
    history_.set_confirmed(frame, b, confirmed);
  }
  if (rewrite) {
    std::span<ObjectState> held = history_.states(frame);
    std::copy(state_scratch_.begin(), state_scratch_.end(), held.begin());
  } else {
    history_.record(frame, state_scratch_);
    for (BodyIndex b = 0; b < count; ++b) {
      history_.set_confirmed(frame, b, inject && owner_frames_.find(frame, b) != nullptr);
    }
  }
}

}  // namespace shoal::sync
