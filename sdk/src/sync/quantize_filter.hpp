// Quantisation on both sides: installed on the Resimulator, it rounds every body's state to
// what a snapshot can carry after every step, on the owner and on every receiver, so owner
// frames and own frames are the same values and exact compare is meaningful.
#pragma once

#include <cstdint>
#include <vector>

#include "sync/resimulator.hpp"
#include "sync/state_compare.hpp"
#include "wire/quantize.hpp"

namespace shoal::sync {

class QuantizeFilter final : public StateFilter {
 public:
  QuantizeFilter(const wire::Quantizer& quantizer, std::size_t bodies)
      : quantizer_(quantizer), last_(bodies), last_state_(bodies), fixed_(bodies, 0) {}

  bool apply(BodyIndex body, ObjectState& state) const override {
    // A body the step did not move (asleep: most of a large world) still holds a value this
    // filter produced and knows to be a fixed point: quantising it again would change nothing,
    // so the work and the write-back are skipped. Only fixed points are remembered, so the
    // result is the same pure function of the state whatever was filtered before (catch-up
    // depends on that).
    if (fixed_[body] && bitwise_equal(state, last_state_[body])) return false;
    const wire::SettledState result = quantizer_.settle_state(state, &clamped_);
    const ObjectState& settled = result.state;
    last_[body] = result.quantized;
    // Only a resting body comes back with the same state next step, so only its value is worth
    // remembering as a fixed point; a moving body would never hit the cache anyway.
    fixed_[body] = settled.at_rest && result.stable;
    last_state_[body] = settled;
    if (bitwise_equal(settled, state)) return false;
    state = settled;
    return true;
  }
  /// The quantised form of what body holds, when its state is the one this filter set last
  /// (exact even where quantising the state again would pick another encoding); else the
  /// state quantised afresh.
  wire::QuantizedState quantized(BodyIndex body, const ObjectState& state) const {
    return bitwise_equal(last_state_[body], state) ? last_[body] : quantizer_.quantize(state);
  }
  /// Fields clamped to the world bounds or speed limits so far.
  std::uint64_t clamped() const { return clamped_; }

 private:
  const wire::Quantizer& quantizer_;
  // apply() is const in the interface; these are a cache and a statistic.
  mutable std::vector<wire::QuantizedState> last_;
  mutable std::vector<ObjectState> last_state_;  // dequantize(last_)
  mutable std::vector<std::uint8_t> fixed_;      // last_state_ quantises to itself
  mutable std::uint64_t clamped_ = 0;
};

}  // namespace shoal::sync
