// SPDX-License-Identifier: MIT
// What a peer process tells the launcher, as text lines on its stdout (readable by a person
// running `shoal-lan-match --peer` by hand too):
//   phase step=STEP done=D needed=N elapsed_ms=MS   (now and then, until joined)
//   joined peer=ID address=HOST:PORT
//   sample final=0|1 frame=F peer=ID peers=N rtt_ms=.. loss=.. kbps_out=.. kbps_in=..
//          overrides=.. catchup_frames=.. ownership_changes=.. owned_objects=.. frozen_objects=..
//          desyncs=.. join_ms=.. pace=.. cpu_ms=.. spawned=.. removed=.. live=.. bad_spawn=..
//          over_limit=.. [latency_p50_ms=.. latency_p99_ms=.. visual_p99_mm=.. visual_max_mm=..] bodies=B
//          spawned_states=S diagnoses=D
//   pose PX PY PZ QW QX QY QZ VX VY VZ WX WY WZ R   (B lines, one per body in all_bodies order,
//                                  R = 1 at rest; "pose -" if unknown)
//   spawned ID PX PY PZ QW QX QY QZ VX VY VZ WX WY WZ R   (S lines, 0 or one per live spawned
//                                  object, ascending id: samples from the comparison on)
//   diag owner=O frozen=0|1 confirmed=0|1 owner_frame=F@G overrides=N said=F:PX,PY,PZ,R|-
//        history=FRAME:OWNER:SEQUENCE:AUTHOR:APPLIED_AT,...|-
//                                 (D lines, 0 or B: the final sample's, one per body)
//   reowned peer=P at_us=T       (after the launcher said it killed P: every object P owned here
//                                 has a live owner again, at T on the steady clock)
//   kicked REASON                (the session's authority revoked this peer's invitation)
//   comeback refused=0|1 REASON  (a kicked peer tried to join again with its invitation: refused
//                                 with that reason, or (0) in)
//   error MESSAGE
// Numbers are printed in their shortest exact form, so poses compare bit for bit.
#pragma once

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "shoal/diagnosis.hpp"
#include "shoal/join.hpp"
#include "shoal/math.hpp"
#include "shoal/types.hpp"

namespace lan_match {

/// One peer's statistics at one frame. Counters are totals since the peer started.
struct PeerFigures {
  shoal::PeerId peer = shoal::kNoPeer;
  shoal::Frame frame = shoal::kNoFrame;
  int peers_seen = 0;
  float rtt_ms = 0;    ///< mean over the other peers
  float loss = 0;      ///< mean over the other peers, 0..1
  float kbps_out = 0;  ///< summed over the other peers
  float kbps_in = 0;
  std::uint64_t overrides = 0;
  std::uint64_t catchup_frames = 0;
  std::uint64_t ownership_changes = 0;
  std::uint64_t desyncs = 0;
  std::uint64_t owned_objects = 0;
  std::uint64_t frozen_objects = 0;  ///< outside the peer's simulated region, not simulated
  std::int64_t join_ms = -1;         ///< how long joining took (-1: not joined yet)
  float pace = 1;                    ///< how fast the match runs now (PeerStats::pace)
  std::int64_t cpu_ms = 0;           ///< CPU time the peer's process has used so far
  std::uint64_t objects_spawned = 0;  ///< spawns applied, this peer's and the others' (PeerStats)
  std::uint64_t objects_removed = 0;  ///< removals applied
  std::uint64_t live_objects = 0;     ///< spawned objects alive at the peer's newest frame
  std::uint64_t bad_spawn = 0;        ///< spawns and removals dropped as DropReason::bad_spawn
  std::uint64_t over_limit = 0;       ///< spawns dropped as DropReason::over_limit
  /// What its player sees (PeerStats::correction_latency_ms, visual_correction_mm): over the
  /// second before a progress sample, over the whole match in the final one.
  float latency_p50_ms = 0, latency_p99_ms = 0;  ///< owner frame sent -> taken in here
  float visual_p99_mm = 0, visual_max_mm = 0;    ///< smoothing's move of a drawn object in one frame
};

/// A peer's figures and the state of every body at the same frame; the final sample adds what
/// the peer knows of each body (its owner and their changes, frozen, the owner's last word).
struct PeerSample {
  bool final = false;
  PeerFigures figures;
  std::vector<std::optional<shoal::ObjectState>> states;  ///< all_bodies order
  /// The spawned objects alive at the sample's frame, ascending id, and their states there:
  /// listed in the samples the report compares (from Timeline::compare on), else empty.
  std::vector<shoal::ObjectId> spawned_ids;
  std::vector<std::optional<shoal::ObjectState>> spawned_states;
  std::vector<shoal::ObjectDiagnosis> diagnoses;          ///< all_bodies order, or none
};

/// Writes samples to a stream, reusing one buffer.
class SampleWriter {
 public:
  explicit SampleWriter(std::FILE* out) : out_(out) {}
  void phase(const shoal::JoinProgress& progress);
  void joined(shoal::PeerId peer, std::string_view address);
  void sample(const PeerSample& sample);
  void reowned(shoal::PeerId dead, std::int64_t at_us);
  void kicked(std::string_view reason);
  void comeback(bool refused, std::string_view reason);
  void error(std::string_view message);

 private:
  void write_pose(const std::optional<shoal::ObjectState>& state);
  void flush();
  std::FILE* out_;
  fmt::memory_buffer buffer_;
};

/// Reads the lines of one peer process back into samples.
class SampleReader {
 public:
  /// Takes one line (without its newline). Lines that do not parse are kept as errors.
  void add_line(std::string_view line);

  std::optional<shoal::PeerId> peer;  ///< once "joined" was read
  std::optional<shoal::JoinProgress> phase;  ///< the last "phase" read
  std::vector<PeerSample> samples;    ///< complete samples, in arrival order; the caller drains
  std::vector<std::string> errors;    ///< "error" lines and unreadable lines
  struct Reowned {
    shoal::PeerId dead = shoal::kNoPeer;
    std::int64_t at_us = 0;  ///< steady clock
  };
  std::vector<Reowned> reowned;       ///< "reowned" lines, in arrival order
  std::optional<std::string> kicked;  ///< the reason of a "kicked" line
  int comebacks = 0;                  ///< "comeback" lines
  int comebacks_refused = 0;          ///< of which refused
  std::string comeback_reason;        ///< the last refusal's

 private:
  bool read_state_line(std::string_view line);
  bool read_spawned_line(std::string_view line);
  bool read_diagnosis_line(std::string_view line);

  std::optional<PeerSample> pending_;
  std::size_t pending_bodies_ = 0, pending_spawned_ = 0, pending_diagnoses_ = 0;
};

}  // namespace lan_match
