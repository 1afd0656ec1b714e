// SPDX-License-Identifier: MIT
#include "scene.hpp"

#include <algorithm>
#include <cmath>

#include "palette.hpp"

namespace arena {
namespace {

constexpr SDL_Color kFloor{38, 42, 50, 255};
constexpr SDL_Color kGrid{50, 55, 65, 255};
constexpr SDL_Color kWall{170, 175, 185, 255};
constexpr SDL_Color kRawOutline{255, 255, 255, 255};
constexpr int kCircleSegments = 40;

SDL_Color colour_of(Rgb rgb, std::uint8_t alpha = 255) { return {rgb.r, rgb.g, rgb.b, alpha}; }

SDL_Color darker(SDL_Color c) {
  return {static_cast<std::uint8_t>(c.r / 2), static_cast<std::uint8_t>(c.g / 2),
          static_cast<std::uint8_t>(c.b / 2), c.a};
}

/// The horizontal heading of an orientation in `world`, on the ground: the body's x axis
/// projected on the ground, or its z axis when x points (nearly) straight up or down.
shoal::Vec3 heading(const shoal::samples::EngineWorld& world, shoal::Quat q) {
  shoal::Vec3 axis = world.to_ground(shoal::rotate(q, {1, 0, 0}));
  if (std::fabs(axis.y) > 0.7f) axis = world.to_ground(shoal::rotate(q, {0, 0, 1}));
  const shoal::Vec3 flat = shoal::normalized(shoal::Vec3{axis.x, 0, axis.z});
  return shoal::length_squared(flat) > 0 ? flat : shoal::Vec3{1, 0, 0};
}

}  // namespace

void Scene::draw(const Player& player, std::span<const Body> layout, SDL_Rect viewport,
                 const SceneOptions& options) {
  fit(viewport);
  SDL_RenderSetClipRect(renderer_, &viewport);
  SDL_SetRenderDrawBlendMode(renderer_, SDL_BLENDMODE_BLEND);
  draw_floor();
  const shoal::Peer& peer = *player.peer;
  const shoal::samples::EngineWorld& world = *player.world;  // positions and headings go to the ground
  if (peer.in_match()) {
    draw_regions(player);
    for (const Body& body : layout) {
      const shoal::VisualState visual = peer.visual(body.id);
      const shoal::Vec3 at = world.to_ground(visual.position);
      draw_body(body, at, heading(world, visual.orientation), colour_of(owner_colour(peer.owner(body.id))));
      if (body.player_ball) {
        // Player balls carry a ring, thicker for the one this window drives.
        const SDL_Color ring = body.id == player.ball ? SDL_Color{255, 255, 255, 255} : SDL_Color{20, 20, 20, 255};
        stroke(circle(at, body.half_size + 0.08f), ring);
        if (body.id == player.ball) stroke(circle(at, body.half_size + 0.16f), ring);
      }
    }
    // Objects spawned during play (projectiles): small discs in their owner's colour.
    for (const shoal::ObjectId id : peer.spawned_objects()) {
      const shoal::VisualState visual = peer.visual(id);
      const Body projectile{id, Shape::sphere, kProjectileRadius, false};
      draw_body(projectile, world.to_ground(visual.position), {1, 0, 0}, colour_of(owner_colour(peer.owner(id))));
    }
    if (options.raw_state) {
      for (const Body& body : layout) {
        const shoal::ObjectState state = peer.state(body.id);
        outline_body(body, world.to_ground(state.position), heading(world, state.orientation), kRawOutline);
      }
    }
  }
  SDL_RenderSetClipRect(renderer_, nullptr);
}

void Scene::fit(SDL_Rect viewport) {
  const float side = static_cast<float>(std::min(viewport.w, viewport.h));
  pixels_per_m_ = side / (2 * kHalfExtent + 1.0f);  // half a metre of margin on each side
  origin_ = {static_cast<float>(viewport.x) + static_cast<float>(viewport.w) * 0.5f,
             static_cast<float>(viewport.y) + static_cast<float>(viewport.h) * 0.5f};
}

// Top-down, in ground coordinates: x to the right, z down the screen; height is not shown.
SDL_FPoint Scene::to_screen(shoal::Vec3 p) const {
  return {origin_.x + p.x * pixels_per_m_, origin_.y + p.z * pixels_per_m_};
}

void Scene::draw_floor() {
  const SDL_FPoint low = to_screen({-kHalfExtent, 0, -kHalfExtent});
  const SDL_FPoint high = to_screen({kHalfExtent, 0, kHalfExtent});
  const SDL_FRect floor{low.x, low.y, high.x - low.x, high.y - low.y};
  SDL_SetRenderDrawColor(renderer_, kFloor.r, kFloor.g, kFloor.b, kFloor.a);
  SDL_RenderFillRectF(renderer_, &floor);
  SDL_SetRenderDrawColor(renderer_, kGrid.r, kGrid.g, kGrid.b, kGrid.a);
  for (float m = -kHalfExtent + 2; m < kHalfExtent; m += 2) {
    const SDL_FPoint a = to_screen({m, 0, -kHalfExtent}), b = to_screen({m, 0, kHalfExtent});
    SDL_RenderDrawLineF(renderer_, a.x, a.y, b.x, b.y);
    const SDL_FPoint c = to_screen({-kHalfExtent, 0, m}), d = to_screen({kHalfExtent, 0, m});
    SDL_RenderDrawLineF(renderer_, c.x, c.y, d.x, d.y);
  }
  SDL_SetRenderDrawColor(renderer_, kWall.r, kWall.g, kWall.b, kWall.a);
  SDL_RenderDrawRectF(renderer_, &floor);
}

// The core region as the authority layer sizes it, max(r_min, |v| T) around the controlled
// ball's simulation state, and the simulated region simulated_radius beyond it.
void Scene::draw_regions(const Player& player) {
  if (!player.ball) return;
  const shoal::ObjectState ball = player.peer->state(*player.ball);
  const shoal::Vec3 at = player.world->to_ground(ball.position);
  const shoal::AuthorityConfig authority = arena_peer_config().authority;
  const float core = std::max(authority.r_min, shoal::length(ball.linear_velocity) * authority.T);
  const Rgb own = owner_colour(player.peer->id());
  fill_convex(circle(at, core), colour_of(own, 45));
  stroke(circle(at, core), colour_of(own, 200));
  stroke(circle(at, core + authority.simulated_radius), colour_of(own, 120));
}

void Scene::draw_body(const Body& body, shoal::Vec3 position, shoal::Vec3 heading, SDL_Color fill) {
  if (body.shape == Shape::box) {
    fill_convex(square(position, body.half_size, heading), fill);
    stroke(outline_, darker(fill));
    return;
  }
  fill_convex(circle(position, body.half_size), fill);
  // A spoke shows the sphere rolling.
  const SDL_FPoint centre = to_screen(position);
  const SDL_FPoint tip = to_screen(position + heading * body.half_size);
  const SDL_Color spoke = darker(fill);
  SDL_SetRenderDrawColor(renderer_, spoke.r, spoke.g, spoke.b, spoke.a);
  SDL_RenderDrawLineF(renderer_, centre.x, centre.y, tip.x, tip.y);
}

void Scene::outline_body(const Body& body, shoal::Vec3 position, shoal::Vec3 heading, SDL_Color line) {
  if (body.shape == Shape::box) {
    stroke(square(position, body.half_size, heading), line);
  } else {
    stroke(circle(position, body.half_size), line);
  }
}

std::span<const SDL_FPoint> Scene::circle(shoal::Vec3 centre, float radius_m) {
  outline_.clear();
  const SDL_FPoint c = to_screen(centre);
  const float r = radius_m * pixels_per_m_;
  for (int i = 0; i < kCircleSegments; ++i) {
    const float a = 6.2831853f * static_cast<float>(i) / kCircleSegments;
    outline_.push_back({c.x + r * std::cos(a), c.y + r * std::sin(a)});
  }
  return outline_;
}

std::span<const SDL_FPoint> Scene::square(shoal::Vec3 centre, float half_m, shoal::Vec3 heading) {
  const shoal::Vec3 along = heading * half_m;
  const shoal::Vec3 across{-along.z, 0, along.x};
  outline_.clear();
  outline_.push_back(to_screen(centre + along + across));
  outline_.push_back(to_screen(centre - along + across));
  outline_.push_back(to_screen(centre - along - across));
  outline_.push_back(to_screen(centre + along - across));
  return outline_;
}

// A fan of triangles from the first point; every shape drawn here is convex.
void Scene::fill_convex(std::span<const SDL_FPoint> outline, SDL_Color colour) {
  vertices_.clear();
  for (std::size_t i = 1; i + 1 < outline.size(); ++i) {
    for (const SDL_FPoint& p : {outline[0], outline[i], outline[i + 1]}) {
      vertices_.push_back({p, colour, {0, 0}});
    }
  }
  SDL_RenderGeometry(renderer_, nullptr, vertices_.data(), static_cast<int>(vertices_.size()), nullptr, 0);
}

void Scene::stroke(std::span<const SDL_FPoint> outline, SDL_Color colour) {
  SDL_SetRenderDrawColor(renderer_, colour.r, colour.g, colour.b, colour.a);
  SDL_RenderDrawLinesF(renderer_, outline.data(), static_cast<int>(outline.size()));
  if (outline.size() > 2) {
    SDL_RenderDrawLineF(renderer_, outline.back().x, outline.back().y, outline.front().x, outline.front().y);
  }
}

}  // namespace arena
