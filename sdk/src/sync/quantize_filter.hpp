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

  void apply(BodyIndex body, ObjectState& state) const override {
    last_[body] = quantizer_.settle(state, &clamped_);
    state = quantizer_.dequantize(last_[body]);
  }
  /// The quantised form of what body holds, when its state is the one this filter set last
  /// (exact even where quantising the state again would pick another encoding); else the
  /// state quantised afresh.
  wire::QuantizedState quantized(BodyIndex body, const ObjectState& state) const {
    const wire::QuantizedState& last = last_[body];
    return bitwise_equal(quantizer_.dequantize(last), state) ? last : quantizer_.quantize(state);
  }
  /// Fields clamped to the world bounds or speed limits so far.
  std::uint64_t clamped() const { return clamped_; }

 private:
  const wire::Quantizer& quantizer_;
  // apply() is const in the interface; these are a cache and a statistic.
  mutable std::vector<wire::QuantizedState> last_;
  mutable std::uint64_t clamped_ = 0;
};

}  // namespace shoal::sync
