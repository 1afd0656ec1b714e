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

/// A spawn or a removal in spawn slot `slot` (counted from the first) at `frame`.
struct SlotChange {
  Frame frame;
  std::size_t slot;
  std::uint16_t type;  // 0: a removal
  ObjectState state;
};

/// A shot fired along x at the first stack, low; and a crate dropped onto the second.
inline ObjectState shot_state() {
  ObjectState s;
  s.position = {-3, 1.2f, 0};
  s.linear_velocity = {9, 0.5f, 0};
  return s;
}
inline ObjectState crate_state() {
  ObjectState s;
  s.position = {2.5f, 5.5f, 0};
  s.linear_velocity = {0, -1, 0};
  return s;
}

/// Spawns and removals, some a few frames before a multiple of 50 (so the rollbacks of
/// spawn_frames_differ cross them), one slot emptied and filled again with another type.
template <class Scene>
std::vector<SlotChange> slot_changes() {
  return {{144, 0, Scene::kShot, shot_state()}, {196, 1, Scene::kCrate, crate_state()}, {247, 0, 0, {}},
          {248, 0, Scene::kCrate, crate_state()}, {297, 1, 0, {}}, {330, 2, Scene::kShot, shot_state()}};
}

/// What Shoal does after each step: the frame's removals, then its spawns.
inline void apply_slot_changes(Simulation& s, Frame frame, const std::vector<SlotChange>& changes) {
  const auto first = static_cast<BodyIndex>(s.body_count() - s.spawn_slot_count());
  for (int spawns = 0; spawns < 2; ++spawns) {
    for (const SlotChange& c : changes) {
      if (c.frame != frame || (c.type != 0) != (spawns == 1)) continue;
      const auto body = static_cast<BodyIndex>(first + c.slot);
      if (c.type == 0) {
        s.remove_body(body);
      } else {
        s.add_body(body, c.type, c.state, {});
      }
    }
  }
}

/// Two scenes with spawn slots, given the same pushes, spawns and removals, agree bit for bit
/// every frame, though one rolls back 8 frames every 50 and re-steps them, putting back which
/// slots held which body first, as Shoal does (remove and add, then write, then restore).
/// Returns how many frames differed; `hit` = how many fixed bodies the spawns moved (compared
/// with a scene that spawned nothing).
template <class Scene>
int spawn_frames_differ(int frames, int& hit) {
  const std::vector<SlotChange> changes = slot_changes<Scene>();
  auto plain = std::make_unique<Scene>();
  auto busy = std::make_unique<Scene>();
  auto none = std::make_unique<Scene>();
  Simulation& a = plain->simulation;
  Simulation& b = busy->simulation;
  const std::size_t slots = b.spawn_slot_count();
  const auto first = static_cast<BodyIndex>(b.body_count() - slots);
  std::vector<std::vector<ObjectState>> recorded{states_of(b)};
  std::vector<std::vector<std::uint16_t>> held{std::vector<std::uint16_t>(slots, 0)};  // per frame: each slot's type
  std::vector<std::uint16_t> engine(slots, 0);
  a.save(0);
  b.save(0);
  none->simulation.save(0);
  auto step = [&](Simulation& s, Frame frame, bool spawning) {
    const BodyInput inputs[] = {{0, push_at(frame)}};
    s.step(frame, inputs);
    if (spawning) apply_slot_changes(s, frame, changes);
    s.save(frame);
  };
  auto note = [&](Frame frame) {
    for (const SlotChange& c : changes) {
      if (c.frame == frame) engine[c.slot] = c.type;
    }
  };
  int differing = 0;
  for (Frame frame = 1; frame <= frames; ++frame) {
    step(a, frame, true);
    step(none->simulation, frame, false);
    step(b, frame, true);
    note(frame);
    recorded.push_back(states_of(b));
    held.push_back(engine);
    if (frame % 50 == 0) {
      const Frame from = frame - 8;
      for (std::size_t k = 0; k < slots; ++k) {
        if (engine[k] == held[from][k]) continue;
        const auto body = static_cast<BodyIndex>(first + k);
        if (engine[k] != 0) b.remove_body(body);
        if (held[from][k] != 0) b.add_body(body, held[from][k], recorded[from][body], {});
        engine[k] = held[from][k];
      }
      for (BodyIndex body = 0; body < b.body_count(); ++body) b.write(body, recorded[from][body]);
      b.restore(from);
      for (Frame again = from + 1; again <= frame; ++again) {
        step(b, again, true);
        note(again);
      }
    }
    differing += count_different(states_of(a), states_of(b)) > 0 ? 1 : 0;
  }
  hit = count_different(states_of(a), states_of(none->simulation));
  return differing;
}

/// An empty slot reads as empty_slot_state(), ignores writes, has radius 0 and type 0; a
/// filled one reads as spawned, with its type, and moves; emptied, it is empty again.
template <class Scene>
void check_slot_life() {
  Scene scene;
  Simulation& s = scene.simulation;
  REQUIRE(s.spawn_slot_count() > 0);
  const auto slot = static_cast<BodyIndex>(s.body_count() - s.spawn_slot_count());
  CHECK(core::bitwise_equal(s.read(slot), empty_slot_state()));
  CHECK(s.bounding_radius(slot) == 0);
  s.write(slot, shot_state());
  CHECK(core::bitwise_equal(s.read(slot), empty_slot_state()));
  CHECK(s.can_spawn(Scene::kShot));
  CHECK_FALSE(s.can_spawn(999));
  CHECK_THROWS_AS(s.add_body(slot, 999, shot_state(), {}), std::invalid_argument);
  CHECK_THROWS_AS(s.add_body(0, Scene::kShot, shot_state(), {}), std::invalid_argument);  // a fixed body
  CHECK_THROWS_AS(s.remove_body(0), std::invalid_argument);
  s.add_body(slot, Scene::kShot, shot_state(), {});
  CHECK(core::bitwise_equal(s.read(slot), shot_state()));
  CHECK(s.body_type(slot) == Scene::kShot);
  CHECK(s.bounding_radius(slot) > 0);
  CHECK_THROWS_AS(s.add_body(slot, Scene::kShot, shot_state(), {}), std::invalid_argument);  // taken
  for (Frame f = 1; f <= 10; ++f) step_ball(s, f);
  CHECK(s.read(slot).position.x > shot_state().position.x + 0.5f);  // it flew
  s.remove_body(slot);
  CHECK(core::bitwise_equal(s.read(slot), empty_slot_state()));
  CHECK(s.bounding_radius(slot) == 0);
  CHECK(s.body_type(slot) == 0);
  s.remove_body(slot);  // an empty slot stays empty
  for (Frame f = 11; f <= 20; ++f) step_ball(s, f);
  CHECK(core::bitwise_equal(s.read(slot), empty_slot_state()));
  const auto changed = s.changed_bodies();
  REQUIRE(changed.has_value());
  CHECK(std::ranges::find(*changed, slot) == changed->end());
}

}  // namespace shoal::test
