// SPDX-License-Identifier: MIT
// --projectiles: a bot's gun. It fires short-lived projectiles (arena.hpp's kProjectileType)
// from the bot's ball along its aim, and removes each one when its lifetime has passed or when
// it touches a wall. Every decision is its owner's, taken from the frame it has simulated and
// the state there, never from the wall clock: the same match makes the same decisions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "arena.hpp"
#include "shoal/peer.hpp"
#include "shoal/peer_config.hpp"
#include "timeline.hpp"

namespace lan_match {

inline constexpr double kProjectileLifetimeSeconds = 2;
inline constexpr float kProjectileSpeed = 9;  // m/s along the ground, plus a lob upward

/// Live projectiles one peer may have: a lifetime's worth of shots, and some to spare.
std::size_t projectiles_per_peer(int rate);
/// The spawn slots a match of `peers` reserves: a range per peer, and four more for peers that
/// come back with new ids (--restart-peer).
std::size_t projectile_slots(int peers, int rate);
/// The limits every peer of the match sets (PeerConfig::spawning).
shoal::SpawnConfig projectile_spawning(int rate);

class Gun {
 public:
  Gun(int rate, const Timeline& timeline, const Arena& arena);

  /// Call after each Peer::update: removes this peer's projectiles that are due (lifetime or
  /// wall; held while the settled world is compared, Timeline::removing), then, when `firing`
  /// and before the bots stop, fires the next shot from `ball` along `aim` (a direction along
  /// the ground) if its frame has come. At most one shot per call: frames an update skipped
  /// lose their shots rather than firing a burst.
  void update(shoal::Peer& peer, shoal::ObjectId ball, shoal::Vec3 aim, bool firing);

  std::uint64_t fired() const { return fired_; }
  std::uint64_t removed() const { return removed_; }

 private:
  struct Shot {
    shoal::ObjectId id;
    shoal::Frame born;  // its spawn frame: it is judged only once that frame is simulated
    shoal::Frame dies;  // the first frame its lifetime has passed
  };
  bool touches_wall(const shoal::ObjectState& state) const;

  int rate_;
  const Timeline& timeline_;
  float wall_;  // where a projectile's centre touches a wall (m)
  shoal::Frame lifetime_;
  shoal::Frame first_shot_ = shoal::kNoFrame;
  std::int64_t next_shot_ = 0;  // index of the next shot: fired at first_shot_ + index * 60 / rate
  std::vector<Shot> shots_;     // live, in the order fired
  std::uint64_t fired_ = 0, removed_ = 0;
};

}  // namespace lan_match
