// SPDX-License-Identifier: MIT
// The histogram behind PeerStats' correction latency and visual correction: percentiles as
// bucket edges never above the largest value, the last bucket taking everything larger, and
// one interval's values as the difference of two copies.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "shoal/histogram.hpp"

using namespace shoal;

TEST_CASE("histogram: percentiles are the upper edges of the buckets that hold them, never above the largest value") {
  Histogram h{2.0f};  // 2 ms buckets
  CHECK(h.percentile(0.5) == 0);  // nothing counted
  for (int v = 1; v <= 100; ++v) h.add(static_cast<float>(v));  // 1..100 ms
  CHECK(h.total == 100);
  CHECK(h.max == 100);
  CHECK(h.percentile(0.5) == 52);   // the 50th value, 50, lies in [50, 52)
  CHECK(h.percentile(0.99) == 100);  // the 99th, 99, in [98, 100)
  CHECK(h.percentile(1.0) == 100);
  CHECK(h.percentile(0.0) == 2);    // the first value, 1, in [0, 2)
  h.add(-3);  // counted as 0
  h.add(std::numeric_limits<float>::quiet_NaN());
  CHECK(h.total == 102);
  CHECK(h.counts[0] == 3);
}

TEST_CASE("histogram: values past the last bucket land in it, and the largest is kept exactly") {
  Histogram h{1.0f};
  h.add(5);
  h.add(100000);  // far past the 512 buckets
  CHECK(h.counts[Histogram::kBuckets - 1] == 1);
  CHECK(h.max == 100000);
  CHECK(h.percentile(1.0) == 100000);
  CHECK(h.percentile(0.5) == 6);
}

TEST_CASE("histogram: since() gives one interval's values") {
  Histogram h{1.0f};
  for (int i = 0; i < 10; ++i) h.add(3);
  const Histogram earlier = h;
  for (int i = 0; i < 4; ++i) h.add(40.5f);
  const Histogram second = h.since(earlier);
  CHECK(second.total == 4);
  CHECK(second.counts[3] == 0);
  CHECK(second.percentile(0.5) == doctest::Approx(40.5f));  // the bucket edge 41, capped by the max
  CHECK(second.max == doctest::Approx(40.5f));
  CHECK(h.since(h).total == 0);
  CHECK(h.since(h).max == 0);
}
