// SPDX-License-Identifier: MIT
// A world of bodies that move at constant velocity forever (no friction, no collisions), for
// tests that need a difference between peers never to end by coming to rest, or a player's
// input to show exactly in its body's velocity.
#pragma once

#include <vector>

#include "shoal/math.hpp"
#include "shoal/simulation.hpp"

namespace shoal::test {

inline ObjectState moving_at(Vec3 position, Vec3 velocity) {
  ObjectState s;
  s.position = position;
  s.linear_velocity = velocity;
  s.at_rest = false;
  return s;
}

/// Body 0 is at rest until its player's input sets its velocity (the input's axis, in m/s);
/// body i > 0 drifts along z at 0.25 i m/s.
/// nudge() moves one body by a little after one step, once, as a glitch would.
class DriftWorld : public Simulation {
 public:
  explicit DriftWorld(int bodies) {
    for (int i = 0; i < bodies; ++i) {
      states_.push_back(moving_at({2.0f * static_cast<float>(i), 0.5f, 0}, {0, 0, i == 0 ? 0.0f : 0.25f * static_cast<float>(i)}));
    }
    states_[0].at_rest = true;
  }
  void step(Frame frame, std::span<const BodyInput> inputs) override {
    for (const BodyInput& in : inputs) {
      states_[in.body].linear_velocity = {in.input.axis.x, 0, in.input.axis.z};
    }
    for (ObjectState& s : states_) {
      s.position += s.linear_velocity * (1.0f / 60);
      s.at_rest = length_squared(s.linear_velocity) == 0;
    }
    if (frame == nudge_frame_ && !nudged_) {
      states_[nudge_body_].position.x += nudge_m_;
      nudged_ = true;
    }
  }
  std::size_t body_count() const override { return states_.size(); }
  ObjectId body_id(BodyIndex body) const override { return 1 + body; }
  float bounding_radius(BodyIndex) const override { return 0.5f; }
  ObjectState read(BodyIndex body) const override { return states_[body]; }
  void write(BodyIndex body, const ObjectState& state) override { states_[body] = state; }

  void nudge(BodyIndex body, Frame frame, float metres) {
    nudge_body_ = body;
    nudge_frame_ = frame;
    nudge_m_ = metres;
  }
  bool nudged() const { return nudged_; }

 private:
  std::vector<ObjectState> states_;
  BodyIndex nudge_body_ = 0;
  Frame nudge_frame_ = kNoFrame;
  float nudge_m_ = 0;
  bool nudged_ = false;
};

}  // namespace shoal::test
