// SPDX-License-Identifier: MIT
// The reference physics must replay bit for bit: two instances fed the same setup and inputs
// agree on every frame, and a restore to any saved frame re-steps to the same states. Shoal's
// catch-up and sync-test mode depend on both.
#include <doctest/doctest.h>

#include <vector>

#include "physics_helpers.hpp"

using namespace shoal;
using shoal::test::at;
using shoal::test::bitwise_equal;

namespace {

// A pile of boxes and spheres that collides, settles, falls asleep, and is later woken by a
// pushed sphere steered in a pattern that depends only on the frame.
void build_scene(ReferencePhysics& physics) {
  physics.add_sphere(100, 0.5f, 3, at({-6, 0.5f, 0}));  // body 0: the controlled sphere
  ObjectId id = 1;
  for (int layer = 0; layer < 3; ++layer) {
    for (int i = 0; i < 4; ++i) {
      const float x = static_cast<float>(i) * 1.05f - 1.5f;
      const float y = 0.5f + static_cast<float>(layer) * 1.02f + static_cast<float>(i % 2) * 0.3f;
      ObjectState s = at({x, y, 0.2f * static_cast<float>(layer)});
      s.orientation = axis_angle({0, 1, 0}, 0.1f * static_cast<float>(i + layer));
      physics.add_box(id++, {0.5f, 0.5f, 0.5f}, 1, s);
    }
  }
  for (int i = 0; i < 8; ++i) {
    const float x = static_cast<float>(i % 4) * 1.3f - 2;
    physics.add_sphere(id++, 0.35f, 0.5f,
                       at({x, 5 + static_cast<float>(i), 1.5f}, {0.3f * static_cast<float>(i % 3), 0, -1}));
  }
  physics.add_box(id++, {2, 0.25f, 2}, 0, at({6, 0.25f, 6}));  // a static platform
}

Input input_for(Frame frame) {
  if (frame < 150) return {};  // let the pile settle and sleep first
  const int phase = (frame / 40) % 4;
  const Vec3 axes[4] = {{1, 0, 0}, {1, 0, 0.4f}, {-0.3f, 0, -1}, {1, 0, 0}};
  return Input{axes[phase], 0};
}

ReferencePhysicsConfig replay_config(int history_frames) {
  ReferencePhysicsConfig config;
  config.arena_half_x = 10;
  config.arena_half_z = 8;
  config.sleep_frames = 20;
  config.history_frames = history_frames;
  return config;
}

void step_frame(ReferencePhysics& physics, Frame frame) {
  const BodyInput inputs[] = {{0, input_for(frame)}};
  physics.step(frame, inputs);
  physics.save(frame);
}

using Recording = std::vector<std::vector<ObjectState>>;  // [frame][body]

void record(const ReferencePhysics& physics, Recording& out) {
  std::vector<ObjectState> states(physics.body_count());
  for (BodyIndex b = 0; b < physics.body_count(); ++b) states[b] = physics.read(b);
  out.push_back(std::move(states));
}

bool frame_equal(const std::vector<ObjectState>& a, const ReferencePhysics& physics) {
  for (BodyIndex b = 0; b < physics.body_count(); ++b) {
    if (!bitwise_equal(a[b], physics.read(b))) return false;
  }
  return true;
}

}  // namespace

TEST_CASE("two instances with the same setup and inputs stay bitwise equal for 2000 frames") {
  ReferencePhysics first(replay_config(64));
  ReferencePhysics second(replay_config(64));
  build_scene(first);
  build_scene(second);
  int sleeping_frames = 0;
  for (Frame f = 1; f <= 2000; ++f) {
    step_frame(first, f);
    step_frame(second, f);
    for (BodyIndex b = 0; b < first.body_count(); ++b) {
      CAPTURE(f);
      CAPTURE(b);
      REQUIRE(bitwise_equal(first.read(b), second.read(b)));
      sleeping_frames += first.read(b).at_rest && !first.is_static(b) ? 1 : 0;
    }
  }
  CHECK(sleeping_frames > 0);  // the run covered sleeping bodies too
}

TEST_CASE("restoring any saved frame and re-stepping reproduces the run bit for bit") {
  constexpr Frame kFrames = 420;
  ReferencePhysics physics(replay_config(kFrames + 1));
  build_scene(physics);
  Recording states;  // states[f] = after frame f; frame 0 is the initial state
  record(physics, states);
  physics.save(0);
  int wake_ups = 0;
  for (Frame f = 1; f <= kFrames; ++f) {
    step_frame(physics, f);
    record(physics, states);
    for (BodyIndex b = 0; b < physics.body_count(); ++b) {
      wake_ups += states[f - 1][b].at_rest && !states[f][b].at_rest ? 1 : 0;
    }
  }
  REQUIRE(wake_ups > 0);  // the pushed sphere woke sleeping bodies within the run

  for (Frame k = 0; k < kFrames; k += 23) {
    CAPTURE(k);
    for (BodyIndex b = 0; b < physics.body_count(); ++b) physics.write(b, states[k][b]);
    physics.restore(k);
    for (Frame f = k + 1; f <= kFrames; ++f) {
      step_frame(physics, f);
      CAPTURE(f);
      REQUIRE(frame_equal(states[f], physics));
    }
  }
}

TEST_CASE("a frame restored and saved again under another number restores as the original") {
  // Saved engine state belongs to frame numbers: restoring frame k and saving it as frame m
  // with no step between must make m restore to what k does (contact impulses included),
  // and leave k's own copy as it was.
  constexpr Frame kFrames = 260, k = 200, m = 230;
  ReferencePhysics physics(replay_config(kFrames + 1));
  build_scene(physics);
  Recording states;
  record(physics, states);
  physics.save(0);
  for (Frame f = 1; f <= kFrames; ++f) {
    step_frame(physics, f);
    record(physics, states);
  }
  auto write_frame_k = [&] {
    for (BodyIndex b = 0; b < physics.body_count(); ++b) physics.write(b, states[k][b]);
  };
  auto replay_after_restoring = [&](Frame saved_as) {
    CAPTURE(saved_as);
    write_frame_k();
    physics.restore(saved_as);
    for (Frame f = k + 1; f <= k + 20; ++f) {  // saves f: neither k nor m
      CAPTURE(f);
      step_frame(physics, f);
      REQUIRE(frame_equal(states[f], physics));
    }
  };
  REQUIRE(!frame_equal(states[k], physics));  // frame k is not simply the engine's current state
  write_frame_k();
  physics.restore(k);
  physics.save(m);
  replay_after_restoring(m);
  replay_after_restoring(k);
}

TEST_CASE("restore works within the default 64-frame window, and falls back outside it") {
  ReferencePhysics physics(replay_config(64));
  build_scene(physics);
  Recording states;
  record(physics, states);
  for (Frame f = 1; f <= 300; ++f) {
    step_frame(physics, f);
    record(physics, states);
  }
  const Frame k = 300 - 60;  // still held
  for (BodyIndex b = 0; b < physics.body_count(); ++b) physics.write(b, states[k][b]);
  physics.restore(k);
  for (Frame f = k + 1; f <= 300; ++f) {
    step_frame(physics, f);
    REQUIRE(frame_equal(states[f], physics));
  }

  // Frame 100 was overwritten long ago: restore must still leave a consistent, finite world.
  for (BodyIndex b = 0; b < physics.body_count(); ++b) physics.write(b, states[100][b]);
  physics.restore(100);
  for (Frame f = 101; f <= 160; ++f) step_frame(physics, f);
  for (BodyIndex b = 0; b < physics.body_count(); ++b) {
    const ObjectState s = physics.read(b);
    CHECK(std::isfinite(s.position.x + s.position.y + s.position.z));
    CHECK(s.position.y > 0);
  }
}
