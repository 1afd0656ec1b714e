// SPDX-License-Identifier: MIT
// The top-down view of the arena, drawn with SDL_Renderer: spheres as discs, boxes as squares
// turned by their heading, everything tinted by its owner, the player's regions underneath.
// It draws the ground (x, z) whatever the engine: Box2D's plane (x, y) is mapped onto it.
#pragma once

#include <SDL.h>

#include <span>
#include <vector>

#include "world.hpp"

namespace arena {

struct SceneOptions {
  bool raw_state = false;  ///< outline the simulation state beside the smoothed visual state
};

class Scene {
 public:
  explicit Scene(SDL_Renderer* renderer) : renderer_(renderer) {}
  /// Draws `player`'s view of the match into `viewport` (the arena is fitted inside it).
  void draw(const Player& player, std::span<const Body> layout, SDL_Rect viewport,
            const SceneOptions& options);

 private:
  void fit(SDL_Rect viewport);
  SDL_FPoint to_screen(shoal::Vec3 p) const;
  void draw_floor();
  void draw_regions(const Player& player);
  // Positions on the ground; headings along it (unit).
  void draw_body(const Body& body, shoal::Vec3 position, shoal::Vec3 heading, SDL_Color fill);
  void outline_body(const Body& body, shoal::Vec3 position, shoal::Vec3 heading, SDL_Color line);
  void fill_convex(std::span<const SDL_FPoint> outline, SDL_Color colour);
  void stroke(std::span<const SDL_FPoint> closed_outline, SDL_Color colour);
  std::span<const SDL_FPoint> circle(shoal::Vec3 centre, float radius_m);
  std::span<const SDL_FPoint> square(shoal::Vec3 centre, float half_m, shoal::Vec3 heading);

  SDL_Renderer* renderer_;
  SDL_FPoint origin_{};        ///< screen position of the world origin
  float pixels_per_m_ = 1;
  std::vector<SDL_FPoint> outline_;  ///< reused every shape, so a frame allocates nothing
  std::vector<SDL_Vertex> vertices_;
};

}  // namespace arena
