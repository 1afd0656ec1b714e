// SPDX-License-Identifier: MIT
// The frame clock and time sync together, on a simulated network: seeded delays (base latency +
// uniform jitter up to 80 ms per leg, occasional 300 ms spikes), loss, and peers whose local
// clocks run at slightly different rates. No real time passes: the test owns the clock.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <random>
#include <vector>

#include "session/frame_clock.hpp"
#include "session/time_sync.hpp"

namespace {

using shoal::Frame;
using shoal::PeerId;
using shoal::session::FrameClock;
using shoal::session::FrameClockConfig;
using shoal::session::TimeSync;

constexpr std::int64_t kRenderStepUs = 16'667;  // 60 Hz render frames
constexpr std::int64_t kPingIntervalSteps = 6;  // 10 pings per second to every other peer

struct Message {
  PeerId from = 0;
  PeerId to = 0;
  bool is_pong = false;
  std::int64_t ping_sent_us = 0;  // sender's local clock, echoed by the pong
  double match_time = 0;          // pong only
  std::int64_t deliver_at_true_us = 0;
};

struct SimPeer {
  std::int64_t join_true_us = 0;
  std::int64_t local_offset_us = 0;
  double rate_error = 0;  // local clock runs at (1 + rate_error) x true time
  std::optional<FrameClock> clock;
  TimeSync sync;
  Frame last_frame = 0;
  int max_steps = 0;
  double max_stretch = 0;
  std::int64_t last_violation_true_us = -1;
  int max_deviation_after_convergence = 0;

  std::int64_t local_us(std::int64_t true_us) const {
    return local_offset_us +
           static_cast<std::int64_t>(std::llround(static_cast<double>(true_us) * (1.0 + rate_error)));
  }
};

class SimNetwork {
 public:
  explicit SimNetwork(std::uint64_t seed) : rng_(seed) {}

  void send(Message m, std::int64_t now_true_us) {
    if (unit_(rng_) < 0.05) return;  // lost
    double delay_ms = 30.0 + 80.0 * unit_(rng_);
    if (unit_(rng_) < 0.02) delay_ms += 300.0;  // a rare queueing spike: an outlier sample
    m.deliver_at_true_us = now_true_us + static_cast<std::int64_t>(delay_ms * 1000.0);
    in_flight_.push_back(m);
  }

  /// Moves the messages for `to` that have arrived by `now_true_us` into `out`.
  void receive(PeerId to, std::int64_t now_true_us, std::vector<Message>& out) {
    out.clear();
    auto arrived = [&](const Message& m) { return m.to == to && m.deliver_at_true_us <= now_true_us; };
    for (const Message& m : in_flight_) {
      if (arrived(m)) out.push_back(m);
    }
    std::erase_if(in_flight_, arrived);
  }

 private:
  std::mt19937_64 rng_;
  std::uniform_real_distribution<double> unit_{0.0, 1.0};
  std::vector<Message> in_flight_;
};

struct RunResult {
  std::vector<SimPeer> peers;
};

/// Runs `seconds` of simulated time. Peer 0 is the host; `join_s[i]` is when peer i starts.
RunResult run_match(std::uint64_t seed, const std::vector<double>& join_s, double seconds,
                    const FrameClockConfig& config) {
  std::mt19937_64 setup(seed ^ 0x9E3779B97F4A7C15ull);
  std::uniform_real_distribution<double> drift(-0.001, 0.001);
  std::uniform_int_distribution<std::int64_t> offset(0, 50'000'000);

  RunResult result;
  result.peers.resize(join_s.size());
  for (std::size_t i = 0; i < join_s.size(); ++i) {
    SimPeer& p = result.peers[i];
    p.join_true_us = static_cast<std::int64_t>(join_s[i] * 1e6);
    p.local_offset_us = offset(setup);
    p.rate_error = drift(setup);
    p.sync.set_reference_peer(0);
  }

  SimNetwork network(seed);
  std::vector<Message> inbox;
  const auto total_steps = static_cast<std::int64_t>(seconds * 1e6) / kRenderStepUs;
  for (std::int64_t step = 0; step <= total_steps; ++step) {
    const std::int64_t t = step * kRenderStepUs;
    for (std::size_t i = 0; i < result.peers.size(); ++i) {
      SimPeer& p = result.peers[i];
      if (t < p.join_true_us) continue;
      const std::int64_t now = p.local_us(t);
      const auto id = static_cast<PeerId>(i);
      if (!p.clock) {
        p.clock.emplace(config, now, 0);
        p.last_frame = 0;
      }
      const std::optional<double> target =
          i == 0 ? std::nullopt : p.sync.target_wall_frame(now);
      const int steps = p.clock->advance(now, target);
      p.max_steps = std::max(p.max_steps, steps);
      REQUIRE(p.clock->current_frame() >= p.last_frame);  // frames never go backwards
      p.last_frame = p.clock->current_frame();
      p.max_stretch = std::max(p.max_stretch, std::fabs(p.clock->tick_rate() - 1.0));

      network.receive(id, t, inbox);
      for (const Message& m : inbox) {
        if (m.is_pong) {
          p.sync.add_sample(m.from, m.ping_sent_us, m.match_time, now);
        } else if (i == 0 || p.clock->synchronized()) {
          // Only clocks on the match timeline answer; see time_sync.hpp.
          network.send({id, m.from, true, m.ping_sent_us, p.clock->match_time(), 0}, t);
        }
      }
      if ((step + static_cast<std::int64_t>(i)) % kPingIntervalSteps == 0) {
        for (std::size_t j = 0; j < result.peers.size(); ++j) {
          if (j == i || t < result.peers[j].join_true_us) continue;
          network.send({id, static_cast<PeerId>(j), false, now, 0, 0}, t);
        }
      }
    }
    // Compare every running peer with the host at the same true instant.
    const Frame host_frame = result.peers[0].clock->current_frame();
    for (std::size_t i = 1; i < result.peers.size(); ++i) {
      SimPeer& p = result.peers[i];
      if (!p.clock) continue;
      const int deviation = std::abs(p.clock->current_frame() - host_frame);
      if (deviation > 1) p.last_violation_true_us = t;
      if (t >= p.join_true_us + 2'000'000) {
        p.max_deviation_after_convergence = std::max(p.max_deviation_after_convergence, deviation);
      }
    }
  }
  return result;
}

}  // namespace

TEST_CASE("peers stay within one frame of the host under 80 ms jitter, loss and clock drift") {
  const FrameClockConfig config;
  const std::vector<std::vector<double>> layouts = {
      {0.0, 0.0}, {0.0, 0.5, 1.0}, {0.0, 0.0, 3.0, 20.0}};
  std::uint64_t seed = 7;
  for (const auto& joins : layouts) {
    CAPTURE(joins.size());
    const RunResult run = run_match(seed++, joins, 60.0, config);
    REQUIRE(run.peers[0].clock->current_frame() > 3500);  // the host really ran 60 s
    for (std::size_t i = 1; i < run.peers.size(); ++i) {
      const SimPeer& p = run.peers[i];
      CAPTURE(i);
      const double convergence_s =
          p.last_violation_true_us < 0
              ? 0.0
              : static_cast<double>(p.last_violation_true_us - p.join_true_us) / 1e6;
      MESSAGE("peer " << i << " converged within " << convergence_s << " s, max stretch "
                      << p.max_stretch << ", jumps " << p.clock->jumps()
                      << ", median rtt to host "
                      << p.sync.rtt_us(0).value_or(-1) / 1000.0 << " ms");
      CHECK(convergence_s <= 2.0);
      CHECK(p.max_deviation_after_convergence <= 1);
      CHECK(p.max_steps <= config.max_catchup_frames_per_update);
      CHECK(p.max_stretch <= config.max_tick_stretch + 1e-9);
      // A peer that joined late was thousands of frames behind: it jumped, exactly once.
      CHECK(p.clock->jumps() == (p.join_true_us > 0 ? 1 : 0));
    }
    // The host follows only its own clock; render and tick rates differ slightly, so an update
    // now and then owes two ticks, never more than the bound.
    CHECK(run.peers[0].max_steps <= config.max_catchup_frames_per_update);
  }
}
