// SPDX-License-Identifier: MIT
// Input delay (PeerConfig::input_delay_frames, GGPO's frame delay): an input applies that many
// frames after it is set, and every snapshot carries the inputs of the frames ahead, so remote
// peers know a player's input before they simulate its frame instead of predicting it.
#include <doctest/doctest.h>

#include <stdexcept>
#include <string>

#include "drift_world.hpp"
#include "match_harness.hpp"
#include "match_scenarios.hpp"
#include "sync/state_compare.hpp"

using namespace shoal;
using namespace shoal::test;

namespace {

constexpr ObjectId kDriven = 1;  // DriftWorld's body 0, which the host's player steers

/// Two peers of a DriftWorld, 40 ms apart one way; the host steers body 0, which nobody else
/// comes near. `steer(frame)` gives the host's input for its frame as the render frame begins.
struct DriftPair {
  explicit DriftPair(const PeerConfig& config) : net(3) {
    net.set_conditions(link(40, 0));
    host.emplace(config, worlds[0], net.create_endpoint(1, 2000));
    joiner.emplace(config, worlds[1], net.create_endpoint(2, 2000));
    host->set_controlled(kDriven);
    host->host();
    joiner->join(host->address());
    for (int i = 0; i < 60 * 5 && !(joiner->in_match() && host->peers().size() == 2); ++i) render_frame({});
    REQUIRE(joiner->in_match());
    for (int i = 0; i < 60 * 2; ++i) render_frame({});  // the joiner's start is corrected
  }
  void render_frame(const Input& input) {
    now_us += 16'667;
    net.set_time_us(now_us);
    host->set_input(input);
    host->update_at(now_us);
    joiner->update_at(now_us);
  }
  /// The first frame in [from, to] at which peer's body 0 moves along +x, or kNoFrame.
  static Frame first_moving(const Peer& peer, Frame from, Frame to) {
    for (Frame f = from; f <= to; ++f) {
      const auto s = peer.state_at(kDriven, f);
      if (s && s->linear_velocity.x > 0.5f) return f;
    }
    return kNoFrame;
  }

  MemoryNetwork net;
  DriftWorld worlds[2] = {DriftWorld(3), DriftWorld(3)};
  std::optional<Peer> host, joiner;
  std::int64_t now_us = 1'000'000;
};

PeerConfig with_delay(int frames) {
  PeerConfig config;
  config.input_delay_frames = frames;
  return config;
}

}  // namespace

TEST_CASE("an input applies input_delay_frames after it is set, on its owner and on the others") {
  Frame lag[2] = {kNoFrame, kNoFrame};
  const int delays[2] = {0, 4};
  for (int k = 0; k < 2; ++k) {
    CAPTURE(delays[k]);
    DriftPair pair(with_delay(delays[k]));
    const Frame before = pair.host->frame();  // the newest frame stepped without the push
    for (int i = 0; i < 30; ++i) pair.render_frame({{1, 0, 0}, 0});
    const Frame first = DriftPair::first_moving(*pair.host, before - 10, pair.host->frame());
    REQUIRE(first != kNoFrame);
    lag[k] = first - before;
    // Once the joiner has the host's frames, its body 0 starts moving at the same frame.
    for (int i = 0; i < 30; ++i) pair.render_frame({{1, 0, 0}, 0});
    CHECK(DriftPair::first_moving(*pair.joiner, before - 10, pair.joiner->frame()) == first);
  }
  CHECK(lag[0] >= 1);
  CHECK(lag[1] == lag[0] + delays[1]);
}

TEST_CASE("with an input delay that covers the latency, a remote player's changing input causes no re-simulation") {
  std::uint64_t overrides[2] = {0, 0};
  const int delays[2] = {0, 5};  // 5 frames = 83 ms, more than 40 ms and a render frame
  for (int k = 0; k < 2; ++k) {
    CAPTURE(delays[k]);
    DriftPair pair(with_delay(delays[k]));
    const std::uint64_t before = pair.joiner->stats().overrides;
    for (int i = 0; i < 60 * 4; ++i) {
      // A new direction every 15 frames: what the joiner would predict (the last input) is wrong.
      const float turn = (i / 15) % 2 == 0 ? 1.0f : -1.0f;
      pair.render_frame({{turn, 0, 0.5f}, 0});
    }
    overrides[k] = pair.joiner->stats().overrides - before;
    for (int i = 0; i < 30; ++i) pair.render_frame({});
    const Frame common = std::min(pair.host->frame(), pair.joiner->frame());
    const auto a = pair.host->state_at(kDriven, common);
    const auto b = pair.joiner->state_at(kDriven, common);
    REQUIRE((a && b));
    CHECK(sync::bitwise_equal(*a, *b));
  }
  INFO("joiner's overrides: no delay ", overrides[0], ", 5 frames ", overrides[1]);
  CHECK(overrides[0] >= 10);  // one or more per turn
  CHECK(overrides[1] == 0);
}

TEST_CASE("in a bot match, an input delay of 3 frames saves most catch-ups and still settles bit for bit") {
  std::uint64_t catchup_frames[2] = {0, 0};
  const int delays[2] = {0, 3};
  for (int k = 0; k < 2; ++k) {
    CAPTURE(delays[k]);
    catchup_frames[k] = catchup_frames_of_settled_bot_match(with_delay(delays[k]), 61, 17);
  }
  INFO("catch-up frames: no delay ", catchup_frames[0], ", 3 frames ", catchup_frames[1]);
  CHECK(catchup_frames[0] > 0);
  CHECK(static_cast<double>(catchup_frames[1]) < 0.5 * static_cast<double>(catchup_frames[0]));
}

TEST_CASE("input_delay_frames must be 0..16") {
  DriftWorld world(2);
  MemoryNetwork net(1);
  auto refused = [&](int frames) {
    try {
      Peer peer(with_delay(frames), world, net.create_endpoint());
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK(refused(-1) == "shoal::PeerConfig: input_delay_frames is -1, expected 0..16");
  CHECK(refused(17) == "shoal::PeerConfig: input_delay_frames is 17, expected 0..16");
  CHECK(refused(16).empty());
  CHECK(refused(0).empty());
}
