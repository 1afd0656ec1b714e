// SPDX-License-Identifier: MIT
// A bot player: steers its ball into a randomly chosen shared object, picking another every
// two to four seconds, so balls cross the arena, meet and hand objects over.
#pragma once

#include <cstdint>
#include <random>

#include "engine_world.hpp"
#include "shoal/peer.hpp"

namespace lan_match {

class Bot {
 public:
  /// Steers along the ground of `world` (which must outlive the bot).
  Bot(std::uint64_t seed, int objects, float tick_hz, const shoal::samples::EngineWorld& world);
  /// The push for this frame: toward the current target, along the ground.
  shoal::Input input(const shoal::Peer& peer, shoal::ObjectId ball);

 private:
  const shoal::samples::EngineWorld& world_;
  std::mt19937_64 random_;
  std::uniform_int_distribution<int> pick_object_;
  std::uniform_int_distribution<shoal::Frame> pick_duration_;
  shoal::ObjectId target_ = 0;
  shoal::Frame next_pick_ = 0;
};

}  // namespace lan_match
