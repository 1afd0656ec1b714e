// SPDX-License-Identifier: MIT
#include "world.hpp"

#include <algorithm>
#include <cmath>

namespace arena {

std::vector<Body> arena_layout(int objects) {
  std::vector<Body> layout;
  for (int p = 0; p < kPlayerSlots; ++p) {
    layout.push_back({kFirstBall + static_cast<shoal::ObjectId>(p), Shape::sphere, 0.5f, true});
  }
  for (int i = 0; i < objects; ++i) {
    const Shape shape = i % 3 == 2 ? Shape::box : Shape::sphere;
    layout.push_back({kFirstObject + static_cast<shoal::ObjectId>(i), shape, 0.4f, false});
  }
  return layout;
}

std::optional<shoal::ObjectId> ball_of(shoal::PeerId peer) {
  if (peer >= kPlayerSlots) return std::nullopt;
  return kFirstBall + peer;
}

namespace {

shoal::ObjectState start_state(const Body& body, int index, int objects) {
  shoal::ObjectState s;
  if (body.player_ball) {
    const float a = 6.2831853f * static_cast<float>(index) / static_cast<float>(kPlayerSlots);
    s.position = {std::cos(a) * kHalfExtent * 0.75f, body.half_size, std::sin(a) * kHalfExtent * 0.75f};
    return s;
  }
  // Objects in a square grid around the centre, at rest until something pushes them.
  const int i = index - kPlayerSlots;
  const int side = static_cast<int>(std::ceil(std::sqrt(static_cast<float>(objects))));
  const float centre = static_cast<float>(side - 1) * 0.5f;
  s.position = {(static_cast<float>(i % side) - centre) * 1.6f, body.half_size,
                (static_cast<float>(i / side) - centre) * 1.6f};
  s.at_rest = true;
  return s;
}

}  // namespace

Player make_player(const std::vector<Body>& layout, const shoal::TransportConfig& transport,
                   shoal::samples::Physics physics) {
  shoal::samples::WorldSpec spec;
  spec.half_x = kHalfExtent;
  spec.half_z = kHalfExtent;
  // Enough damping that pushed objects come to rest within seconds.
  spec.linear_damping = 0.6f;
  spec.angular_damping = 0.6f;
  const int objects = static_cast<int>(layout.size()) - kPlayerSlots;
  for (std::size_t i = 0; i < layout.size(); ++i) {
    const Body& b = layout[i];
    using Spec = shoal::samples::BodySpec;
    spec.bodies.push_back({b.id, b.shape == Shape::sphere ? Spec::Shape::sphere : Spec::Shape::box,
                           {b.half_size, b.half_size, b.half_size}, b.player_ball ? 2.0f : 1.0f,
                           start_state(b, static_cast<int>(i), objects)});
  }
  if (physics == shoal::samples::Physics::reference) {
    // A range of slots per player slot, and one for a peer whose id lies past them.
    spec.spawn_slots = (kPlayerSlots + 1) * kProjectilesPerPeer;
    spec.spawn_types.push_back({kProjectile, shoal::samples::BodySpec::Shape::sphere,
                                {kProjectileRadius, kProjectileRadius, kProjectileRadius}, 0.3f});
  }
  Player player;
  player.world = shoal::samples::make_engine_world(physics, spec);
  player.peer = std::make_unique<shoal::Peer>(arena_peer_config(), player.world->simulation(),
                                              shoal::make_enet_transport(transport));
  return player;
}

shoal::PeerConfig arena_peer_config() {
  shoal::PeerConfig config;
  config.session = "shoal-arena";
  // Smaller than the default so the simulated region's edge shows inside the arena.
  config.authority.simulated_radius = 8;
  config.spawning.max_objects_per_peer = kProjectilesPerPeer;
  config.spawning.max_spawns_per_second = 60 / static_cast<int>(kFireInterval) + 2;
  config.spawning.removed_on_leave = {kProjectile};
  return config;
}

bool Gun::fire(shoal::Peer& peer, const shoal::samples::EngineWorld& world, shoal::ObjectId ball,
               shoal::Vec3 direction) {
  const shoal::Frame now = peer.frame();
  if (world.physics() != shoal::samples::Physics::reference || !peer.in_match() || now < next_shot_ ||
      shots_.size() >= kProjectilesPerPeer || shoal::length_squared(direction) == 0) {
    return false;
  }
  const shoal::Vec3 along = shoal::normalized(direction);
  shoal::ObjectState shot;
  shot.position = peer.state(ball).position + along * 0.8f + shoal::Vec3{0, 0.1f, 0};
  shot.linear_velocity = along * 10.0f + shoal::Vec3{0, 2.0f, 0};
  shots_.push_back({peer.spawn(kProjectile, shot), now + 1, now + 1 + kProjectileLifetime});
  next_shot_ = now + kFireInterval;
  ++fired_;
  return true;
}

void Gun::expire(shoal::Peer& peer, const shoal::samples::EngineWorld& world) {
  if (!peer.in_match()) return;
  const shoal::Frame now = peer.frame();
  const float wall = kHalfExtent - kProjectileRadius - 0.02f;
  std::erase_if(shots_, [&](const Shot& shot) {
    if (now < shot.born) return false;  // see samples/lan_match/gun.cpp
    const shoal::Vec3 at = world.to_ground(peer.state(shot.id).position);
    if (now < shot.dies && std::fabs(at.x) < wall && std::fabs(at.z) < wall) return false;
    peer.remove(shot.id);
    return true;
  });
}

void handle_events(Player& player) {
  for (shoal::Event e; player.peer->poll_event(e);) {
    if (e.kind == shoal::EventKind::joined_match) {
      player.ball = ball_of(player.peer->id());
      if (player.ball) player.peer->set_controlled(*player.ball);
    } else if (e.kind == shoal::EventKind::desync) {
      ++player.desyncs;
    }
  }
}

}  // namespace arena
