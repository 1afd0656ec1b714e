// SPDX-License-Identifier: MIT
#include "world/user_bytes.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace shoal::world {

UserBytesLayout user_bytes_layout(const Simulation& simulation) {
  UserBytesLayout layout;
  const std::size_t count = simulation.body_count();
  layout.size.resize(count, 0);
  for (BodyIndex b = 0; b < count; ++b) {
    const std::uint16_t type = simulation.body_type(b);
    const std::size_t size = simulation.user_bytes_size(type);
    if (size > kMaxUserBytes) {
      throw std::invalid_argument("Simulation::user_bytes_size: body type " + std::to_string(type) +
                                  " (body " + std::to_string(b) + ") has " + std::to_string(size) +
                                  " user bytes, expected at most kMaxUserBytes (" +
                                  std::to_string(kMaxUserBytes) + ")");
    }
    if (size == 0) continue;
    layout.size[b] = static_cast<std::uint8_t>(size);
    layout.bodies.push_back(b);
    layout.max = std::max(layout.max, size);
  }
  return layout;
}

}  // namespace shoal::world
