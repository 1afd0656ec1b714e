// SPDX-License-Identifier: MIT
// The encoding settings two peers must share (SnapshotConfig's encoding fields, and the spawn
// bytes' limit): they decide the values every peer simulates and what it takes in, so peers
// exchange them at join and refuse a peer whose settings differ (session/compatibility.hpp)
// rather than desync silently.
#pragma once

#include <cstdint>

#include "shoal/peer_config.hpp"
#include "shoal/snapshot_config.hpp"

namespace shoal::wire {

/// Defaults are SnapshotConfig's, so a message built without settings carries the defaults.
struct EncodingSettings {
  bool quantize = SnapshotConfig{}.quantize;
  bool velocities_at_rest = SnapshotConfig{}.velocities_at_rest;
  bool delta = SnapshotConfig{}.delta;
  Vec3 world_min = SnapshotConfig{}.world_min;
  Vec3 world_max = SnapshotConfig{}.world_max;
  float position_units_per_m = SnapshotConfig{}.position_units_per_m;
  std::int32_t orientation_bits = SnapshotConfig{}.orientation_bits;
  float max_linear_speed_mps = SnapshotConfig{}.max_linear_speed_mps;
  float max_angular_speed_radps = SnapshotConfig{}.max_angular_speed_radps;
  float velocity_units_per_mps = SnapshotConfig{}.velocity_units_per_mps;
  std::int32_t max_baseline_age_frames = SnapshotConfig{}.max_baseline_age_frames;
  std::int32_t input_bytes = SnapshotConfig{}.input_bytes;
  /// SpawnConfig::max_spawn_bytes: a spawn within one peer's limit must be within every peer's,
  /// or it would exist on some peers only.
  std::int32_t max_spawn_bytes = static_cast<std::int32_t>(SpawnConfig{}.max_spawn_bytes);

  bool operator==(const EncodingSettings&) const = default;
};

/// The encoding fields of `config` and `spawning`.
inline EncodingSettings encoding_settings(const SnapshotConfig& config, const SpawnConfig& spawning = {}) {
  return {config.quantize,          config.velocities_at_rest,    config.delta,
          config.world_min,         config.world_max,             config.position_units_per_m,
          config.orientation_bits,  config.max_linear_speed_mps,  config.max_angular_speed_radps,
          config.velocity_units_per_mps, config.max_baseline_age_frames, config.input_bytes,
          static_cast<std::int32_t>(spawning.max_spawn_bytes)};
}

}  // namespace shoal::wire
