// SPDX-License-Identifier: MIT
// The arena's main loop: SDL window and input, the player's peer, the bots, scene and overlay.
#pragma once

#include <SDL.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bots.hpp"
#include "options.hpp"
#include "overlay.hpp"
#include "scene.hpp"

namespace arena {

class App {
 public:
  /// Opens the window and starts (or joins) the match. Throws std::runtime_error when SDL
  /// or the network cannot be set up.
  explicit App(const Options& options);
  App(const App&) = delete;
  App& operator=(const App&) = delete;

  /// Runs until the window closes, Esc, or the requested frame count (saving the screenshot).
  void run();

 private:
  bool handle_window_events();  ///< false once the player asked to quit
  shoal::Input keyboard_input() const;
  bool fire_held() const;  ///< F, space or the left mouse button: fire a projectile (Gun)
  void render_frame();

  /// SDL's video subsystem for the lifetime of the App; declared first, so it ends last.
  struct SdlVideo {
    SdlVideo();
    ~SdlVideo();
    SdlVideo(const SdlVideo&) = delete;
    SdlVideo& operator=(const SdlVideo&) = delete;
  };
  struct SdlDeleter {
    void operator()(SDL_Window* w) const { SDL_DestroyWindow(w); }
    void operator()(SDL_Renderer* r) const { SDL_DestroyRenderer(r); }
  };

  Options options_;
  SdlVideo video_;
  std::unique_ptr<SDL_Window, SdlDeleter> window_;
  std::unique_ptr<SDL_Renderer, SdlDeleter> renderer_;
  std::vector<Body> layout_;
  Player player_;
  shoal::Vec3 aim_{1, 0, 0};  ///< where the last push went, in the world: the gun fires that way
  std::optional<Bots> bots_;
  Controls controls_;
  StatsHistory history_;
  std::string where_;
  std::optional<Scene> scene_;
  std::unique_ptr<Overlay> overlay_;  ///< null with --no-overlay
};

}  // namespace arena
