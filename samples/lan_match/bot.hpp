// A bot player: steers its ball into a randomly chosen shared object, picking another every
// two to four seconds, so balls cross the arena, meet and hand objects over.
#pragma once

#include <cstdint>
#include <random>

#include "shoal/peer.hpp"

namespace lan_match {

class Bot {
 public:
  Bot(std::uint64_t seed, int objects, float tick_hz);
  /// The push for this frame: toward the current target, level with the ground.
  shoal::Input input(const shoal::Peer& peer, shoal::ObjectId ball);

 private:
  std::mt19937_64 random_;
  std::uniform_int_distribution<int> pick_object_;
  std::uniform_int_distribution<shoal::Frame> pick_duration_;
  shoal::ObjectId target_ = 0;
  shoal::Frame next_pick_ = 0;
};

}  // namespace lan_match
