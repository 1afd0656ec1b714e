// SPDX-License-Identifier: MIT
// The match report: comparing the peers' states, the table on stdout, the JSON file, the
// per-second CSV and its plot.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "peer_report.hpp"

namespace lan_match {

/// How far apart the peers' states of the same frame are.
struct Divergence {
  float max_position_error_m = 0;
  float max_rotation_error_rad = 0;
  int bodies_lost = 0;  ///< bodies some sample lacks (or every body, for a missing sample)
  bool bitwise = true;  ///< every body's whole state, the same bits in every sample that has it
};

/// Compares every pair of samples (taken at the same frame); a missing sample (nullptr) loses
/// every body. Samples must list the same number of bodies.
Divergence compare_samples(const std::vector<const PeerSample*>& samples, int bodies);
/// Whether every sample is there and holds every body, at rest (its spawned objects too).
bool all_at_rest(const std::vector<const PeerSample*>& samples);

/// A body the peers disagree on: each sample's state of it (none where a sample lacks it), and
/// what each peer knew of it at the end (its final sample's diagnosis, where there is one).
struct BodyDifference {
  int body = 0;
  shoal::ObjectId object = 0;
  std::vector<shoal::PeerId> peers;                                ///< by sample
  std::vector<std::optional<shoal::ObjectState>> states;           ///< by sample
  std::vector<std::optional<shoal::ObjectDiagnosis>> diagnoses;    ///< by sample
};
/// The bodies whose states differ between two samples beyond the verdict's tolerances, or
/// that some sample lacks: what to look at when a match is not consistent. `finals` are the
/// final samples (by sample too, nullptr where missing), for the diagnoses; `ids` the bodies'.
std::vector<BodyDifference> differing_bodies(const std::vector<const PeerSample*>& samples,
                                             const std::vector<const PeerSample*>& finals,
                                             const std::vector<shoal::ObjectId>& ids);

/// One second of match time: each launched peer's figures (if it reported) and the divergence.
struct SecondRow {
  double time_s = 0;
  std::vector<std::optional<PeerFigures>> peers;   ///< by launched peer
  std::vector<float> overrides_per_s, catchup_frames_per_s;
  float max_position_error_m = 0;
};

struct PeerSummary {
  shoal::PeerId id = shoal::kNoPeer;
  shoal::Frame frames = 0;
  float rtt_ms = 0, loss = 0, kbps_out = 0, kbps_in = 0;  ///< means over the match's seconds
  std::uint64_t overrides = 0, catchup_frames = 0, ownership_changes = 0, owned_objects = 0, desyncs = 0;
  std::uint64_t frozen_objects = 0;  ///< at the end
  std::int64_t join_ms = -1;         ///< how long its join took (0 for the host; -1 never joined)
  std::int64_t cpu_ms = 0;           ///< CPU its process used, to its last sample
  float slowest_pace = 1;            ///< the slowest the match ran, as this peer saw it (PeerStats::pace)
  std::uint64_t objects_spawned = 0, objects_removed = 0;  ///< applied here, to its last sample
  std::uint64_t live_objects = 0;    ///< spawned objects alive here at its last sample
  std::uint64_t bad_spawn = 0, over_limit = 0;  ///< spawns and removals it dropped, by DropReason
  /// What its player saw over the whole match (PeerFigures): how late owners' frames were taken
  /// in, and how far smoothing moved drawn objects in one frame.
  float latency_p50_ms = 0, latency_p99_ms = 0, visual_p99_mm = 0, visual_max_mm = 0;
};

/// --projectiles: the spawned objects in the comparison, and what the verdict asks of them.
struct SpawnedReport {
  int rate = 0;                  ///< projectiles a second per bot (0: none; the rest is unused)
  int compared = 0;              ///< live spawned objects compared (the first peer's)
  bool same_live_set = true;     ///< every compared peer holds the same ids at compared_frame
  bool bitwise = true;           ///< and their states, the same bits on every peer
  shoal::Frame after_lifetimes = 0;  ///< the final frame, once every lifetime has passed
  std::uint64_t live_after_lifetimes = 0;  ///< the most any peer still holds there: must be 0
  /// The spawned objects whose states differ (in bits) or that some peer lacks (body -1,
  /// no diagnoses).
  std::vector<BodyDifference> differences;
};
/// Compares the live spawned sets of samples of one frame (a missing sample, or a state
/// missing, fails both).
void compare_spawned(const std::vector<const PeerSample*>& samples, SpawnedReport& report);

/// A peer killed during the match (--kill-peer, the soak), and brought back if it was.
struct FaultReport {
  int index = 0;                     ///< launched peer
  shoal::PeerId peer = shoal::kNoPeer;
  double killed_at_s = 0;            ///< since the launch
  /// From the SIGKILL until every survivor saw each object the dead peer owned owned by a live
  /// peer: the largest over the survivors; -1 if some survivor never did.
  std::int64_t reowned_ms = -1;
  double restarted_at_s = -1;        ///< -1: not restarted
  std::int64_t rejoin_ms = -1;       ///< from the restart until its new process joined; -1: never
  /// --kick-peer: kicked and banned rather than killed (killed_at_s is then when the revocation
  /// was handed to a member; reowned_ms counts from then, and must be at most kKickReownMs).
  bool kicked = false;
  std::string kick_reason;     ///< what the kicked peer read (empty: it was never told)
  int comebacks = 0;           ///< its tries to join again with its invitation
  int comebacks_refused = 0;   ///< of which refused
  std::string comeback_reason; ///< the last refusal's reason, as its game read it
};

/// How soon after a kick every survivor must see the kicked peer's objects owned again.
inline constexpr std::int64_t kKickReownMs = 1000;

struct MatchReport {
  std::vector<PeerSummary> peers;
  int objects = 0;       ///< bodies compared: shared objects and balls
  int balls = 0;
  shoal::Frame compared_frame = 0;
  bool settled = false;  ///< every peer saw every object at rest at compared_frame
  Divergence final;
  std::vector<BodyDifference> differences;  ///< every one, by differing_bodies()
  std::vector<std::string> failures;  ///< peer processes that crashed, hung or failed
  std::vector<FaultReport> faults;    ///< peers killed on purpose (not failures)
  /// Bodies some compared peer holds without a live owner (from its final diagnoses).
  int bodies_unowned = 0;
  SpawnedReport spawned;
  bool consistent = false;
};

/// The rule of the verdict: everyone reported (every peer not killed for good), nothing lost,
/// every body owned by a live peer, errors within 1 mm and 0.001 rad, and each killed peer's
/// objects owned again (and each restarted one joined); with --projectiles, the same live set
/// on every peer, bit for bit, and none left once the lifetimes passed.
bool is_consistent(const MatchReport& report);

void print_report(const MatchReport& report);
/// Throws std::runtime_error when a file cannot be written (or gnuplot fails), saying which.
void write_json(const std::string& path, const MatchReport& report);
void write_csv(const std::string& path, const std::vector<SecondRow>& rows);
void write_plot(const std::string& png_path, const std::vector<SecondRow>& rows);

}  // namespace lan_match
