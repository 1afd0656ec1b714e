// SPDX-License-Identifier: MIT
// Plain identifiers shared by every layer of Shoal.
#pragma once

#include <cstdint>

namespace shoal {

/// A peer of a match. Small, assigned by the match host when a peer joins.
using PeerId = std::uint16_t;
inline constexpr PeerId kNoPeer = 0xFFFF;

/// A simulated body. Chosen by the game; the same id names the same body on every peer.
using ObjectId = std::uint32_t;

/// One fixed simulation step on the shared match timeline (the same instant on every peer).
/// Signed so that differences between frames are plain subtractions.
using Frame = std::int32_t;
inline constexpr Frame kNoFrame = -1;

}  // namespace shoal
