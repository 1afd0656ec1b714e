// SPDX-License-Identifier: MIT
// Which bodies carry user bytes, and how many: fixed per body type, read once from the
// simulation when a peer is built. Everything per frame that touches user bytes walks
// `bodies` only, and nothing at all when no type has any.
#pragma once

#include <cstdint>
#include <vector>

#include "shoal/simulation.hpp"

namespace shoal::world {

struct UserBytesLayout {
  std::vector<std::uint8_t> size;  ///< per body: user_bytes_size(body_type(body)), 0 = none
  std::vector<BodyIndex> bodies;   ///< the bodies with user bytes, ascending
  std::size_t max = 0;             ///< the largest size: the history's stride per body

  bool any() const { return max > 0; }
};

/// Asks the simulation for every body's size. Throws std::invalid_argument naming the body and
/// its type when a size exceeds kMaxUserBytes.
UserBytesLayout user_bytes_layout(const Simulation& simulation);

}  // namespace shoal::world
