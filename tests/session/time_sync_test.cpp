// SPDX-License-Identifier: MIT
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <stdexcept>

#include "session/time_sync.hpp"

using shoal::session::TimeSync;
using shoal::session::TimeSyncConfig;

namespace {

constexpr double kTickUs = 1e6 / 60.0;

/// A responder whose timeline is at `frame_at_our_zero` frames when our local clock reads 0.
struct Responder {
  double frame_at_our_zero = 0;
  double match_time_at(double local_us) const { return frame_at_our_zero + local_us / kTickUs; }
};

/// Feeds one ping/pong with the given leg delays (microseconds); returns the receive time.
std::int64_t exchange(TimeSync& sync, shoal::PeerId peer, const Responder& r, std::int64_t sent_us,
                      double out_us, double back_us, double time_error_frames = 0) {
  const double answered_at = static_cast<double>(sent_us) + out_us;
  const auto received = sent_us + static_cast<std::int64_t>(out_us + back_us);
  sync.add_sample(peer, sent_us, r.match_time_at(answered_at) + time_error_frames, received);
  return received;
}

}  // namespace

TEST_CASE("time sync finds the timeline through 80 ms of jitter and a few outliers") {
  // Many seeded trials, so that the bound is about the estimator rather than one lucky draw.
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> jitter(0.0, 80'000.0);
  double worst_error = 0;
  double total_error = 0;
  constexpr int kTrials = 200;
  for (int trial = 0; trial < kTrials; ++trial) {
    TimeSync sync;
    const Responder host{1234.5 + trial};
    std::int64_t now = 5'000'000;
    for (int i = 0; i < 40; ++i) {
      const double out = 20'000 + jitter(rng);
      const double back = 20'000 + jitter(rng);
      // Every tenth pong is an outlier: a queueing spike on one leg, or a garbled match time.
      const double spike = i % 10 == 3 ? 400'000.0 : 0.0;
      const double garbage = i % 10 == 7 ? 500.0 : 0.0;
      now = exchange(sync, 1, host, now, out + spike, back, garbage) + 100'000;
    }
    const auto target = sync.target_wall_frame(now);
    REQUIRE(target.has_value());
    const double error = std::fabs(*target - host.match_time_at(static_cast<double>(now)));
    worst_error = std::max(worst_error, error);
    total_error += error;
    if (trial == 0) {
      const auto rtt = sync.rtt_us(1);
      REQUIRE(rtt.has_value());
      CHECK(*rtt > 60'000);  // base 40 ms + mean jitter 80 ms
      CHECK(*rtt < 180'000);
      CHECK_FALSE(sync.rtt_us(2).has_value());
    }
  }
  MESSAGE("time sync error over " << kTrials << " trials: mean " << total_error / kTrials
                                  << " frames, worst " << worst_error << " frames");
  CHECK(worst_error < 1.0);
  CHECK(total_error / kTrials < 0.35);
}

TEST_CASE("time sync combines peers by median: one peer far off does not move the target") {
  TimeSync sync;
  const Responder honest_a{1000.0};
  const Responder honest_b{1000.3};
  const Responder wrong{1400.0};
  std::int64_t now = 0;
  for (int i = 0; i < 8; ++i) {
    exchange(sync, 1, honest_a, now, 30'000, 30'000);
    exchange(sync, 2, honest_b, now, 30'000, 30'000);
    now = exchange(sync, 3, wrong, now, 30'000, 30'000) + 50'000;
  }
  CHECK(sync.peer_count() == 3);
  const double truth = honest_a.match_time_at(static_cast<double>(now));
  CHECK(std::fabs(*sync.target_wall_frame(now) - truth) < 0.5);

  // Once the wrong peer is forgotten the other two still agree.
  sync.forget(3);
  CHECK(sync.peer_count() == 2);
  CHECK(std::fabs(*sync.target_wall_frame(now) - truth) < 0.5);
  sync.forget(1);
  sync.forget(2);
  CHECK_FALSE(sync.target_wall_frame(now).has_value());
}

TEST_CASE("time sync follows the reference peer (the host) alone while it has samples") {
  TimeSync sync;
  sync.set_reference_peer(5);
  const Responder host{2000.0};
  const Responder relay_a{2000.8};  // peers that follow the host, each with its own error
  const Responder relay_b{2000.9};
  std::int64_t now = 0;
  for (int i = 0; i < 8; ++i) {
    exchange(sync, 1, relay_a, now, 30'000, 30'000);
    now = exchange(sync, 2, relay_b, now, 30'000, 30'000) + 50'000;
  }
  // Without the host's samples the median of the others is used.
  CHECK(*sync.target_wall_frame(now) == doctest::Approx(relay_a.match_time_at(static_cast<double>(now)) + 0.05));
  CHECK(sync.reference_samples() == 0);  // the others' samples do not count
  for (int i = 0; i < 8; ++i) now = exchange(sync, 5, host, now, 30'000, 30'000) + 50'000;
  CHECK(sync.reference_samples() == 8);
  CHECK(std::fabs(*sync.target_wall_frame(now) - host.match_time_at(static_cast<double>(now))) < 0.05);
  sync.forget(5);
  CHECK(sync.reference_samples() == 0);
  CHECK(*sync.target_wall_frame(now) > host.match_time_at(static_cast<double>(now)) + 0.5);
}

TEST_CASE("time sync rejects impossible samples and bad configuration") {
  TimeSync sync;
  CHECK_FALSE(sync.add_sample(1, 1000, 10.0, 999));       // arrived before it was sent
  CHECK_FALSE(sync.add_sample(1, 1000, std::nan(""), 2000));
  CHECK_FALSE(sync.add_sample(1, 1000, -5.0, 2000));
  CHECK(sync.rejected_samples() == 3);
  CHECK_FALSE(sync.target_wall_frame(5000).has_value());
  CHECK(sync.add_sample(1, 1000, 10.0, 2000));

  TimeSyncConfig c;
  c.samples_per_peer = 0;
  CHECK_THROWS_WITH_AS(TimeSync{c}, doctest::Contains("samples_per_peer"), std::invalid_argument);
  c = {};
  c.tick_hz = -1;
  CHECK_THROWS_WITH_AS(TimeSync{c}, doctest::Contains("tick_hz"), std::invalid_argument);
}

TEST_CASE("time sync keeps only its window of samples: a clock that jumps is followed once most samples are new") {
  TimeSyncConfig config;
  config.samples_per_peer = 8;
  TimeSync sync(config);
  std::int64_t now = 1'000'000;
  const Responder before{100}, after{400};
  for (int i = 0; i < 8; ++i) now = exchange(sync, 1, before, now, 20'000, 20'000) + 100'000;
  REQUIRE(sync.target_wall_frame(now).has_value());
  CHECK(*sync.target_wall_frame(now) == doctest::Approx(before.match_time_at(static_cast<double>(now))).epsilon(1e-9));
  // Five new samples replace five of the eight old ones: the new timeline has the majority.
  // (Had the replaced samples' intervals stayed, the old timeline would still win, 8 to 5.)
  for (int i = 0; i < 5; ++i) now = exchange(sync, 1, after, now, 20'000, 20'000) + 100'000;
  CHECK(*sync.target_wall_frame(now) == doctest::Approx(after.match_time_at(static_cast<double>(now))).epsilon(1e-9));
  // And back, on a slower return leg (the estimate is off by half the legs' difference): eight
  // samples later nothing of the jump is left, nor of the first samples' faster return.
  for (int i = 0; i < 8; ++i) now = exchange(sync, 1, before, now, 20'000, 25'000) + 100'000;
  CHECK(*sync.target_wall_frame(now) ==
        doctest::Approx(before.match_time_at(static_cast<double>(now)) - 0.5 * 5'000 / kTickUs).epsilon(1e-9));
}
