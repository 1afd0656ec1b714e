// SPDX-License-Identifier: MIT
// The match's pace: the host's controller slows the timeline while a peer lags and speeds it up
// once nobody has for a while; a segment maps the host's wall frames to match frames without
// jumps; the frame clock runs at the pace it is given.
#include <doctest/doctest.h>

#include <stdexcept>

#include "session/frame_clock.hpp"
#include "session/pace.hpp"

namespace {

using shoal::PaceConfig;
using shoal::session::FrameClock;
using shoal::session::FrameClockConfig;
using shoal::session::PaceController;
using shoal::session::PaceSegment;

constexpr std::int64_t kMs = 1000;

}  // namespace

TEST_CASE("the pace drops while a peer reports lag, never below min_rate, and recovers once nobody lags") {
  PaceConfig config;
  config.min_rate = 0.5f;
  PaceController pace(config);
  std::int64_t now = 0;
  CHECK(pace.decide(now) == 1.0f);
  // Peer 2 lags by 5 frames in every report, every 100 ms, for 5 s.
  float previous = 1.0f;
  int decreases = 0;
  for (int i = 0; i < 50; ++i) {
    now += 100 * kMs;
    pace.report(1, 0, now);
    pace.report(2, 5, now);
    const float rate = pace.decide(now);
    CHECK(rate <= previous);
    decreases += rate < previous ? 1 : 0;
    previous = rate;
  }
  CHECK(decreases >= 4);  // 0.85^4 = 0.52: four cuts reach the floor
  CHECK(pace.rate() == doctest::Approx(0.5f));
  // A lag below lag_frames is no lag.
  for (int i = 0; i < 10; ++i) {
    now += 100 * kMs;
    pace.report(2, config.lag_frames - 1, now);
    CHECK(pace.decide(now) == doctest::Approx(0.5f));  // held for recover_ms first
  }
  for (int i = 0; i < 60; ++i) {
    now += 100 * kMs;
    pace.report(2, 0, now);
    pace.decide(now);
  }
  CHECK(pace.rate() == 1.0f);
  CHECK(pace.slowdowns() >= 4);
}

TEST_CASE("a lag reported once within an interval counts, a peer forgotten or silent does not") {
  PaceController pace;
  pace.decide(0);
  pace.report(3, 10, 50 * kMs);
  pace.report(3, 0, 100 * kMs);  // cleared again before the decision: still a lag
  CHECK(pace.decide(300 * kMs) < 1.0f);
  const float after_one = pace.rate();
  pace.report(3, 10, 400 * kMs);
  pace.forget(3);
  CHECK(pace.decide(600 * kMs) == after_one);
  pace.report(4, 10, 700 * kMs);  // and then nothing for more than a second
  CHECK(pace.decide(900 * kMs) < after_one);
  const float after_two = pace.rate();
  CHECK(pace.decide(2500 * kMs) == after_two);  // its report is stale: no more cuts
}

TEST_CASE("with pacing disabled the rate stays 1 whatever the lag") {
  PaceConfig config;
  config.enabled = false;
  PaceController pace(config);
  for (int i = 1; i <= 20; ++i) {
    pace.report(1, 50, i * 300 * kMs);
    CHECK(pace.decide(i * 300 * kMs) == 1.0f);
  }
}

TEST_CASE("an unusable pace config is refused with a message naming the field") {
  auto message = [](PaceConfig c) {
    try {
      PaceController p(c);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  PaceConfig c;
  c.min_rate = 0;
  CHECK(message(c).find("min_rate") != std::string::npos);
  c = {};
  c.decrease = 1.0f;
  CHECK(message(c).find("decrease") != std::string::npos);
  c = {};
  c.lag_frames = 0;
  CHECK(message(c).find("lag_frames") != std::string::npos);
  c = {};
  c.interval_ms = 0;
  CHECK(message(c).find("interval_ms") != std::string::npos);
  CHECK(message(PaceConfig{}).empty());
}

TEST_CASE("a new segment starts where the old one is, so the timeline never jumps") {
  const PaceSegment first{1000.0, 0.0, 1.0f};
  CHECK(first.match_at(1060.0) == doctest::Approx(60.0));
  const PaceSegment slower{1060.0, first.match_at(1060.0), 0.5f};
  CHECK(slower.match_at(1060.0) == doctest::Approx(first.match_at(1060.0)));
  CHECK(slower.match_at(1120.0) == doctest::Approx(90.0));
  CHECK(slower.newer_than(first));
  CHECK_FALSE(first.newer_than(slower));
}

TEST_CASE("the frame clock runs at the pace it is given") {
  FrameClockConfig config;
  FrameClock clock(config, 0);
  const std::int64_t tick_us = 16'667;
  int steps = 0;
  for (int i = 1; i <= 600; ++i) steps += clock.advance(i * tick_us, std::nullopt, 0.5);
  CHECK(steps == doctest::Approx(300).epsilon(0.01));
  CHECK(clock.tick_rate() == doctest::Approx(0.5));
  // A follower given the same pace and a target on it stays on the target.
  FrameClock follower(config, 0);
  const PaceSegment segment{0.0, 0.0, 0.5f};
  for (int i = 1; i <= 600; ++i) {
    const double wall = static_cast<double>(i * tick_us) / static_cast<double>(tick_us);
    follower.advance(i * tick_us, segment.match_at(wall), 0.5);
  }
  CHECK(follower.match_time() == doctest::Approx(300.0).epsilon(0.01));
}
