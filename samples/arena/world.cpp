// SPDX-License-Identifier: MIT
#include "world.hpp"

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
  return config;
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
