// SPDX-License-Identifier: MIT
#include "bench_world.hpp"

#include <algorithm>
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

float arena_half(const WorldSpec& spec) { return static_cast<float>(grid_side(spec)) * kPitch * 0.5f + 4.0f; }

}  // namespace

samples::WorldSpec arena_layout(const WorldSpec& spec) {
  using samples::BodySpec;
  samples::WorldSpec layout;
  layout.restore_contacts = spec.restore_contacts;
  layout.half_x = layout.half_z = arena_half(spec);
  layout.linear_damping = 0.6f;
  layout.angular_damping = 0.6f;
  const int side = grid_side(spec);
  for (int p = 0; p < spec.balls; ++p) {
    // On a circle, snapped to the middle of a grid cell so no ball starts inside an object.
    const float angle = 6.2831853f * static_cast<float>(p) / static_cast<float>(spec.balls);
    const float radius = static_cast<float>(side) * kPitch * 0.3f;
    BodySpec ball{kFirstBall + static_cast<ObjectId>(p), BodySpec::Shape::sphere, {0.5f, 0, 0}, 2.0f, {}};
    ball.state.position = {std::round(std::cos(angle) * radius / kPitch) * kPitch + kPitch * 0.5f, 0.5f,
                           std::round(std::sin(angle) * radius / kPitch) * kPitch + kPitch * 0.5f};
    layout.bodies.push_back(ball);
  }
  for (int i = 0; i < spec.objects; ++i) {
    BodySpec object{kFirstObject + static_cast<ObjectId>(i), i % 2 == 0 ? BodySpec::Shape::sphere : BodySpec::Shape::box,
                    {0.4f, 0.4f, 0.4f}, 1.0f, {}};
    object.state.position = {grid_coordinate(i % side, side), 0.4f, grid_coordinate(i / side, side)};
    object.state.at_rest = true;
    layout.bodies.push_back(object);
  }
  if (spec.spawn_slots) {
    // A range per peer id: the host's and each joiner's (ids 0..balls at most).
    layout.spawn_slots = static_cast<std::size_t>(spec.balls + 1) * projectiles_per_peer(spec);
    layout.spawn_types.push_back({kBenchProjectile, BodySpec::Shape::sphere, {0.15f, 0.15f, 0.15f}, 0.3f});
  }
  return layout;
}

std::size_t projectiles_per_peer(const WorldSpec& spec) {
  // A lifetime's worth of shots at the rate, and some to spare; the rate of part 7 if none.
  const int rate = std::max(spec.projectiles, 1);
  return static_cast<std::size_t>(rate * (kProjectileLifetimeFrames / 60 + 1) + 4);
}

void Gun::fire(Peer& peer, ObjectId ball) {
  if (per_second_ <= 0 || !peer.in_match()) return;
  const Frame now = peer.frame();
  // Oldest first: the front dies first.
  std::size_t due = 0;
  while (due < shots_.size() && shots_[due].dies <= now) peer.remove(shots_[due++].id);
  shots_.erase(shots_.begin(), shots_.begin() + static_cast<std::ptrdiff_t>(due));
  if (now < next_shot_ || shots_.size() >= most_) return;
  next_shot_ = now + std::max<Frame>(60 / per_second_, 1);
  const float angle = static_cast<float>((now * 37 + static_cast<Frame>(ball) * 101) % 628) * 0.01f;
  const Vec3 direction{std::cos(angle), 0, std::sin(angle)};
  ObjectState shot;
  shot.position = peer.state(ball).position + direction * 0.8f + Vec3{0, 0.2f, 0};
  shot.linear_velocity = direction * 8.0f + Vec3{0, 2.0f, 0};
  shots_.push_back({peer.spawn(kBenchProjectile, shot), now + 1 + kProjectileLifetimeFrames});
}

std::unique_ptr<samples::EngineWorld> build_arena(const WorldSpec& spec) {
  return samples::make_engine_world(spec.physics, arena_layout(spec));
}

PeerConfig bench_peer_config(const WorldSpec& spec, const samples::EngineWorld& world) {
  PeerConfig config;
  config.input_delay_frames = spec.input_delay_frames;
  config.freeze_outside_simulated_region = spec.freeze_outside_simulated_region;
  if (spec.spawn_slots) {
    config.spawning.max_objects_per_peer = projectiles_per_peer(spec);
    config.spawning.max_spawns_per_second = std::max(spec.projectiles, 1) + 2;
  }
  const float reach = arena_half(spec) + 5;
  const Vec3 low = world.to_world({-reach, -1, -reach}), high = world.to_world({reach, 10, reach});
  SnapshotConfig& s = config.snapshots;
  s.world_min = {std::min({s.world_min.x, low.x, high.x}), std::min({s.world_min.y, low.y, high.y}),
                 std::min({s.world_min.z, low.z, high.z})};
  s.world_max = {std::max({s.world_max.x, low.x, high.x}), std::max({s.world_max.y, low.y, high.y}),
                 std::max({s.world_max.z, low.z, high.z})};
  return config;
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

Input Bot::toward(Vec3 ball, Vec3 target) const {
  Input in;
  in.axis = normalized(world_->along_ground(target - ball));
  return in;
}

}  // namespace shoal::bench
