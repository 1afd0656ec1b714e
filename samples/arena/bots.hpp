// SPDX-License-Identifier: MIT
// Bot players: each is a full peer of the match (own physics, own ENet transport on the same
// machine) whose ball chases one object after another, firing a projectile ahead of it now
// and then.
#pragma once

#include <random>
#include <vector>

#include "world.hpp"

namespace arena {

/// Steers a ball toward a target object, picking a new target every two to four seconds.
class Bot {
 public:
  Bot(std::uint64_t seed, int objects) : random_(seed), objects_(objects) {}
  /// The push toward the current target, along the ground of the peer's `world`.
  shoal::Input steer(const shoal::Peer& peer, shoal::ObjectId ball, const shoal::samples::EngineWorld& world);

 private:
  std::mt19937_64 random_;
  int objects_;
  shoal::ObjectId target_ = kFirstObject;
  shoal::Frame next_pick_ = 0;
};

class Bots {
 public:
  /// Creates `count` bot peers on `physics` that join the match hosted at `host`.
  Bots(int count, const std::vector<Body>& layout, const shoal::TransportConfig& transport,
       const shoal::Address& host, std::uint64_t seed, shoal::samples::Physics physics);
  /// One render frame: events, inputs and the frames that are due, for every bot.
  void update();
  std::size_t size() const { return players_.size(); }

 private:
  std::vector<Player> players_;
  std::vector<Bot> bots_;
};

}  // namespace arena
