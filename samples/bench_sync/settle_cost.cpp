// SPDX-License-Identifier: MIT
#include "settle_cost.hpp"

#include <chrono>
#include <stdexcept>
#include <vector>

#include "core/bitwise_equal.hpp"
#include "core/random.hpp"
#include "medians.hpp"
#include "wire/quantize.hpp"

namespace shoal::bench {
namespace {

using Clock = std::chrono::steady_clock;

// A moving body of the bench arena: anywhere on its floor, any orientation, pushed around.
ObjectState moving_state(core::Random& r) {
  auto u = [&](double low, double high) { return static_cast<float>(r.uniform(low, high)); };
  ObjectState s;
  s.position = {u(-28, 28), u(0.3, 1.5), u(-28, 28)};
  s.orientation = normalized(Quat{u(-1, 1), u(-1, 1), u(-1, 1), u(-1, 1)});
  s.linear_velocity = {u(-6, 6), u(-2, 2), u(-6, 6)};
  s.angular_velocity = {u(-8, 8), u(-8, 8), u(-8, 8)};
  return s;
}

double ns_per_state(Clock::time_point start, Clock::time_point end, int states) {
  return static_cast<double>(std::chrono::duration_cast<std::chrono::nanoseconds>(end - start).count()) /
         states;
}

}  // namespace

SettleCost measure_settle_cost(int states, int reps) {
  const wire::Quantizer quantizer{SnapshotConfig{}};
  core::Random random(11);
  std::vector<ObjectState> in(static_cast<std::size_t>(states));
  for (ObjectState& s : in) s = moving_state(random);
  std::vector<wire::SettledState> alone(in.size()), together(in.size());
  std::uint64_t clamped = 0;
  std::vector<double> one_ns, together_ns, ratios;
  for (int rep = 0; rep < reps; ++rep) {
    const Clock::time_point t0 = Clock::now();
    for (std::size_t i = 0; i < in.size(); ++i) alone[i] = quantizer.settle_state(in[i], &clamped);
    const Clock::time_point t1 = Clock::now();
    quantizer.settle_states(in, together, &clamped);
    const Clock::time_point t2 = Clock::now();
    one_ns.push_back(ns_per_state(t0, t1, states));
    together_ns.push_back(ns_per_state(t1, t2, states));
    ratios.push_back(together_ns.back() / one_ns.back());
  }
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (!(alone[i].quantized == together[i].quantized) || !core::bitwise_equal(alone[i].state, together[i].state)) {
      throw std::runtime_error("settling four at a time gave another result than one at a time");
    }
  }
  return {states, reps, median(one_ns), median(together_ns), median(ratios)};
}

}  // namespace shoal::bench
