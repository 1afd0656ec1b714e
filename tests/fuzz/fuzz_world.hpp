// SPDX-License-Identifier: MIT
// The world and the peer config of the stateful fuzz targets (peer, recording) and of the
// in-process match their seed corpora are recorded from (record_seeds.cpp): the same on both
// sides, so a recorded handshake and its snapshots are valid input for the peer under test.
// Small, so that an execution costs little: three balls, six shared objects with user bytes.
#pragma once

#include <memory>

#include "shoal/peer.hpp"
#include "shoal/reference_physics.hpp"
#include "peer/arena_world.hpp"

namespace shoal::fuzz {

inline test::ArenaSpec fuzz_arena() {
  test::ArenaSpec spec;
  spec.balls = 3;
  spec.objects = 6;
  spec.half_extent = 8;
  spec.user_bytes = 4;  // so that user bytes travel in snapshots and baselines too
  return spec;
}

inline PeerConfig fuzz_peer_config() {
  PeerConfig config;
  config.session = "fuzz";
  config.checksum_interval_frames = 30;  // desync checksums within a short input
  return config;
}

inline std::unique_ptr<ReferencePhysics> make_fuzz_world() {
  const test::ArenaSpec spec = fuzz_arena();
  auto physics = std::make_unique<ReferencePhysics>(test::arena_physics(spec));
  test::build_arena(*physics, spec);
  return physics;
}

/// What a recording of a fuzz-world peer gives Peer::record as the world's description.
inline constexpr const char* kFuzzWorldName = "shoal-fuzz-arena";

}  // namespace shoal::fuzz
