// SPDX-License-Identifier: MIT
#include "bots.hpp"

namespace arena {

shoal::Input Bot::steer(const shoal::Peer& peer, shoal::ObjectId ball, const shoal::samples::EngineWorld& world) {
  shoal::Input input;
  if (objects_ == 0) return input;
  const shoal::Frame frame = peer.frame();
  if (frame >= next_pick_) {
    target_ = kFirstObject + static_cast<shoal::ObjectId>(random_() % static_cast<std::uint64_t>(objects_));
    next_pick_ = frame + 120 + static_cast<shoal::Frame>(random_() % 120);
  }
  const shoal::Vec3 to = peer.state(target_).position - peer.state(ball).position;
  input.axis = shoal::normalized(world.along_ground(to));
  return input;
}

Bots::Bots(int count, const std::vector<Body>& layout, const shoal::TransportConfig& transport,
           const shoal::Address& host, std::uint64_t seed, shoal::samples::Physics physics) {
  const int objects = static_cast<int>(layout.size()) - kPlayerSlots;
  for (int i = 0; i < count; ++i) {
    shoal::TransportConfig t = transport;
    t.port = 0;  // any free port: only the player's peer listens where it was told
    t.conditioner = {};  // the overlay's sliders impair the player's links, not the bots'
    players_.push_back(make_player(layout, t, physics));
    players_.back().peer->join(host);
    bots_.emplace_back(seed + static_cast<std::uint64_t>(i) * 7919, objects);
  }
}

void Bots::update() {
  for (std::size_t i = 0; i < players_.size(); ++i) {
    Player& p = players_[i];
    handle_events(p);
    shoal::Input input;
    if (p.ball && p.peer->in_match()) {
      input = bots_[i].steer(*p.peer, *p.ball, *p.world);
      p.peer->set_input(input);
    }
    p.peer->update();
    p.gun.expire(*p.peer, *p.world);
    // A shot about every second and a half, ahead of the ball, staggered between the bots.
    if (p.ball && (p.peer->frame() + static_cast<shoal::Frame>(i) * 23) % 90 == 0) {
      p.gun.fire(*p.peer, *p.world, *p.ball, input.axis);
    }
  }
}

}  // namespace arena
