// SPDX-License-Identifier: MIT
// Small helpers the peer's files share: building an event, a line for the log hook, the
// digest a recording starts from, and how far ahead a peer keeps inputs and takes spawns.
#pragma once

#include <algorithm>
#include <cstdint>

#include "shoal/events.hpp"
#include "shoal/peer_config.hpp"
#include "shoal/simulation.hpp"
#include "wire/snapshot_codec.hpp"

namespace shoal {

inline Event make_event(EventKind kind, PeerId peer, ObjectId object = 0, Frame frame = kNoFrame,
                        int depth = 0) {
  Event e;
  e.kind = kind;
  e.peer = peer;
  e.object = object;
  e.frame = frame;
  e.depth = depth;
  return e;
}

/// Hands `format()` (a std::string) to the log callback when one is set and wants `level`:
/// with none, nothing is formatted.
template <class Format>
void log_line(const LogConfig& log, LogLevel level, Format&& format) {
  if (log.callback && level >= log.level) log.callback(level, format());
}

/// Digest of every body's state: what a recording began with, checked by its replay.
std::uint64_t world_digest(const Simulation& simulation);

// How far ahead of its newest frame a peer keeps inputs: those of snapshots up to a quarter of
// the history ahead (what on_snapshot accepts), plus their senders' input delay.
inline int input_frames_ahead(const PeerConfig& c) { return c.history_frames / 4 + wire::kMaxInputFramesAhead; }

// How far ahead of its newest frame a peer takes another's spawn. Spawns travel once, on the
// reliable channel: one refused is lost for good. A peer the OS starved may be seconds behind
// the spawner (the match's pace catches up only over seconds), so the bound is ten seconds of
// frames, not the history window; what a spawner may make per second bounds the rest.
inline Frame spawn_horizon_frames(const PeerConfig& c) {
  return std::max<Frame>(c.history_frames, static_cast<Frame>(c.tick_hz * 10.0f));
}

}  // namespace shoal
