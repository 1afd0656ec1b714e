// SPDX-License-Identifier: MIT
// The parts of shoal::Simulation's contract every engine adapter must keep, checked the same
// way on each (bullet_contract_test.cpp, box2d_contract_test.cpp). Scene: a test scene type
// (bullet_scene.hpp, box2d_scene.hpp) with a `simulation` whose body 0 is the ball.
#pragma once

#include <doctest/doctest.h>

#include <cstring>
#include <memory>
#include <vector>

#include "core/bitwise_equal.hpp"
#include "shoal/simulation.hpp"

namespace shoal::test {

/// The ball's push at `frame`: still at first (the stacks settle and sleep), then back and
/// forth along x, sometimes aslant.
inline Input push_at(Frame frame) {
  if (frame < 120) return {};
  const int phase = (frame / 45) % 4;
  const Vec3 axes[4] = {{1, 0, 0}, {1, 0, 0.4f}, {-1, 0, -0.3f}, {1, 0, 0}};
  return Input{axes[phase], 0};
}

inline std::vector<ObjectState> states_of(const Simulation& simulation) {
  std::vector<ObjectState> states(simulation.body_count());
  for (BodyIndex b = 0; b < simulation.body_count(); ++b) states[b] = simulation.read(b);
  return states;
}

inline int count_different(const std::vector<ObjectState>& a, const std::vector<ObjectState>& b) {
  int different = 0;
  for (std::size_t i = 0; i < a.size(); ++i) different += core::bitwise_equal(a[i], b[i]) ? 0 : 1;
  return different;
}

inline void step_ball(Simulation& simulation, Frame frame) {
  const BodyInput inputs[] = {{0, push_at(frame)}};
  simulation.step(frame, inputs);
  simulation.save(frame);
}

/// write() then read() gives back the very bits written, asleep or awake.
inline void check_write_read_round_trip(Simulation& simulation) {
  for (BodyIndex b = 0; b < simulation.body_count(); ++b) {
    ObjectState s;
    const float f = static_cast<float>(b);
    s.position = {1.25f + f, 2.5f - f * 0.1f, 0};
    s.orientation = normalized(Quat{0.9f, 0.0f, 0.0f, 0.1f + f * 0.01f});
    s.linear_velocity = {0.3f * f, -0.125f, 0};
    s.angular_velocity = {0, 0, 0.7f - f * 0.05f};
    s.at_rest = b % 2 == 0;
    if (s.at_rest) s.linear_velocity = s.angular_velocity = {};
    simulation.write(b, s);
    CAPTURE(b);
    CHECK(core::bitwise_equal(simulation.read(b), s));
  }
}

/// Two scenes fed the same pushes agree bit for bit every frame, though one of them writes every
/// body the state it already holds before each step (which must change nothing) and rolls back
/// 8 frames and re-steps them every 50 frames (restoring the engine's saved state). Returns how
/// many frames differed.
template <class Scene>
int frames_two_scenes_differ(int frames) {
  auto plain = std::make_unique<Scene>();
  auto busy = std::make_unique<Scene>();
  Simulation& a = plain->simulation;
  Simulation& b = busy->simulation;
  std::vector<std::vector<ObjectState>> recorded{states_of(b)};
  a.save(0);
  b.save(0);
  int differing = 0;
  for (Frame frame = 1; frame <= frames; ++frame) {
    for (BodyIndex body = 0; body < b.body_count(); ++body) b.write(body, b.read(body));
    step_ball(a, frame);
    step_ball(b, frame);
    recorded.push_back(states_of(b));
    if (frame % 50 == 0) {
      const Frame from = frame - 8;
      for (BodyIndex body = 0; body < b.body_count(); ++body) b.write(body, recorded[from][body]);
      b.restore(from);
      for (Frame again = from + 1; again <= frame; ++again) step_ball(b, again);
    }
    differing += count_different(states_of(a), states_of(b)) > 0 ? 1 : 0;
  }
  return differing;
}

/// Over `frames` of the scene, how often a body that changed_bodies() did not list read back
/// other than before the step (must be never), and how many bodies were listed in all.
template <class Scene>
std::pair<int, long> unlisted_changes(int frames) {
  Scene scene;
  Simulation& s = scene.simulation;
  int unlisted_changed = 0;
  long listed = 0;
  for (Frame frame = 1; frame <= frames; ++frame) {
    const std::vector<ObjectState> before = states_of(s);
    step_ball(s, frame);
    const auto changed = s.changed_bodies();
    REQUIRE(changed.has_value());
    std::vector<std::uint8_t> in_list(s.body_count(), 0);
    for (BodyIndex body : *changed) in_list[body] = 1;
    listed += static_cast<long>(changed->size());
    for (BodyIndex body = 0; body < s.body_count(); ++body) {
      if (in_list[body] == 0 && !core::bitwise_equal(before[body], s.read(body))) ++unlisted_changed;
    }
  }
  return {unlisted_changed, listed};
}

}  // namespace shoal::test
