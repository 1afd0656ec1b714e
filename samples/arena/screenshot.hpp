// SPDX-License-Identifier: MIT
#pragma once

#include <SDL.h>

#include <string>

namespace arena {

/// Writes what the renderer has drawn so far (call before presenting) to a PNG file.
/// Throws std::runtime_error saying what failed.
void save_screenshot(SDL_Renderer* renderer, const std::string& path);

}  // namespace arena
