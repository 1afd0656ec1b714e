// SPDX-License-Identifier: MIT
#include "shoal/histogram.hpp"

#include <algorithm>
#include <cmath>

namespace shoal {

void Histogram::add(float value) {
  if (!std::isfinite(value) || value < 0) value = 0;
  const float bucket = std::floor(value / width);
  const std::size_t at = bucket >= static_cast<float>(kBuckets - 1) ? kBuckets - 1 : static_cast<std::size_t>(bucket);
  ++counts[at];
  ++total;
  max = std::max(max, value);
}

float Histogram::percentile(double p) const {
  if (total == 0) return 0;
  // The rank of the value wanted, 1-based: the smallest that p of the values do not exceed.
  const auto rank = static_cast<std::uint64_t>(std::ceil(std::clamp(p, 0.0, 1.0) * static_cast<double>(total)));
  std::uint64_t seen = 0;
  for (std::size_t i = 0; i < kBuckets; ++i) {
    seen += counts[i];
    if (seen >= std::max<std::uint64_t>(rank, 1)) return upper_edge(i);
  }
  return max;
}

float Histogram::upper_edge(std::size_t bucket) const {
  return bucket == kBuckets - 1 ? max : std::min(max, width * static_cast<float>(bucket + 1));
}

Histogram Histogram::since(const Histogram& earlier) const {
  Histogram d;
  d.width = width;
  d.total = total - std::min(total, earlier.total);
  d.max = 0;
  for (std::size_t i = 0; i < kBuckets; ++i) {
    d.counts[i] = counts[i] - std::min(counts[i], earlier.counts[i]);
    if (d.counts[i] > 0) d.max = upper_edge(i);
  }
  return d;
}

}  // namespace shoal
