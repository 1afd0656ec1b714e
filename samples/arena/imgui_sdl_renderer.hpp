// SPDX-License-Identifier: MIT
// Draws Dear ImGui's output with SDL_Renderer. Debian's libimgui-dev 1.86 ships the SDL2
// platform backend in its library but the SDL_Renderer one only as documentation, so the
// arena renders ImGui's triangles itself (SDL_RenderGeometryRaw does all the work).
#pragma once

#include <SDL.h>

struct ImDrawData;

namespace arena {

class ImGuiSdlRenderer {
 public:
  /// Uploads ImGui's font atlas; needs a current ImGui context. Throws std::runtime_error.
  explicit ImGuiSdlRenderer(SDL_Renderer* renderer);
  ~ImGuiSdlRenderer();
  ImGuiSdlRenderer(const ImGuiSdlRenderer&) = delete;
  ImGuiSdlRenderer& operator=(const ImGuiSdlRenderer&) = delete;

  void render(const ImDrawData& data);

 private:
  SDL_Renderer* renderer_;
  SDL_Texture* font_ = nullptr;
};

}  // namespace arena
