// SPDX-License-Identifier: MIT
// Counts what an engine's bodies do in straight steps (not in re-simulated ones): falling
// asleep, waking up, moving. A sync-test scene must show all three, or it proves little.
#pragma once

#include <vector>

#include "shoal/forwarding_simulation.hpp"

namespace shoal::test {

class SleepWatch final : public ForwardingSimulation {
 public:
  explicit SleepWatch(Simulation& inner) : ForwardingSimulation(inner), was_at_rest_(inner.body_count()) {
    for (BodyIndex b = 0; b < inner.body_count(); ++b) was_at_rest_[b] = inner.read(b).at_rest ? 1 : 0;
  }

  void step(Frame frame, std::span<const BodyInput> inputs) override {
    inner().step(frame, inputs);
    if (frame <= highest_) return;  // a re-simulation: counted once already
    highest_ = frame;
    for (BodyIndex b = 0; b < inner().body_count(); ++b) {
      const bool at_rest = inner().read(b).at_rest;
      if (at_rest && was_at_rest_[b] == 0) ++fell_asleep;
      if (!at_rest && was_at_rest_[b] != 0) ++woke_up;
      was_at_rest_[b] = at_rest ? 1 : 0;
    }
  }

  int fell_asleep = 0, woke_up = 0;

 private:
  std::vector<std::uint8_t> was_at_rest_;
  Frame highest_ = kNoFrame;
};

/// A simulation whose restore() forgets the engine's private state entirely: only the written
/// states come back. Sync-test mode must see the difference.
class NoRestore final : public ForwardingSimulation {
 public:
  using ForwardingSimulation::ForwardingSimulation;
  void restore(Frame) override {}
};

}  // namespace shoal::test
