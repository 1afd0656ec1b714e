// SPDX-License-Identifier: MIT
// Per-object checksums of confirmed frames, exchanged to detect desyncs.
#pragma once

#include <cstdint>
#include <cstring>
#include <span>

#include "shoal/state.hpp"

namespace shoal::sync {

/// FNV-1a over the state's fields (not its padding), so equal states hash equally, then over
/// the object's user bytes (none: the state alone).
inline std::uint32_t state_hash(const ObjectState& s, std::span<const std::uint8_t> user_bytes = {}) {
  std::uint32_t h = 2166136261u;
  auto mix = [&h](const void* data, std::size_t size) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < size; ++i) h = (h ^ p[i]) * 16777619u;
  };
  mix(&s.position, sizeof s.position);
  mix(&s.orientation, sizeof s.orientation);
  mix(&s.linear_velocity, sizeof s.linear_velocity);
  mix(&s.angular_velocity, sizeof s.angular_velocity);
  const unsigned char rest = s.at_rest ? 1 : 0;
  mix(&rest, 1);
  if (!user_bytes.empty()) mix(user_bytes.data(), user_bytes.size());
  return h;
}

}  // namespace shoal::sync
