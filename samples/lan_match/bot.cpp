// SPDX-License-Identifier: MIT
#include "bot.hpp"

#include "arena.hpp"

namespace lan_match {

Bot::Bot(std::uint64_t seed, int objects, float tick_hz, const shoal::samples::EngineWorld& world)
    : world_(world),
      random_(seed),
      pick_object_(0, objects - 1),
      pick_duration_(static_cast<shoal::Frame>(2 * tick_hz), static_cast<shoal::Frame>(4 * tick_hz)) {}

shoal::Input Bot::input(const shoal::Peer& peer, shoal::ObjectId ball) {
  if (peer.frame() >= next_pick_) {
    target_ = shared_object(pick_object_(random_));
    next_pick_ = peer.frame() + pick_duration_(random_);
  }
  const shoal::Vec3 to_target = peer.state(target_).position - peer.state(ball).position;
  shoal::Input input;
  input.axis = shoal::normalized(world_.along_ground(to_target));
  return input;
}

}  // namespace lan_match
