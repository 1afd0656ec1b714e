// SPDX-License-Identifier: MIT
#include "screenshot.hpp"

#include <stb_image_write.h>

#include <stdexcept>
#include <vector>

namespace arena {

void save_screenshot(SDL_Renderer* renderer, const std::string& path) {
  int width = 0, height = 0;
  if (SDL_GetRendererOutputSize(renderer, &width, &height) != 0) {
    throw std::runtime_error(std::string("cannot size the screenshot: ") + SDL_GetError());
  }
  const int pitch = width * 3;
  std::vector<unsigned char> pixels(static_cast<std::size_t>(pitch) * static_cast<std::size_t>(height));
  if (SDL_RenderReadPixels(renderer, nullptr, SDL_PIXELFORMAT_RGB24, pixels.data(), pitch) != 0) {
    throw std::runtime_error(std::string("cannot read the rendered pixels: ") + SDL_GetError());
  }
  if (stbi_write_png(path.c_str(), width, height, 3, pixels.data(), pitch) == 0) {
    throw std::runtime_error("cannot write the screenshot to '" + path + "'");
  }
}

}  // namespace arena
