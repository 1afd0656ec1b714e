// SPDX-License-Identifier: MIT
// The conditioner's measured impairments match its settings, and a seed replays them exactly.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "transport/link_conditioner.hpp"

using shoal::LinkConditions;
using shoal::transport::LinkConditioner;

namespace {

constexpr int kDatagrams = 10'000;
constexpr std::int64_t kSpacingUs = 1'000;

struct Delivery {
  std::uint32_t index;
  std::int64_t at_us;
  bool operator==(const Delivery&) const = default;
};

struct Run {
  std::vector<Delivery> deliveries;
  LinkConditioner::Counters counters;
};

// Offers kDatagrams datagrams (each carrying its index) one per millisecond and takes each
// one out exactly when it falls due, so measured delays are exact.
Run run(const LinkConditions& conditions, std::uint64_t seed, std::size_t size = 16) {
  LinkConditioner conditioner(conditions, seed);
  Run result;
  std::vector<std::uint8_t> datagram(size, 0xAB);
  std::vector<std::uint8_t> out;
  const auto drain_until = [&](std::int64_t until_us) {
    for (int guard = 0; guard < 4 * kDatagrams && conditioner.next_release_us() <= until_us; ++guard) {
      const std::int64_t due = conditioner.next_release_us();
      if (!conditioner.release(due, out)) continue;  // a held datagram moved into the queue
      REQUIRE(out.size() == size);
      std::uint32_t index = 0;
      std::memcpy(&index, out.data(), sizeof index);
      result.deliveries.push_back({index, due});
    }
  };
  for (std::uint32_t i = 0; i < kDatagrams; ++i) {
    const std::int64_t now = std::int64_t{i} * kSpacingUs;
    drain_until(now);
    std::memcpy(datagram.data(), &i, sizeof i);
    conditioner.submit(now, datagram);
  }
  drain_until(std::int64_t{kDatagrams} * kSpacingUs + 10'000'000);
  CHECK(conditioner.next_release_us() == INT64_MAX);
  result.counters = conditioner.counters();
  return result;
}

double fraction(std::uint64_t part) { return static_cast<double>(part) / kDatagrams; }

std::vector<int> copies_per_index(const Run& r) {
  std::vector<int> copies(kDatagrams, 0);
  for (const auto& d : r.deliveries) ++copies.at(d.index);
  return copies;
}

}  // namespace

TEST_CASE("conditioner without impairments delivers everything at once, in order") {
  const Run r = run({}, 7);
  REQUIRE(r.deliveries.size() == kDatagrams);
  for (std::uint32_t i = 0; i < kDatagrams; ++i) {
    CHECK(r.deliveries[i].index == i);
    CHECK(r.deliveries[i].at_us == std::int64_t{i} * kSpacingUs);
  }
}

TEST_CASE("conditioner loss: 10% setting measures 10% +- 1.5%") {
  LinkConditions conditions;
  conditions.loss = 0.10f;
  const Run r = run(conditions, 42);
  const double loss = fraction(r.counters.dropped_loss);
  MESSAGE("measured loss " << loss);
  CHECK(loss >= 0.085);
  CHECK(loss <= 0.115);
  CHECK(r.deliveries.size() == kDatagrams - r.counters.dropped_loss);
  const auto copies = copies_per_index(r);
  CHECK(std::count(copies.begin(), copies.end(), 0) == static_cast<long>(r.counters.dropped_loss));
  CHECK(std::count(copies.begin(), copies.end(), 2) == 0);
}

TEST_CASE("conditioner duplication: 10% setting measures 10% +- 1.5%") {
  LinkConditions conditions;
  conditions.duplicate = 0.10f;
  const Run r = run(conditions, 43);
  const auto copies = copies_per_index(r);
  const double duplicated = fraction(static_cast<std::uint64_t>(std::count(copies.begin(), copies.end(), 2)));
  MESSAGE("measured duplication " << duplicated);
  CHECK(duplicated >= 0.085);
  CHECK(duplicated <= 0.115);
  CHECK(std::count(copies.begin(), copies.end(), 0) == 0);
  CHECK(r.counters.duplicated == static_cast<std::uint64_t>(r.deliveries.size() - kDatagrams));
}

TEST_CASE("conditioner latency: mean is the latency, delays span latency +- jitter") {
  LinkConditions conditions;
  conditions.latency_ms = 40;
  conditions.jitter_ms = 10;
  const Run r = run(conditions, 44);
  REQUIRE(r.deliveries.size() == kDatagrams);
  double sum_ms = 0;
  double min_ms = 1e9;
  double max_ms = -1e9;
  for (const auto& d : r.deliveries) {
    const double delay_ms = static_cast<double>(d.at_us - std::int64_t{d.index} * kSpacingUs) / 1000.0;
    sum_ms += delay_ms;
    min_ms = std::min(min_ms, delay_ms);
    max_ms = std::max(max_ms, delay_ms);
  }
  const double mean_ms = sum_ms / kDatagrams;
  MESSAGE("delay mean " << mean_ms << " ms, min " << min_ms << " ms, max " << max_ms << " ms");
  CHECK(mean_ms >= 39.5);
  CHECK(mean_ms <= 40.5);
  CHECK(min_ms >= 30.0);
  CHECK(min_ms <= 30.5);
  CHECK(max_ms <= 50.0);
  CHECK(max_ms >= 49.5);
}

TEST_CASE("conditioner reorder: held-back datagrams arrive after later ones, none lost") {
  LinkConditions conditions;
  conditions.reorder = 0.10f;
  const Run r = run(conditions, 45);
  REQUIRE(r.deliveries.size() == kDatagrams);
  int out_of_order = 0;
  for (std::size_t i = 1; i < r.deliveries.size(); ++i) {
    if (r.deliveries[i].index < r.deliveries[i - 1].index) ++out_of_order;
  }
  MESSAGE("reordered " << fraction(r.counters.reordered) << ", out-of-order arrivals " << out_of_order);
  CHECK(out_of_order > 0);
  CHECK(out_of_order == static_cast<int>(r.counters.reordered));
  CHECK(fraction(r.counters.reordered) >= 0.075);  // a hold waits for its successor, so a
  CHECK(fraction(r.counters.reordered) <= 0.115);  // draw during a hold cannot reorder
  const auto copies = copies_per_index(r);
  CHECK(std::count(copies.begin(), copies.end(), 1) == kDatagrams);
}

TEST_CASE("conditioner bandwidth cap: throughput is the cap, the queue drops past its limit") {
  LinkConditions conditions;
  conditions.bandwidth_bytes_per_s = 100'000;  // a tenth of the 1,000 B/ms offered
  conditions.queue_limit_bytes = 10'000;
  const Run r = run(conditions, 46, 1'000);
  CHECK(r.counters.dropped_queue > 0);
  CHECK(r.counters.dropped_queue + r.deliveries.size() == kDatagrams);
  // 10 s of offered load at 100 kB/s, plus what the queue held at the end.
  const double delivered_bytes = static_cast<double>(r.deliveries.size()) * 1'000;
  MESSAGE("delivered " << delivered_bytes << " bytes, queue drops " << r.counters.dropped_queue);
  CHECK(delivered_bytes <= 100'000.0 * 10 + 10'000 + 1'000);
  CHECK(delivered_bytes >= 100'000.0 * 10 * 0.95);
  // Deliveries are spaced by the serialisation time of one datagram (10 ms).
  for (std::size_t i = 1; i < r.deliveries.size(); ++i) {
    CHECK(r.deliveries[i].at_us - r.deliveries[i - 1].at_us >= 10'000);
  }
}

TEST_CASE("conditioner: the same seed replays the same outcome, another seed does not") {
  LinkConditions conditions;
  conditions.loss = 0.2f;
  conditions.duplicate = 0.05f;
  conditions.reorder = 0.05f;
  conditions.latency_ms = 30;
  conditions.jitter_ms = 15;
  const Run first = run(conditions, 1234);
  const Run second = run(conditions, 1234);
  const Run other = run(conditions, 1235);
  CHECK(first.deliveries == second.deliveries);
  CHECK(first.counters.dropped_loss == second.counters.dropped_loss);
  CHECK_FALSE(first.deliveries == other.deliveries);
}

TEST_CASE("conditioner: set_conditions applies to later submits only") {
  LinkConditioner conditioner({}, 3);
  const std::vector<std::uint8_t> datagram{1};
  conditioner.submit(0, datagram);
  LinkConditions slow;
  slow.latency_ms = 100;
  conditioner.set_conditions(slow);
  conditioner.submit(0, datagram);
  std::vector<std::uint8_t> out;
  CHECK(conditioner.release(0, out));
  CHECK_FALSE(conditioner.release(99'999, out));
  CHECK(conditioner.next_release_us() == 100'000);
  CHECK(conditioner.release(100'000, out));
  CHECK(conditioner.counters().delivered == 2);
}
