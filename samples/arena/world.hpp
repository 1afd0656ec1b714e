// SPDX-License-Identifier: MIT
// The arena every peer of a match builds identically: one ball per player slot on a circle and
// a mix of spheres and boxes in the middle, plus one peer of it (a Player).
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "engine_world.hpp"
#include "shoal/peer.hpp"

namespace arena {

/// Balls exist for every slot whether or not a player takes it, so the world does not depend
/// on who joins; peer p drives ball kFirstBall + p (later peers watch).
inline constexpr int kPlayerSlots = 8;
inline constexpr shoal::ObjectId kFirstBall = 1;
inline constexpr shoal::ObjectId kFirstObject = 100;
inline constexpr float kHalfExtent = 14;  ///< m, walls at +-kHalfExtent in x and z

/// Projectiles, spawned during play (Peer::spawn) on the reference physics: each peer may have
/// kProjectilesPerPeer alive, and removes each one after its lifetime or when it reaches a wall.
inline constexpr std::uint16_t kProjectile = 1;
inline constexpr float kProjectileRadius = 0.15f;  // m
inline constexpr std::size_t kProjectilesPerPeer = 12;
inline constexpr shoal::Frame kProjectileLifetime = 150;  // frames: 2.5 s
inline constexpr shoal::Frame kFireInterval = 10;         // frames between two shots of one gun

enum class Shape { sphere, box };

/// What the renderer needs to know of a body beyond its state.
struct Body {
  shoal::ObjectId id = 0;
  Shape shape = Shape::sphere;
  float half_size = 0.5f;  ///< radius of a sphere, half edge of a box
  bool player_ball = false;
};

std::vector<Body> arena_layout(int objects);
std::optional<shoal::ObjectId> ball_of(shoal::PeerId peer);

/// A peer's projectiles: fires them from its ball and removes them when they are due. Every
/// decision is taken from the peer's frame and its simulated state, not the wall clock.
class Gun {
 public:
  /// Fires one projectile from `ball` along `direction` (on the ground) unless the last shot
  /// was under kFireInterval frames ago, kProjectilesPerPeer are alive or the world has no
  /// spawn slots. True when it fired.
  bool fire(shoal::Peer& peer, const shoal::samples::EngineWorld& world, shoal::ObjectId ball, shoal::Vec3 direction);
  /// Removes this peer's projectiles whose lifetime has passed or that reach a wall.
  void expire(shoal::Peer& peer, const shoal::samples::EngineWorld& world);
  std::uint64_t fired() const { return fired_; }

 private:
  struct Shot {
    shoal::ObjectId id;
    shoal::Frame born;  // its spawn frame: judged only once that frame is simulated
    shoal::Frame dies;
  };
  std::vector<Shot> shots_;  // alive, oldest first
  shoal::Frame next_shot_ = 0;
  std::uint64_t fired_ = 0;
};

/// One peer of the match with its own physics, as the human player or a bot uses it.
struct Player {
  std::unique_ptr<shoal::samples::EngineWorld> world;
  std::unique_ptr<shoal::Peer> peer;
  std::optional<shoal::ObjectId> ball;  ///< set once the match gives this peer an id
  std::uint64_t desyncs = 0;
  Gun gun;
};

/// The layout on `physics` (Box2D plays it seen from above) and a peer on it; on the reference
/// physics with spawn slots for projectiles (the other engines' adapters have none yet).
Player make_player(const std::vector<Body>& layout, const shoal::TransportConfig& transport,
                   shoal::samples::Physics physics);
/// The peer settings every window and bot of a match shares.
shoal::PeerConfig arena_peer_config();
/// Drains the peer's events: takes the ball of its slot on joining, counts desyncs.
void handle_events(Player& player);

}  // namespace arena
