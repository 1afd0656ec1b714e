// SPDX-License-Identifier: MIT
#include "session/compatibility.hpp"

#include <fmt/format.h>

#include <bit>
#include <cstdint>

namespace shoal::session {
namespace {

// Floats compare by their bits: two peers must compute with the very same values (and a NaN
// setting must not match itself silently).
bool same(float a, float b) { return std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b); }
bool same(bool a, bool b) { return a == b; }
bool same(std::int32_t a, std::int32_t b) { return a == b; }
bool same(Vec3 a, Vec3 b) { return same(a.x, b.x) && same(a.y, b.y) && same(a.z, b.z); }

std::string text(bool v) { return v ? "true" : "false"; }
std::string text(std::int32_t v) { return std::to_string(v); }
std::string text(float v) { return fmt::format("{}", v); }
std::string text(Vec3 v) { return fmt::format("({}, {}, {})", v.x, v.y, v.z); }

}  // namespace

std::string encoding_mismatch(const wire::EncodingSettings& a, std::string_view first,
                              const wire::EncodingSettings& b, std::string_view second) {
  std::string found;
  const auto check = [&](std::string_view field, const auto& x, const auto& y) {
    if (!found.empty() || same(x, y)) return;
    found = fmt::format("snapshot encoding differs: {} is {} on {}, {} on {}", field, text(x), first,
                        text(y), second);
  };
  check("quantize", a.quantize, b.quantize);
  check("velocities_at_rest", a.velocities_at_rest, b.velocities_at_rest);
  check("delta", a.delta, b.delta);
  check("world_min", a.world_min, b.world_min);
  check("world_max", a.world_max, b.world_max);
  check("position_units_per_m", a.position_units_per_m, b.position_units_per_m);
  check("orientation_bits", a.orientation_bits, b.orientation_bits);
  check("max_linear_speed_mps", a.max_linear_speed_mps, b.max_linear_speed_mps);
  check("max_angular_speed_radps", a.max_angular_speed_radps, b.max_angular_speed_radps);
  check("velocity_units_per_mps", a.velocity_units_per_mps, b.velocity_units_per_mps);
  check("max_baseline_age_frames", a.max_baseline_age_frames, b.max_baseline_age_frames);
  check("input_bytes", a.input_bytes, b.input_bytes);
  check("max_spawn_bytes", a.max_spawn_bytes, b.max_spawn_bytes);
  return found;
}

}  // namespace shoal::session
