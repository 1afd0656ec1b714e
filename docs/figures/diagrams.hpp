// SPDX-License-Identifier: MIT
// The two figures drawn as SVG rather than plotted: the tick of one real update with an
// override, and the scene at the end of the match coloured by owner.
#pragma once

#include <string>
#include <vector>

#include "two_peer_match.hpp"

namespace figures {

/// The frames around `seen`: confirmed, overridden, re-simulated, and the update's phases.
std::string tick_svg(const OverrideSeen& seen, shoal::ObjectId object);

/// Top-down view (x right, z down) of where every body ended, coloured by its owner.
std::string scene_svg(const std::vector<BodyAtEnd>& bodies);

}  // namespace figures
