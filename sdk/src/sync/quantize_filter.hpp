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
      : quantizer_(quantizer), last_(bodies) {}

  bool apply(BodyIndex body, ObjectState& state) const override {
    // A body the step did not move (asleep: most of a large world) still holds a value this
    // filter produced and knows to be a fixed point: quantising it again would change nothing,
    // so the work and the write-back are skipped. Only fixed points are remembered, so the
    // result is the same pure function of the state whatever was filtered before (catch-up
    // depends on that).
    Last& last = last_[body];
    if (last.fixed && bitwise_equal(state, last.state)) return false;
    settle_into(last, state);
    return take(last, state);
  }
  /// The code an owner sends for the state it holds, whose dequantisation is exactly that
  /// state, so that receivers hold what the owner holds. A state this filter set last has it
  /// remembered (exact even where quantising the state again would pick another encoding). Any
  /// other state (one that came from the previous owner, or a snap) is settled first, like a
  /// stepped state, because some dequantised orientations quantise to another code that
  /// dequantises elsewhere: `state` is replaced then, and true returned.
  bool encode(BodyIndex body, ObjectState& state, wire::QuantizedState& code) const {
    Last& last = last_[body];
    if (!bitwise_equal(last.state, state)) settle_into(last, state);
    code = last.quantized;
    return take(last, state);
  }
  /// Fields clamped to the world bounds or speed limits so far.
  std::uint64_t clamped() const { return clamped_; }

 private:
  struct Last;
  void settle_into(Last& last, const ObjectState& state) const {
    const wire::SettledState result = quantizer_.settle_state(state, &clamped_);
    last.quantized = result.quantized;
    last.state = result.state;
    // Only a resting body comes back with the same state next step, so only its value is worth
    // remembering as a fixed point; a moving body would never hit the cache anyway.
    last.fixed = result.state.at_rest && result.stable;
  }
  /// Gives `state` the value last set; whether that changed it.
  static bool take(const Last& last, ObjectState& state) {
    if (bitwise_equal(last.state, state)) return false;
    state = last.state;
    return true;
  }

  const wire::Quantizer& quantizer_;
  // Per body, the last value set, together: two cache lines per filtered body.
  struct alignas(64) Last {
    wire::QuantizedState quantized;
    ObjectState state;   // dequantize(quantized)
    bool fixed = false;  // state quantises to itself
  };
  // apply() is const in the interface; these are a cache and a statistic.
  mutable std::vector<Last> last_;
  mutable std::uint64_t clamped_ = 0;
};

}  // namespace shoal::sync
