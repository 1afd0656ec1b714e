// SPDX-License-Identifier: MIT
// Owner colours of the arena view, shared with the screenshot test's checker.
#pragma once

#include <array>
#include <cstdint>

#include "shoal/types.hpp"

namespace arena {

struct Rgb {
  std::uint8_t r = 0, g = 0, b = 0;
};

/// One colour per peer id (modulo the size), chosen to stay apart from each other and from
/// the overlay's blues.
inline constexpr std::array<Rgb, 8> kOwnerColours{{
    {230, 80, 70}, {80, 190, 90}, {240, 190, 60}, {170, 100, 220},
    {60, 200, 210}, {240, 130, 190}, {150, 150, 60}, {230, 140, 60},
}};
inline constexpr Rgb kUnownedColour{128, 128, 128};

inline Rgb owner_colour(shoal::PeerId owner) {
  return owner == shoal::kNoPeer ? kUnownedColour : kOwnerColours[owner % kOwnerColours.size()];
}

}  // namespace arena
