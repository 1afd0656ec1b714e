// SPDX-License-Identifier: MIT
// A distribution of measured values, kept as counts per bucket, for figures a game reads as
// percentiles (PeerStats: how late owners' frames are taken in, how far smoothing moves what
// is drawn). Fixed size: counting never allocates.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace shoal {

/// Values counted in kBuckets equal buckets of `width` from 0 (the last also takes every larger
/// value), with the largest value kept exactly.
struct Histogram {
  static constexpr std::size_t kBuckets = 512;  ///< buckets of `width`, the last one open-ended
  float width = 1;  ///< of each bucket, in the values' unit
  std::array<std::uint32_t, kBuckets> counts{};  ///< values counted in [i * width, (i + 1) * width)
  std::uint64_t total = 0;  ///< values counted
  float max = 0;            ///< the largest value counted (0 when none)

  /// Counts `value` (a negative or non-finite one as 0).
  void add(float value);
  /// The value at or below which a fraction `p` (0..1) of the values lie, as the upper_edge() of
  /// the bucket holding it; 0 when nothing was counted.
  float percentile(double p) const;
  /// The values counted since `earlier` (this histogram as it was then): the counts' difference.
  /// Its max is the upper_edge() of its highest non-empty bucket.
  Histogram since(const Histogram& earlier) const;
  /// The largest value bucket `bucket` can hold, as far as is known: its upper edge, or `max`
  /// when that is smaller, or for the last bucket.
  float upper_edge(std::size_t bucket) const;
};

}  // namespace shoal
