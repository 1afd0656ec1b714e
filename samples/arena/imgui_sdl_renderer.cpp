// SPDX-License-Identifier: MIT
#include "imgui_sdl_renderer.hpp"

#include <imgui.h>

#include <cstddef>
#include <stdexcept>
#include <string>

namespace arena {

ImGuiSdlRenderer::ImGuiSdlRenderer(SDL_Renderer* renderer) : renderer_(renderer) {
  ImGuiIO& io = ImGui::GetIO();
  io.BackendRendererName = "shoal-arena SDL_Renderer";
  io.BackendFlags |= ImGuiBackendFlags_RendererHasVtxOffset;
  unsigned char* pixels = nullptr;
  int width = 0, height = 0;
  io.Fonts->GetTexDataAsRGBA32(&pixels, &width, &height);
  font_ = SDL_CreateTexture(renderer, SDL_PIXELFORMAT_RGBA32, SDL_TEXTUREACCESS_STATIC, width, height);
  if (font_ == nullptr) {
    throw std::runtime_error(std::string("cannot create the overlay's font texture: ") + SDL_GetError());
  }
  SDL_UpdateTexture(font_, nullptr, pixels, width * 4);
  SDL_SetTextureBlendMode(font_, SDL_BLENDMODE_BLEND);
  io.Fonts->SetTexID(static_cast<ImTextureID>(font_));
}

ImGuiSdlRenderer::~ImGuiSdlRenderer() {
  ImGui::GetIO().Fonts->SetTexID(nullptr);
  SDL_DestroyTexture(font_);
}

void ImGuiSdlRenderer::render(const ImDrawData& data) {
  const ImVec2 origin = data.DisplayPos;
  for (int list = 0; list < data.CmdListsCount; ++list) {
    const ImDrawList& draw = *data.CmdLists[list];
    const ImDrawVert* vertices = draw.VtxBuffer.Data;
    const ImDrawIdx* indices = draw.IdxBuffer.Data;
    for (const ImDrawCmd& cmd : draw.CmdBuffer) {
      const SDL_Rect clip{static_cast<int>(cmd.ClipRect.x - origin.x), static_cast<int>(cmd.ClipRect.y - origin.y),
                          static_cast<int>(cmd.ClipRect.z - cmd.ClipRect.x),
                          static_cast<int>(cmd.ClipRect.w - cmd.ClipRect.y)};
      if (clip.w <= 0 || clip.h <= 0) continue;
      SDL_RenderSetClipRect(renderer_, &clip);
      const ImDrawVert* first = vertices + cmd.VtxOffset;
      // ImDrawVert keeps position, uv and an RGBA colour (ImU32 bytes R, G, B, A in memory,
      // the layout of SDL_Color) side by side, so SDL reads them in place.
      SDL_RenderGeometryRaw(
          renderer_, static_cast<SDL_Texture*>(cmd.GetTexID()),
          reinterpret_cast<const float*>(reinterpret_cast<const char*>(first) + offsetof(ImDrawVert, pos)),
          sizeof(ImDrawVert),
          reinterpret_cast<const SDL_Color*>(reinterpret_cast<const char*>(first) + offsetof(ImDrawVert, col)),
          sizeof(ImDrawVert),
          reinterpret_cast<const float*>(reinterpret_cast<const char*>(first) + offsetof(ImDrawVert, uv)),
          sizeof(ImDrawVert), draw.VtxBuffer.Size - static_cast<int>(cmd.VtxOffset),
          indices + cmd.IdxOffset, static_cast<int>(cmd.ElemCount), sizeof(ImDrawIdx));
    }
  }
  SDL_RenderSetClipRect(renderer_, nullptr);
}

}  // namespace arena
