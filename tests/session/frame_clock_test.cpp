// SPDX-License-Identifier: MIT
#include <algorithm>
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <stdexcept>

#include "session/frame_clock.hpp"

using shoal::Frame;
using shoal::session::FrameClock;
using shoal::session::FrameClockConfig;

namespace {
constexpr std::int64_t kTickUs = 16'667;  // 60 Hz, as the default config
}

TEST_CASE("frame clock ticks once per 1/60 s and reports fraction and match time") {
  FrameClock clock(FrameClockConfig{}, 1'000'000);
  CHECK(clock.advance(1'000'000) == 0);
  CHECK(clock.current_frame() == 0);
  CHECK(clock.advance(1'000'000 + kTickUs / 2) == 0);
  CHECK(clock.fraction() == doctest::Approx(0.5).epsilon(0.001));
  CHECK(clock.advance(1'000'000 + kTickUs + 10) == 1);
  CHECK(clock.current_frame() == 1);
  CHECK(clock.advance(1'000'000 + kTickUs * 5 / 2) == 1);
  CHECK(clock.current_frame() == 2);
  CHECK(clock.fraction() == doctest::Approx(0.5).epsilon(0.01));
  CHECK(clock.match_time() == doctest::Approx(2.5).epsilon(0.001));
  // Time running backwards (a bad clock source) is treated as no time passing.
  CHECK(clock.advance(0) == 0);
  CHECK(clock.current_frame() == 2);
}

TEST_CASE("a clock 30 frames late catches up at the bound without exceeding it") {
  FrameClockConfig config;
  config.max_catchup_frames_per_update = 4;

  SUBCASE("after a 500 ms hitch") {
    FrameClock clock(config, 0);
    std::int64_t now = 0;
    for (int i = 0; i < 10; ++i) clock.advance(now += kTickUs);
    const Frame before = clock.current_frame();
    now += 30 * kTickUs;  // the game did not update for 30 ticks
    int caught_up = 0;
    int updates = 0;
    for (; updates < 100; ++updates) {
      const int steps = clock.advance(now += kTickUs);
      CHECK(steps <= 4);
      if (updates < 9) CHECK(steps == 4);  // uses the whole bound while behind
      caught_up += steps;
      if (clock.backlog() == 0) break;
    }
    CHECK(clock.backlog() == 0);
    CHECK(clock.current_frame() - before == caught_up);
    CHECK(caught_up >= 30);
    CHECK(updates <= 11);  // 30 late + ~10 new frames at 3 net frames per update
  }

  SUBCASE("after the target timeline moves 30 frames ahead of a synchronised clock") {
    FrameClock clock(config, 0);
    std::int64_t now = 0;
    clock.advance(now += kTickUs, 1.0);  // first target: in sync, no jump
    REQUIRE(clock.synchronized());
    double target = 1.0;
    for (int i = 0; i < 10; ++i) clock.advance(now += kTickUs, target += 1.0);
    target += 30.0;
    Frame last = clock.current_frame();
    int updates = 0;
    for (; updates < 100; ++updates) {
      const int steps = clock.advance(now += kTickUs, target += 1.0);
      CHECK(steps <= 4);
      CHECK(clock.current_frame() == last + steps);
      last = clock.current_frame();
      if (clock.backlog() == 0) break;
    }
    CHECK(clock.jumps() == 0);  // frames were simulated, not skipped
    CHECK(std::abs(clock.match_time() - target) < 1.0);
    CHECK(updates <= 11);
  }
}

TEST_CASE("a joining clock jumps forward once, never backwards, and waits when far ahead") {
  FrameClockConfig config;
  config.max_tick_stretch = 0.05;
  FrameClock clock(config, 0);
  std::int64_t now = 0;
  clock.advance(now += kTickUs);
  REQUIRE_FALSE(clock.synchronized());

  // The match is at frame 600: the joiner skips there in one jump without simulating.
  CHECK(clock.advance(now += kTickUs, 600.25) == 0);
  CHECK(clock.current_frame() == 600);
  CHECK(clock.jumps() == 1);

  // Later the target says we are 10 frames ahead: no jump back, only slower ticks, down to
  // waiting while more than the resync threshold ahead, then at most 5% slower.
  double target = 600.25 - 10.0;
  Frame last = clock.current_frame();
  int updates = 0;
  double slowest = 1.0;
  for (; updates < 2000 && clock.match_time() - target > 0.05; ++updates) {
    target += 1.0;
    const bool far_ahead = clock.match_time() + 1.0 - target > config.resync_threshold_frames;
    const int steps = clock.advance(now += kTickUs, target);
    CHECK(steps >= 0);
    CHECK(steps <= 1);
    CHECK(clock.current_frame() >= last);
    CHECK(clock.tick_rate() >= 0.0);
    CHECK(clock.tick_rate() <= 1.0);
    slowest = std::min(slowest, clock.tick_rate());
    if (!far_ahead) {
      CHECK(clock.tick_rate() >= 1.0 - config.max_tick_stretch - 1e-9);
    }
    last = clock.current_frame();
  }
  CHECK(clock.jumps() == 1);
  // The first 7 frames go at up to half speed (10 frames over a 20-frame horizon), the last 3
  // at most 5% per tick: 60 ticks and more; the proportional tail adds some.
  CHECK(updates >= 60);
  CHECK(updates < 600);
  CHECK(slowest < 0.6);  // it waited: 5% slower alone would take 200 ticks
}

TEST_CASE("drift correction stretches ticks within the configured bound") {
  FrameClockConfig config;
  config.max_tick_stretch = 0.08;
  FrameClock clock(config, 0);
  std::int64_t now = 0;
  double target = 0.0;
  clock.advance(now, target);
  // The target runs 1% fast (a host clock drifting against ours) and starts 2 frames ahead.
  target = 2.0;
  double max_stretch = 0;
  for (int i = 0; i < 3600; ++i) {
    target += 1.01;
    clock.advance(now += kTickUs, target);
    max_stretch = std::max(max_stretch, std::fabs(clock.tick_rate() - 1.0));
  }
  CHECK(max_stretch <= config.max_tick_stretch + 1e-9);
  CHECK(max_stretch > 0.005);  // it did have to correct
  CHECK(std::fabs(clock.match_time() - target) < 0.5);
  CHECK(clock.jumps() == 0);
}

TEST_CASE("frame clock rejects bad configuration with a message") {
  auto make = [](FrameClockConfig c) { FrameClock clock(c, 0); };
  FrameClockConfig c;
  c.tick_hz = 0;
  CHECK_THROWS_WITH_AS(make(c), doctest::Contains("tick_hz"), std::invalid_argument);
  c = {};
  c.max_catchup_frames_per_update = 0;
  CHECK_THROWS_WITH_AS(make(c), doctest::Contains("max_catchup_frames_per_update"),
                       std::invalid_argument);
  c = {};
  c.max_tick_stretch = 0.9;
  CHECK_THROWS_WITH_AS(make(c), doctest::Contains("max_tick_stretch"), std::invalid_argument);
  c = {};
  c.correction_horizon_frames = std::nan("");
  CHECK_THROWS_WITH_AS(make(c), doctest::Contains("correction_horizon_frames"),
                       std::invalid_argument);
  CHECK_NOTHROW(make(FrameClockConfig{}));
}
