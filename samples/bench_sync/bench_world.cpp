#include "bench_world.hpp"

#include <cmath>

namespace shoal::bench {
namespace {

constexpr float kPitch = 1.5f;  // m between neighbouring objects: none touch at rest

int grid_side(const WorldSpec& spec) {
  return static_cast<int>(std::ceil(std::sqrt(static_cast<float>(spec.objects))));
}

float grid_coordinate(int index, int side) {
  return (static_cast<float>(index) - static_cast<float>(side - 1) * 0.5f) * kPitch;
}

}  // namespace

ReferencePhysicsConfig arena_physics(const WorldSpec& spec) {
  ReferencePhysicsConfig c;
  const float half = static_cast<float>(grid_side(spec)) * kPitch * 0.5f + 4.0f;
  c.arena_half_x = half;
  c.arena_half_z = half;
  c.linear_damping = 0.6f;
  c.angular_damping = 0.6f;
  return c;
}

void build_arena(ReferencePhysics& physics, const WorldSpec& spec) {
  const int side = grid_side(spec);
  for (int p = 0; p < spec.balls; ++p) {
    // On a circle, snapped to the middle of a grid cell so no ball starts inside an object.
    const float angle = 6.2831853f * static_cast<float>(p) / static_cast<float>(spec.balls);
    const float radius = static_cast<float>(side) * kPitch * 0.3f;
    ObjectState s;
    s.position = {std::round(std::cos(angle) * radius / kPitch) * kPitch + kPitch * 0.5f, 0.5f,
                  std::round(std::sin(angle) * radius / kPitch) * kPitch + kPitch * 0.5f};
    physics.add_sphere(kFirstBall + static_cast<ObjectId>(p), 0.5f, 2.0f, s);
  }
  for (int i = 0; i < spec.objects; ++i) {
    ObjectState s;
    s.position = {grid_coordinate(i % side, side), 0.4f, grid_coordinate(i / side, side)};
    s.at_rest = true;
    if (i % 2 == 0) {
      physics.add_sphere(kFirstObject + static_cast<ObjectId>(i), 0.4f, 1.0f, s);
    } else {
      physics.add_box(kFirstObject + static_cast<ObjectId>(i), {0.4f, 0.4f, 0.4f}, 1.0f, s);
    }
  }
}

Input Bot::input(const Peer& peer, ObjectId ball, Frame frame) {
  const ObjectId object = target(frame);
  return toward(peer.state(ball).position, peer.state(object).position);
}

ObjectId Bot::target(Frame frame) {
  if (frame >= next_pick_) {
    target_ = kFirstObject + static_cast<ObjectId>(random_.next_u64() %
                                                   static_cast<std::uint64_t>(objects_));
    next_pick_ = frame + 120 + static_cast<Frame>(random_.next_u64() % 120);
  }
  return target_;
}

Input Bot::toward(Vec3 ball, Vec3 target) {
  const Vec3 to = target - ball;
  Input in;
  in.axis = normalized(Vec3{to.x, 0, to.z});
  return in;
}

}  // namespace shoal::bench
