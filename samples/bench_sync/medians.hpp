// SPDX-License-Identifier: MIT
// Medians and quartiles of a benchmark's repeated measurements: robust to the odd slow
// sample a shared machine produces.
#pragma once

#include <algorithm>
#include <vector>

namespace shoal::bench {

inline double median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const std::size_t mid = values.size() / 2;
  return values.size() % 2 == 1 ? values[mid] : 0.5 * (values[mid - 1] + values[mid]);
}

/// The first and third quartiles (0 and 0 for no values).
inline std::pair<double, double> quartiles(std::vector<double> values) {
  if (values.empty()) return {0, 0};
  std::sort(values.begin(), values.end());
  return {values[values.size() / 4], values[values.size() * 3 / 4]};
}

}  // namespace shoal::bench
