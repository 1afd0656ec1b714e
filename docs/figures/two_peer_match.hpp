// SPDX-License-Identifier: MIT
// A real two-peer match for the guides' figures: the host's ball pushes a row of crates while
// the joiner's ball circles, over an in-process network with latency and loss, and the run is
// recorded frame by frame (what the owner had, what the joiner simulated, what it drew).
#pragma once

#include <cstdint>
#include <vector>

#include "shoal/peer.hpp"

namespace figures {

/// One render frame of the joiner's view of one body.
struct TraceRow {
  double t_s = 0;
  float owner_z = 0;        ///< the host's (owner's) newest state; z is the axis it weaves along
  float owner_before_z = 0; ///< the host's state a frame earlier (what is drawn lags a frame)
  float raw_z = 0;          ///< the joiner's newest simulated state
  float drawn_z = 0;        ///< what the joiner draws (smoothed, render-interpolated)
  /// |joiner - host| at a frame old enough that the owner's frame of it has arrived (200 ms
  /// back), -1 if either no longer holds it
  double difference_m = -1;
};

/// An override the joiner applied to the traced crate, with the frames around it.
struct OverrideSeen {
  shoal::Frame owner_frame = shoal::kNoFrame;  ///< the overridden frame
  shoal::Frame newest = shoal::kNoFrame;       ///< the joiner's newest frame at that update
  int depth = 0;                               ///< frames re-simulated
};

/// Where a body ended, and whose it was.
struct BodyAtEnd {
  shoal::ObjectId id = 0;
  shoal::Vec3 position;
  shoal::PeerId owner = shoal::kNoPeer;
  bool ball = false;
};

struct MatchResult {
  shoal::ObjectId traced = 0;            ///< the body the joiner corrected most
  std::vector<TraceRow> trace;           ///< of the traced body
  std::vector<OverrideSeen> overrides;   ///< of the traced body, in order
  std::vector<BodyAtEnd> bodies;
  shoal::PeerStats host, joiner;         ///< at the end
  double seconds = 0;                    ///< of play
  /// The largest crate position difference between the peers at a common frame, averaged
  /// over the run's render frames.
  double mean_worst_difference_m = 0;
};

struct MatchSettings {
  int bytes_per_second = shoal::SnapshotConfig{}.bytes_per_second;
  float latency_ms = 80;
  float loss = 0.05f;
  double seconds = 8;
  std::uint64_t seed = 7;
};

/// Plays the match on simulated time (it takes well under a second of wall time).
MatchResult play_two_peer_match(const MatchSettings& settings);

}  // namespace figures
