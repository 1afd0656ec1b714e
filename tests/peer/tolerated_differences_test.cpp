// SPDX-License-Identifier: MIT
// Owner frames that differ only within the compare tolerances: compared bitwise at rest,
// tolerated while moving until a catch-up corrects them, and corrected by one of their own when
// none does (CompareTolerance, sync/tolerated_differences.hpp).
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "drift_world.hpp"
#include "match_harness.hpp"
#include "match_scenarios.hpp"
#include "sync/state_compare.hpp"
#include "sync/tolerated_differences.hpp"

using namespace shoal;
using namespace shoal::test;

namespace {

std::vector<std::pair<BodyIndex, Frame>> overdue(sync::ToleratedDifferences& t, Frame before, Frame newest_from) {
  std::vector<std::pair<BodyIndex, Frame>> taken;
  t.take_overdue(before, newest_from, [&](BodyIndex b, Frame f) { taken.emplace_back(b, f); });
  return taken;
}

/// Two peers of a DriftWorld on the in-process network; peer 0 hosts, so it owns the drifting
/// bodies (no player comes near them). Peer 1's copy of body 2 is nudged by 0.3 mm (a little
/// more than one quantisation step: within the 1 mm tolerance) once the match runs steadily.
/// Returns for how many render frames after the glitch the copies differed at their newest
/// common frame, or -1 when they still differ after 3 s.
struct GlitchOutcome {
  int frames_differing = -1;
  std::uint64_t overrides_after = 0;  // peer 1's, from the glitch on
  std::uint64_t tolerated_after = 0;  // the same, of owner frames tolerated
};

GlitchOutcome glitch_and_watch(const CompareTolerance& compare) {
  PeerConfig config;
  config.compare = compare;
  MemoryNetwork net(5);
  net.set_conditions(link(20, 0));
  DriftWorld worlds[2] = {DriftWorld(4), DriftWorld(4)};
  Peer host(config, worlds[0], net.create_endpoint(1, 2000));
  Peer joiner(config, worlds[1], net.create_endpoint(2, 2000));
  host.set_controlled(1);
  host.host();
  joiner.join(host.address());
  std::int64_t now_us = 1'000'000;
  auto render_frame = [&] {
    now_us += 16'667;
    net.set_time_us(now_us);
    host.update_at(now_us);
    joiner.update_at(now_us);
  };
  auto same_at_common_frame = [&] {
    const Frame common = std::min(host.frame(), joiner.frame());
    const auto a = host.state_at(3, common);
    const auto b = joiner.state_at(3, common);
    return a && b && sync::bitwise_equal(*a, *b);
  };
  for (int i = 0; i < 60 * 5 && !(joiner.in_match() && host.peers().size() == 2); ++i) render_frame();
  REQUIRE(joiner.in_match());
  for (int i = 0; i < 60 * 3; ++i) render_frame();  // the joiner's start corrected, residues too
  REQUIRE(same_at_common_frame());
  REQUIRE(host.owner(3) == 0);
  worlds[1].nudge(2, joiner.frame() + 5, 0.0003f);

  GlitchOutcome outcome;
  const std::uint64_t overrides_before = joiner.stats().overrides;
  const std::uint64_t tolerated_before = joiner.stats().tolerated;
  int differing = 0;
  for (int i = 0; i < 60 * 3; ++i) {
    render_frame();
    if (!worlds[1].nudged()) continue;
    if (same_at_common_frame()) {
      if (differing > 0) {
        outcome.frames_differing = differing;
        break;
      }
    } else {
      ++differing;
    }
  }
  REQUIRE(worlds[1].nudged());
  outcome.overrides_after = joiner.stats().overrides - overrides_before;
  outcome.tolerated_after = joiner.stats().tolerated - tolerated_before;
  return outcome;
}

}  // namespace

TEST_CASE("frames of objects at rest compare bit for bit, moving ones within the tolerances") {
  CompareTolerance tolerant;  // the default
  REQUIRE_FALSE(tolerant.exact);
  const ObjectState owner = moving_at({1, 0.5f, 2}, {3, 0, 0});
  ObjectState near = owner;
  near.position.x += 0.0005f;
  near.linear_velocity.x += 0.005f;
  CHECK(sync::states_agree(owner, near, tolerant));
  ObjectState far = owner;
  far.position.x += 0.002f;
  CHECK_FALSE(sync::states_agree(owner, far, tolerant));
  ObjectState fast = owner;
  fast.linear_velocity.x += 0.02f;
  CHECK_FALSE(sync::states_agree(owner, fast, tolerant));

  ObjectState resting = owner, resting_near = near;
  resting.at_rest = resting_near.at_rest = true;
  CHECK_FALSE(sync::states_agree(resting, resting_near, tolerant));  // at rest: bitwise
  CHECK(sync::states_agree(resting, resting, tolerant));
  ObjectState stopped = owner;
  stopped.at_rest = true;
  CHECK_FALSE(sync::states_agree(stopped, owner, tolerant));  // at rest on one side only

  CompareTolerance exact;
  exact.exact = true;
  CHECK_FALSE(sync::states_agree(owner, near, exact));
  CHECK(sync::states_agree(owner, owner, exact));
}

TEST_CASE("tolerated differences end at a bitwise owner frame, a catch-up that covers them, or when overdue") {
  sync::ToleratedDifferences t(8);
  CHECK(t.empty());
  t.note(3, 100);
  t.note(3, 104);  // still standing since 100, newest 104
  t.note(5, 102);
  CHECK(t.size() == 2);

  t.confirmed(3, 103);  // older than its newest difference: it still stands
  CHECK(t.size() == 2);
  t.confirmed(3, 104);
  CHECK(t.size() == 1);

  t.note(3, 110);
  t.caught_up(105);  // covers 3 (newest 110), not 5 (newest 102)
  CHECK(t.size() == 1);
  CHECK(overdue(t, 101, 0).empty());  // 5 stands since 102, after 101
  CHECK(overdue(t, 102, 103).empty());  // overdue, but its newest frame is too old to catch up from
  CHECK(t.size() == 1);
  const auto taken = overdue(t, 102, 102);
  REQUIRE(taken.size() == 1);
  CHECK(taken[0] == std::pair<BodyIndex, Frame>{5, 102});
  CHECK(t.empty());

  t.note(1, 7);
  t.note(2, 7);
  t.forget(1);
  t.forget(4);  // nothing stands for it: nothing happens
  CHECK(t.size() == 1);
  t.clear();
  CHECK(t.empty());
  t.note(2, 9);  // a cleared body starts afresh
  CHECK(overdue(t, 8, 0).empty());
}

TEST_CASE("a moving object's sub-millimetre glitch is tolerated for a while, then corrected bit for bit") {
  CompareTolerance tolerant;
  tolerant.tolerated_frames = 30;
  const GlitchOutcome t = glitch_and_watch(tolerant);
  INFO("tolerant: differed for ", t.frames_differing, " frames, ", t.overrides_after, " overrides");
  // Not chased at once (the owner's frames arrive within a few frames)...
  CHECK(t.frames_differing >= 25);
  // ...but not left standing either: corrected once overdue, by an override of its own.
  CHECK(t.frames_differing <= 30 + 20);
  CHECK(t.overrides_after >= 1);
  CHECK(t.tolerated_after >= 5);  // the owner's frames in between, each noted

  CompareTolerance exact;
  exact.exact = true;
  const GlitchOutcome e = glitch_and_watch(exact);
  INFO("exact: differed for ", e.frames_differing, " frames");
  CHECK(e.frames_differing >= 1);
  CHECK(e.frames_differing <= 10);
  CHECK(e.tolerated_after == 0);
}

TEST_CASE("in a bot match, tolerating moving objects' tiny differences saves catch-ups and still settles bit for bit") {
  std::uint64_t catchup_frames[2] = {0, 0};
  for (int exact = 0; exact < 2; ++exact) {
    CAPTURE(exact);
    PeerConfig config;
    config.compare.exact = exact == 1;
    catchup_frames[exact] = catchup_frames_of_settled_bot_match(config, 97, 21);
  }
  INFO("catch-up frames: tolerant ", catchup_frames[0], ", exact ", catchup_frames[1]);
  CHECK(catchup_frames[1] > 0);
  CHECK(static_cast<double>(catchup_frames[0]) < 0.8 * static_cast<double>(catchup_frames[1]));
}

TEST_CASE("compare tolerances must be finite and not negative, and tolerated_frames at least 1") {
  DriftWorld world(2);
  MemoryNetwork net(1);
  auto refused = [&](const PeerConfig& config) {
    try {
      Peer peer(config, world, net.create_endpoint());
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  PeerConfig c;
  c.compare.position_m = -0.001f;
  CHECK(refused(c).find("compare.position_m is -0.001000, expected a finite tolerance >= 0") != std::string::npos);
  c = {};
  c.compare.rotation_rad = std::numeric_limits<float>::quiet_NaN();
  CHECK(refused(c).find("compare.rotation_rad") != std::string::npos);
  c = {};
  c.compare.angular_velocity_radps = std::numeric_limits<float>::infinity();
  CHECK(refused(c).find("compare.angular_velocity_radps") != std::string::npos);
  c = {};
  c.compare.tolerated_frames = 0;
  CHECK(refused(c).find("compare.tolerated_frames is 0, expected at least 1") != std::string::npos);
  c = {};
  c.compare.position_m = 0;  // zero tolerances are fine: bitwise in effect
  CHECK(refused(c).empty());
}
