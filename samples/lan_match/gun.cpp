// SPDX-License-Identifier: MIT
#include "gun.hpp"

#include <algorithm>
#include <cmath>

namespace lan_match {
namespace {

constexpr float kLob = 2.5f;  // m/s upward: a shot arcs, lands and bounces
constexpr int kRejoiners = 4;  // peer ids past the launched ones that get a range of their own

}  // namespace

std::size_t projectiles_per_peer(int rate) {
  return static_cast<std::size_t>(std::ceil(rate * kProjectileLifetimeSeconds)) + static_cast<std::size_t>(rate) + 4;
}

std::size_t projectile_slots(int peers, int rate) {
  return rate <= 0 ? 0 : static_cast<std::size_t>(peers + kRejoiners) * projectiles_per_peer(rate);
}

shoal::SpawnConfig projectile_spawning(int rate) {
  shoal::SpawnConfig config;
  config.max_objects_per_peer = projectiles_per_peer(rate);
  // A gun fires at most `rate` shots in any 60 frames; the rest is margin for the counting
  // window's start (SpawnConfig::max_spawns_per_second).
  config.max_spawns_per_second = rate + 2;
  config.removed_on_leave = {kProjectileType};
  return config;
}

Gun::Gun(int rate, const Timeline& timeline, const Arena& arena)
    : rate_(rate),
      timeline_(timeline),
      // Its centre within a half diagonal of a wall: a box that touches it, turned any way.
      wall_(arena.half_extent - kProjectileHalfEdge * 1.4143f - 0.02f),
      lifetime_(static_cast<shoal::Frame>(std::lround(kProjectileLifetimeSeconds * timeline.tick_hz))) {}

bool Gun::touches_wall(const shoal::ObjectState& state) const {
  return std::abs(state.position.x) >= wall_ || std::abs(state.position.z) >= wall_;
}

void Gun::update(shoal::Peer& peer, shoal::ObjectId ball, shoal::Vec3 aim, bool firing) {
  if (!peer.in_match()) return;
  const shoal::Frame now = peer.frame();
  if (timeline_.removing(now)) {
    std::erase_if(shots_, [&](const Shot& shot) {
      // Not in its own spawn frame: that removal would be the frame's second change of the slot
      // when the shot took a slot freed in that frame (the SDK keeps one of each kind).
      if (now < shot.born || (now < shot.dies && !touches_wall(peer.state(shot.id)))) return false;
      peer.remove(shot.id);
      ++removed_;
      return true;
    });
  }
  if (!firing || now + 1 >= timeline_.bots_stop) return;
  const auto tick = static_cast<std::int64_t>(timeline_.tick_hz);
  if (first_shot_ == shoal::kNoFrame) first_shot_ = now + 1;
  auto shot_frame = [&](std::int64_t index) { return first_shot_ + static_cast<shoal::Frame>(index * tick / rate_); };
  if (now + 1 < shot_frame(next_shot_)) return;
  while (shot_frame(next_shot_) <= now + 1) ++next_shot_;  // the ones an update skipped are lost
  if (shots_.size() >= projectiles_per_peer(rate_)) return;
  // Spread around the aim by up to 60 degrees either way, varied by frame and peer.
  const float spread = static_cast<float>((now * 37 + peer.id() * 101) % 121 - 60) * 0.0174533f;
  const float length = std::hypot(aim.x, aim.z);
  const float base = length > 1e-3f ? std::atan2(aim.z, aim.x) : static_cast<float>(now % 628) * 0.01f;
  const shoal::Vec3 direction{std::cos(base + spread), 0, std::sin(base + spread)};
  const shoal::ObjectState from = peer.state(ball);
  shoal::ObjectState shot;
  const float clearance = 0.5f + kProjectileHalfEdge * 1.8f;  // outside the ball (radius 0.5 m), turned any way
  shot.position = from.position + direction * clearance + shoal::Vec3{0, 0.1f, 0};
  shot.linear_velocity = direction * kProjectileSpeed + shoal::Vec3{0, kLob, 0};
  // The spawn exists from the next frame stepped (Peer::spawn): its lifetime counts from there.
  shots_.push_back({peer.spawn(kProjectileType, shot), now + 1, now + 1 + lifetime_});
  ++fired_;
}

}  // namespace lan_match
