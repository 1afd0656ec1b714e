// SPDX-License-Identifier: MIT
// Playing a recorded peer again. Peer::record(path, world) writes everything that reached one
// peer from outside (its config, every datagram its transport delivered and when, the game's
// inputs and calls, every update's time) to a compact file. A Replay feeds a fresh peer, alone
// and without a clock, exactly that: with the same simulation it does exactly what the recorded
// peer did, bit for bit, whatever the machine's load. Where it does not, the report says at
// which update, at which frame, and what differed first (the states, what it sent, its events).
//
//   shoal::Replay replay("peer-2.shoalrec");
//   MyWorld world = MyWorld::from(replay.world());   // the bytes the game gave to record()
//   const shoal::ReplayReport report = replay.run(world.simulation());
//   if (!report.identical) std::puts(report.first_difference.c_str());
//
// `shoal-replay FILE` does this for recordings of shoal-lan-match's arena. A ReplaySession plays
// a recording one update at a time, for tools that time or inspect each one.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "shoal/peer.hpp"

namespace shoal {

/// What a Replay found: whether the replayed peer did exactly what the recorded one did.
struct ReplayReport {
  bool identical = false;       ///< every check and the final states matched the recording
  std::uint64_t updates = 0;    ///< update() calls replayed
  std::uint64_t checks = 0;     ///< of which compared (those that changed the peer's frames)
  Frame final_frame = kNoFrame; ///< the replayed peer's newest frame at the end
  /// Empty when identical; else where the replay first went its own way, in words.
  std::string first_difference;
  /// Bodies whose final state differs from the recorded one (field by field in
  /// first_difference when the final states are the first difference).
  std::vector<ObjectId> differing_objects;
  PeerStats stats;              ///< the replayed peer's statistics at the end
};

/// What a replay may do differently from the recorded peer without changing what it simulates,
/// sends or emits (checked like everything else).
struct ReplayOptions {
  bool measure_update_cost = false;          ///< PeerConfig::measure_update_cost
  std::optional<SmoothingRules> smoothing;   ///< other rules for what is drawn
};

/// A recording made with Peer::record, played back against the same world: it re-runs every update
/// and checks each against the recording.
class Replay {
 public:
  /// Reads a whole recording. Throws std::runtime_error naming the file and what is wrong
  /// with it (not a recording, another version, cut short).
  explicit Replay(const std::string& path);
  ~Replay();
  Replay(const Replay&) = delete;
  Replay& operator=(const Replay&) = delete;

  const PeerConfig& config() const;  ///< the recorded peer's config
  /// The description of its world the game gave to Peer::record().
  std::span<const std::uint8_t> world() const;
  /// Whether the recording ends with its end record (a peer that crashed leaves none: its
  /// replay still runs to where the file stops, without the final comparison).
  bool complete() const;

  /// Runs a fresh peer on `simulation`, which must hold the world the recording began with
  /// (checked: std::invalid_argument otherwise), through the whole recording. `after_update`,
  /// if given, sees the replayed peer after each update (to trace an object: Peer::diagnose).
  ReplayReport run(Simulation& simulation, const std::function<void(const Peer&)>& after_update = {},
                   const ReplayOptions& options = {}) const;

 private:
  friend class ReplaySession;
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// A replay played one update at a time:
///
///   shoal::ReplaySession session(replay, world);
///   while (const auto at = session.next()) session.update();   // time update() as you like
///   const shoal::ReplayReport report = session.report();
class ReplaySession {
 public:
  /// Throws std::invalid_argument when `simulation` is not the recorded world. The replay
  /// and the simulation must outlive the session.
  ReplaySession(const Replay& replay, Simulation& simulation, const ReplayOptions& options = {});
  ~ReplaySession();
  ReplaySession(const ReplaySession&) = delete;
  ReplaySession& operator=(const ReplaySession&) = delete;

  /// Compares the last update with the recording, applies the game's calls recorded before
  /// the next one and returns that update's time; nothing at the end of the recording or at
  /// the first difference (see report()).
  std::optional<std::int64_t> next();
  /// The update next() announced: the replayed peer's update_at(time), and nothing else.
  void update();
  /// The replayed peer: to inspect it, or to record it too (Peer::record, before next()).
  /// Its events are the recorded game's: the replay takes them where the game did, and a
  /// caller that polls them too changes which game messages its queue drops.
  Peer& peer();
  /// What the replay found so far (at the end: everything).
  ReplayReport report() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace shoal
