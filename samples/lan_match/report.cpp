// SPDX-License-Identifier: MIT
#include "report.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

#include "gnuplot.hpp"

namespace lan_match {
namespace {

constexpr float kPositionTolerance = 0.001f;  // m
constexpr float kRotationTolerance = 0.001f;  // rad

struct File {
  explicit File(const std::string& path) : path_(path), handle(std::fopen(path.c_str(), "w")) {
    if (handle == nullptr) {
      throw std::runtime_error(fmt::format("cannot write '{}': {}", path, std::strerror(errno)));
    }
  }
  ~File() {
    if (handle != nullptr) std::fclose(handle);
  }
  void close() {
    const bool failed = std::ferror(handle) != 0;
    if (std::fclose(std::exchange(handle, nullptr)) != 0 || failed) {
      throw std::runtime_error(fmt::format("cannot write '{}': {}", path_, std::strerror(errno)));
    }
  }
  std::string path_;
  std::FILE* handle;
};

bool same_bits(const shoal::ObjectState& a, const shoal::ObjectState& b) {
  auto bits = [](const shoal::ObjectState& s) {
    return std::array<std::uint32_t, 13>{
        std::bit_cast<std::uint32_t>(s.position.x), std::bit_cast<std::uint32_t>(s.position.y),
        std::bit_cast<std::uint32_t>(s.position.z), std::bit_cast<std::uint32_t>(s.orientation.w),
        std::bit_cast<std::uint32_t>(s.orientation.x), std::bit_cast<std::uint32_t>(s.orientation.y),
        std::bit_cast<std::uint32_t>(s.orientation.z), std::bit_cast<std::uint32_t>(s.linear_velocity.x),
        std::bit_cast<std::uint32_t>(s.linear_velocity.y), std::bit_cast<std::uint32_t>(s.linear_velocity.z),
        std::bit_cast<std::uint32_t>(s.angular_velocity.x), std::bit_cast<std::uint32_t>(s.angular_velocity.y),
        std::bit_cast<std::uint32_t>(s.angular_velocity.z)};
  };
  return a.at_rest == b.at_rest && bits(a) == bits(b);
}

// The largest differences between any two samples' states of one body, or nothing when some
// sample lacks it.
std::optional<Divergence> body_divergence(const std::vector<const PeerSample*>& samples, std::size_t b) {
  for (const PeerSample* s : samples) {
    if (s == nullptr || b >= s->states.size() || !s->states[b]) return std::nullopt;
  }
  Divergence d;
  for (std::size_t i = 0; i < samples.size(); ++i) {
    for (std::size_t j = i + 1; j < samples.size(); ++j) {
      const shoal::ObjectState& p = *samples[i]->states[b];
      const shoal::ObjectState& q = *samples[j]->states[b];
      d.max_position_error_m = std::max(d.max_position_error_m, shoal::distance(p.position, q.position));
      d.max_rotation_error_rad =
          std::max(d.max_rotation_error_rad, shoal::angle_between(p.orientation, q.orientation));
      d.bitwise = d.bitwise && same_bits(p, q);
    }
  }
  return d;
}

bool within_tolerance(const Divergence& d) {
  return d.max_position_error_m <= kPositionTolerance && d.max_rotation_error_rad <= kRotationTolerance;
}

}  // namespace

Divergence compare_samples(const std::vector<const PeerSample*>& samples, int bodies) {
  Divergence d;
  for (int body = 0; body < bodies; ++body) {
    const std::optional<Divergence> one = body_divergence(samples, static_cast<std::size_t>(body));
    if (!one) {
      ++d.bodies_lost;
      continue;
    }
    d.max_position_error_m = std::max(d.max_position_error_m, one->max_position_error_m);
    d.max_rotation_error_rad = std::max(d.max_rotation_error_rad, one->max_rotation_error_rad);
    d.bitwise = d.bitwise && one->bitwise;
  }
  return d;
}

void compare_spawned(const std::vector<const PeerSample*>& samples, SpawnedReport& report) {
  report.same_live_set = true;
  report.bitwise = true;
  report.differences.clear();
  const PeerSample* first = samples.empty() ? nullptr : samples.front();
  report.compared = first != nullptr ? static_cast<int>(first->spawned_ids.size()) : 0;
  // Every id some sample holds, ascending.
  std::vector<shoal::ObjectId> ids;
  for (const PeerSample* s : samples) {
    if (s == nullptr) report.same_live_set = false;
    if (s != nullptr) ids.insert(ids.end(), s->spawned_ids.begin(), s->spawned_ids.end());
  }
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  for (shoal::ObjectId id : ids) {
    BodyDifference d{-1, id, {}, {}, {}};
    bool differs = false;
    std::optional<shoal::ObjectState> reference;  // the first peer's that has one
    for (const PeerSample* s : samples) {
      std::optional<shoal::ObjectState> state;
      if (s != nullptr) {
        const auto at = std::lower_bound(s->spawned_ids.begin(), s->spawned_ids.end(), id);
        if (at != s->spawned_ids.end() && *at == id) {
          state = s->spawned_states[static_cast<std::size_t>(at - s->spawned_ids.begin())];
        } else {
          report.same_live_set = false;
        }
      }
      d.peers.push_back(s != nullptr ? s->figures.peer : shoal::kNoPeer);
      d.states.push_back(state);
      d.diagnoses.emplace_back();
      if (!state) {
        differs = true;
      } else if (!reference) {
        reference = state;
      } else {
        differs = differs || !same_bits(*state, *reference);
      }
    }
    if (!differs) continue;
    report.bitwise = false;
    report.differences.push_back(std::move(d));
  }
}

bool all_at_rest(const std::vector<const PeerSample*>& samples) {
  for (const PeerSample* s : samples) {
    if (s == nullptr) return false;
    for (const std::optional<shoal::ObjectState>& state : s->states) {
      if (!state || !state->at_rest) return false;
    }
    for (const std::optional<shoal::ObjectState>& state : s->spawned_states) {
      if (!state || !state->at_rest) return false;
    }
  }
  return true;
}

std::vector<BodyDifference> differing_bodies(const std::vector<const PeerSample*>& samples,
                                             const std::vector<const PeerSample*>& finals,
                                             const std::vector<shoal::ObjectId>& ids) {
  std::vector<BodyDifference> found;
  for (std::size_t b = 0; b < ids.size(); ++b) {
    if (const std::optional<Divergence> d = body_divergence(samples, b); d && within_tolerance(*d)) continue;
    BodyDifference difference{static_cast<int>(b), ids[b], {}, {}, {}};
    for (std::size_t i = 0; i < samples.size(); ++i) {
      const PeerSample* s = samples[i];
      const PeerSample* f = i < finals.size() ? finals[i] : nullptr;
      difference.peers.push_back(s != nullptr ? s->figures.peer : f != nullptr ? f->figures.peer : shoal::kNoPeer);
      difference.states.push_back(s != nullptr && b < s->states.size() ? s->states[b] : std::nullopt);
      difference.diagnoses.push_back(f != nullptr && b < f->diagnoses.size() ? std::optional(f->diagnoses[b])
                                                                              : std::nullopt);
    }
    found.push_back(std::move(difference));
  }
  return found;
}

namespace {

constexpr std::size_t kDifferencesListed = 10;  // on stdout; the JSON report has every one
constexpr std::size_t kDifferencesDetailed = 3;  // field by field, with each peer's diagnosis

void print_state(const shoal::ObjectState& s) {
  fmt::print("position ({} {} {}) orientation ({} {} {} {}) velocity ({} {} {}) spin ({} {} {}){}", s.position.x,
             s.position.y, s.position.z, s.orientation.w, s.orientation.x, s.orientation.y, s.orientation.z,
             s.linear_velocity.x, s.linear_velocity.y, s.linear_velocity.z, s.angular_velocity.x,
             s.angular_velocity.y, s.angular_velocity.z, s.at_rest ? " at rest" : " moving");
}

void print_diagnosis(const shoal::ObjectDiagnosis& d) {
  fmt::print("      owner {}{}{}; its owner's newest frame taken in {} (at frame {}); overridden {} times", d.owner,
             d.frozen ? ", frozen here" : "", d.confirmed ? ", confirmed" : "", d.last_owner_frame,
             d.last_owner_frame_at, d.overrides);
  if (d.owner_said) {
    fmt::print("; its owner last said, at {}: ({} {} {}){}", d.owner_said_frame, d.owner_said_state.position.x,
               d.owner_said_state.position.y, d.owner_said_state.position.z,
               d.owner_said_state.at_rest ? " at rest" : " moving");
  }
  fmt::print("\n");
  for (const shoal::OwnershipHistoryEntry& e : d.ownership) {
    fmt::print("      owner {} from frame {} (sequence {}, by {}), applied at frame {}\n", e.owner, e.frame, e.sequence,
               e.author, e.applied_at);
  }
}

void print_spawned(const MatchReport& r) {
  const SpawnedReport& s = r.spawned;
  fmt::print("\nprojectiles: {} a second per bot\n{:>4} {:>8} {:>8} {:>5} {:>10} {:>10}\n", s.rate, "peer", "spawned", "removed",
             "live", "bad_spawn", "over_limit");
  for (const PeerSummary& p : r.peers) {
    fmt::print("{:>4} {:>8} {:>8} {:>5} {:>10} {:>10}\n", p.id, p.objects_spawned, p.objects_removed, p.live_objects,
               p.bad_spawn, p.over_limit);
  }
  fmt::print("spawned objects compared at frame {}: {}; {}; {}\n", r.compared_frame, s.compared,
             s.same_live_set ? "the same live set on every peer" : "NOT the same live set on every peer",
             s.bitwise ? "every state the same bits on every peer" : "NOT the same bits on every peer");
  fmt::print("once their lifetimes passed (frame {}): {}\n", s.after_lifetimes,
             s.live_after_lifetimes == 0 ? std::string("no spawned object left on any peer")
                                         : fmt::format("{} spawned objects LEFT on some peer", s.live_after_lifetimes));
}

void print_differences(const std::vector<BodyDifference>& differences) {
  if (differences.empty()) return;
  fmt::print("bodies that differ: {} (the first {}; each peer's position, and whether at rest):\n", differences.size(),
             std::min(differences.size(), kDifferencesListed));
  for (std::size_t i = 0; i < differences.size() && i < kDifferencesListed; ++i) {
    const BodyDifference& d = differences[i];
    fmt::print("  {} (object {}):", d.body >= 0 ? fmt::format("body {}", d.body) : "spawned", d.object);
    for (const std::optional<shoal::ObjectState>& s : d.states) {
      if (s) {
        fmt::print(" ({:.3f}, {:.3f}, {:.3f}){}", s->position.x, s->position.y, s->position.z, s->at_rest ? "" : " moving");
      } else {
        fmt::print(" (none)");
      }
    }
    fmt::print("\n");
  }
  for (std::size_t i = 0; i < differences.size() && i < kDifferencesDetailed; ++i) {
    const BodyDifference& d = differences[i];
    fmt::print("object {} on each peer:\n", d.object);
    for (std::size_t p = 0; p < d.states.size(); ++p) {
      fmt::print("  peer {}: ", d.peers[p]);
      if (d.states[p]) print_state(*d.states[p]); else fmt::print("(no state)");
      fmt::print("\n");
      if (d.diagnoses[p]) print_diagnosis(*d.diagnoses[p]);
    }
  }
}

std::string json_state(const shoal::ObjectState& s) {
  return fmt::format("{{\"position\": [{}, {}, {}], \"orientation\": [{}, {}, {}, {}], \"linear_velocity\": [{}, {}, {}], "
                     "\"angular_velocity\": [{}, {}, {}], \"at_rest\": {}}}",
                     s.position.x, s.position.y, s.position.z, s.orientation.w, s.orientation.x, s.orientation.y,
                     s.orientation.z, s.linear_velocity.x, s.linear_velocity.y, s.linear_velocity.z,
                     s.angular_velocity.x, s.angular_velocity.y, s.angular_velocity.z, s.at_rest);
}

std::string json_diagnosis(const shoal::ObjectDiagnosis& d) {
  std::string history;
  for (const shoal::OwnershipHistoryEntry& e : d.ownership) {
    history += fmt::format("{}{{\"frame\": {}, \"owner\": {}, \"sequence\": {}, \"author\": {}, \"applied_at\": {}}}",
                           history.empty() ? "" : ", ", e.frame, e.owner, e.sequence, e.author, e.applied_at);
  }
  std::string said = "null";
  if (d.owner_said) {
    said = fmt::format("{{\"frame\": {}, \"position\": [{}, {}, {}], \"at_rest\": {}}}", d.owner_said_frame,
                       d.owner_said_state.position.x, d.owner_said_state.position.y, d.owner_said_state.position.z,
                       d.owner_said_state.at_rest);
  }
  return fmt::format("\"owner\": {}, \"frozen\": {}, \"confirmed\": {}, \"last_owner_frame\": {}, "
                     "\"last_owner_frame_at\": {}, \"overrides\": {}, \"owner_said\": {}, \"ownership\": [{}]",
                     d.owner, d.frozen, d.confirmed, d.last_owner_frame, d.last_owner_frame_at, d.overrides, said,
                     history);
}

void write_differences(std::FILE* file, const std::vector<BodyDifference>& differences) {
  fmt::print(file, "  \"differing\": [");
  for (std::size_t i = 0; i < differences.size(); ++i) {
    const BodyDifference& d = differences[i];
    fmt::print(file, "{}\n    {{\"body\": {}, \"object\": {}, \"peers\": [", i == 0 ? "" : ",", d.body, d.object);
    for (std::size_t p = 0; p < d.states.size(); ++p) {
      fmt::print(file, "{}\n      {{\"peer\": {}, \"state\": {}", p == 0 ? "" : ",", d.peers[p],
                 d.states[p] ? json_state(*d.states[p]) : "null");
      if (d.diagnoses[p]) fmt::print(file, ", {}", json_diagnosis(*d.diagnoses[p]));
      fmt::print(file, "}}");
    }
    fmt::print(file, "]}}");
  }
  fmt::print(file, "{}],\n", differences.empty() ? "" : "\n  ");
}

}  // namespace

bool is_consistent(const MatchReport& r) {
  const bool faults_recovered = std::all_of(r.faults.begin(), r.faults.end(), [](const FaultReport& f) {
    const bool kick_held = !f.kicked || (!f.kick_reason.empty() && f.reowned_ms <= kKickReownMs && f.comebacks > 0 &&
                                         f.comebacks_refused == f.comebacks);
    return f.reowned_ms >= 0 && (f.restarted_at_s < 0 || f.rejoin_ms >= 0) && kick_held;
  });
  const SpawnedReport& spawned = r.spawned;
  const bool spawned_agree =
      spawned.rate == 0 || (spawned.same_live_set && spawned.bitwise && spawned.live_after_lifetimes == 0);
  return r.failures.empty() && r.final.bodies_lost == 0 && r.bodies_unowned == 0 && faults_recovered &&
         within_tolerance(r.final) && spawned_agree;
}

void print_report(const MatchReport& r) {
  fmt::print("\n{:>4} {:>7} {:>7} {:>7} {:>6} {:>9} {:>9} {:>10} {:>15} {:>18} {:>14} {:>15} {:>6} {:>12}\n", "peer",
             "join_ms", "frames", "rtt_ms", "loss", "kbps_out", "kbps_in", "overrides", "catchup_frames",
             "ownership_changes", "owned_objects", "frozen_objects", "cpu_s", "slowest_pace");
  for (const PeerSummary& p : r.peers) {
    fmt::print("{:>4} {:>7} {:>7} {:>7.1f} {:>5.1f}% {:>9.1f} {:>9.1f} {:>10} {:>15} {:>18} {:>14} {:>15} {:>6.1f} {:>12.2f}\n",
               p.id, p.join_ms, p.frames, p.rtt_ms, p.loss * 100, p.kbps_out, p.kbps_in, p.overrides, p.catchup_frames,
               p.ownership_changes, p.owned_objects, p.frozen_objects, static_cast<double>(p.cpu_ms) / 1000.0,
               p.slowest_pace);
  }
  fmt::print("\nwhat each player saw, over the match: correction latency (owner frame sent -> taken in here) and\n"
             "visual correction (how far smoothing moved a drawn object in one frame)\n{:>4} {:>15} {:>15} {:>14} {:>14}\n",
             "peer", "latency_p50_ms", "latency_p99_ms", "visual_p99_mm", "visual_max_mm");
  for (const PeerSummary& p : r.peers) {
    fmt::print("{:>4} {:>15.0f} {:>15.0f} {:>14.2f} {:>14.1f}\n", p.id, p.latency_p50_ms, p.latency_p99_ms, p.visual_p99_mm,
               p.visual_max_mm);
  }
  fmt::print("\nobjects compared at frame {} ({}): {} ({} shared, {} balls), lost: {}\n", r.compared_frame,
             r.settled ? "all at rest" : "some still moving", r.objects, r.objects - r.balls, r.balls,
             r.final.bodies_lost);
  fmt::print("final max position error: {:.6f} m, rotation error: {:.6f} rad (tolerance {} m, {} rad); {}\n",
             r.final.max_position_error_m, r.final.max_rotation_error_rad, kPositionTolerance, kRotationTolerance,
             r.final.bitwise ? "every state the same bits on every peer" : "NOT the same bits on every peer");
  if (r.bodies_unowned > 0) fmt::print("bodies without a live owner on some peer: {}\n", r.bodies_unowned);
  if (r.spawned.rate > 0) print_spawned(r);
  print_differences(r.spawned.differences);
  for (const FaultReport& f : r.faults) {
    fmt::print("{}: peer #{} (id {}) at {:.1f} s; reowned_ms {}", f.kicked ? "kicked" : "killed", f.index, f.peer,
               f.killed_at_s, f.reowned_ms >= 0 ? std::to_string(f.reowned_ms) : "never");
    if (f.kicked) {
      fmt::print("; told \"{}\"; came back {} times, refused {}{}", f.kick_reason.empty() ? "nothing" : f.kick_reason,
                 f.comebacks, f.comebacks_refused,
                 f.comeback_reason.empty() ? "" : fmt::format(" (\"{}\")", f.comeback_reason));
    }
    if (f.restarted_at_s >= 0) {
      fmt::print("; restarted at {:.1f} s, rejoin_ms {}", f.restarted_at_s,
                 f.rejoin_ms >= 0 ? std::to_string(f.rejoin_ms) : "never");
    }
    fmt::print("\n");
  }
  print_differences(r.differences);
  for (const std::string& failure : r.failures) fmt::print("FAILED: {}\n", failure);
  fmt::print("verdict: {}\n", r.consistent ? "CONSISTENT" : "NOT CONSISTENT");
}

void write_json(const std::string& path, const MatchReport& r) {
  File file(path);
  fmt::print(file.handle, "{{\n  \"peers\": [\n");
  for (std::size_t i = 0; i < r.peers.size(); ++i) {
    const PeerSummary& p = r.peers[i];
    fmt::print(file.handle,
               "    {{\"id\": {}, \"join_ms\": {}, \"frames\": {}, \"rtt_ms\": {}, \"loss\": {}, \"kbps_out\": {}, \"kbps_in\": {}, "
               "\"overrides\": {}, \"catchup_frames\": {}, \"ownership_changes\": {}, \"owned_objects\": {}, "
               "\"frozen_objects\": {}, \"cpu_ms\": {}, \"slowest_pace\": {}, \"objects_spawned\": {}, "
               "\"objects_removed\": {}, \"live_objects\": {}, \"bad_spawn\": {}, \"over_limit\": {}, "
               "\"latency_p50_ms\": {}, \"latency_p99_ms\": {}, \"visual_p99_mm\": {}, \"visual_max_mm\": {}}}{}\n",
               p.id, p.join_ms, p.frames, p.rtt_ms, p.loss, p.kbps_out, p.kbps_in, p.overrides, p.catchup_frames,
               p.ownership_changes, p.owned_objects, p.frozen_objects, p.cpu_ms, p.slowest_pace, p.objects_spawned,
               p.objects_removed, p.live_objects, p.bad_spawn, p.over_limit, p.latency_p50_ms, p.latency_p99_ms,
               p.visual_p99_mm, p.visual_max_mm, i + 1 < r.peers.size() ? "," : "");
  }
  fmt::print(file.handle, "  ],\n  \"faults\": [");
  for (std::size_t i = 0; i < r.faults.size(); ++i) {
    const FaultReport& f = r.faults[i];
    fmt::print(file.handle,
               "{}\n    {{\"index\": {}, \"peer\": {}, \"killed_at_s\": {}, \"reowned_ms\": {}, \"restarted_at_s\": {}, "
               "\"rejoin_ms\": {}, \"kicked\": {}, \"comebacks\": {}, \"comebacks_refused\": {}}}",
               i == 0 ? "" : ",", f.index, f.peer, f.killed_at_s, f.reowned_ms, f.restarted_at_s, f.rejoin_ms,
               f.kicked ? "true" : "false", f.comebacks, f.comebacks_refused);
  }
  fmt::print(file.handle, "{}],\n  \"bodies_unowned\": {},\n", r.faults.empty() ? "" : "\n  ", r.bodies_unowned);
  write_differences(file.handle, r.differences);
  const SpawnedReport& spawned = r.spawned;
  fmt::print(file.handle,
             "  \"spawned\": {{\"rate\": {}, \"compared\": {}, \"same_live_set\": {}, \"bitwise\": {}, "
             "\"after_lifetimes_frame\": {}, \"live_after_lifetimes\": {}}},\n",
             spawned.rate, spawned.compared, spawned.same_live_set, spawned.bitwise, spawned.after_lifetimes,
             spawned.live_after_lifetimes);
  fmt::print(file.handle,
             "  \"objects\": {},\n  \"objects_lost\": {},\n  \"compared_frame\": {},\n  \"settled\": {},\n"
             "  \"final_max_position_error_m\": {},\n  \"final_max_rotation_error_rad\": {},\n  \"bitwise\": {},\n"
             "  \"consistent\": {}\n}}\n",
             r.objects, r.final.bodies_lost, r.compared_frame, r.settled, r.final.max_position_error_m,
             r.final.max_rotation_error_rad, r.final.bitwise, r.consistent);
  file.close();
}

void write_csv(const std::string& path, const std::vector<SecondRow>& rows) {
  File file(path);
  fmt::print(file.handle,
             "time_s,peer,rtt_ms,loss,kbps_out,kbps_in,overrides_per_s,catchup_frames_per_s,owned_objects,"
             "max_position_error_m,latency_p50_ms,latency_p99_ms,visual_p99_mm,visual_max_mm\n");
  for (const SecondRow& row : rows) {
    for (std::size_t i = 0; i < row.peers.size(); ++i) {
      if (!row.peers[i]) continue;
      const PeerFigures& f = *row.peers[i];
      fmt::print(file.handle, "{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", row.time_s, f.peer, f.rtt_ms, f.loss,
                 f.kbps_out, f.kbps_in, row.overrides_per_s[i], row.catchup_frames_per_s[i], f.owned_objects,
                 row.max_position_error_m, f.latency_p50_ms, f.latency_p99_ms, f.visual_p99_mm, f.visual_max_mm);
    }
  }
  file.close();
}

void write_plot(const std::string& png_path, const std::vector<SecondRow>& rows) {
  // The data goes into the script as named blocks, one per peer, so each peer's line is whole.
  std::string script = "$divergence << EOD\n";
  std::vector<std::string> peer_blocks;
  for (const SecondRow& row : rows) {
    script += fmt::format("{} {}\n", row.time_s, row.max_position_error_m);
    peer_blocks.resize(std::max(peer_blocks.size(), row.peers.size()));
    for (std::size_t i = 0; i < row.peers.size(); ++i) {
      if (row.peers[i]) {
        const PeerFigures& f = *row.peers[i];
        peer_blocks[i] += fmt::format("{} {} {} {} {} {} {}\n", row.time_s, f.kbps_out, f.kbps_in, f.peer, f.latency_p99_ms,
                                      f.visual_p99_mm, f.visual_max_mm);
      }
    }
  }
  script += "EOD\n";
  std::string bandwidth_plots, latency_plots, visual_plots;
  for (std::size_t i = 0; i < peer_blocks.size(); ++i) {
    script += fmt::format("$peer{} << EOD\n{}EOD\n", i, peer_blocks[i]);
    const char* comma = i == 0 ? "" : ", ";
    bandwidth_plots += fmt::format("{0}$peer{1} using 1:2 with linespoints lc {2} title 'peer #{1} out', "
                                   "$peer{1} using 1:3 with lines dashtype 2 lc {2} title 'peer #{1} in'",
                                   comma, i, i + 1);
    latency_plots += fmt::format("{0}$peer{1} using 1:5 with linespoints lc {2} title 'peer #{1} p99'", comma, i, i + 1);
    visual_plots += fmt::format("{0}$peer{1} using 1:6 with linespoints lc {2} title 'peer #{1} p99', "
                                "$peer{1} using 1:7 with lines dashtype 2 lc {2} title 'peer #{1} max'",
                                comma, i, i + 1);
  }
  script += fmt::format(
      "set terminal png size 1000,1500\n"
      "set output '{}'\n"
      "set key outside right\n"
      "set xlabel 'match time (s)'\n"
      "set multiplot layout 4,1 title 'shoal-lan-match'\n"
      "set title 'bandwidth per launched peer'\n"
      "set ylabel 'kbit/s'\n"
      "plot {}\n"
      "set title 'correction latency: owner frame sent -> taken in, per second'\n"
      "set ylabel 'ms'\n"
      "plot {}\n"
      "set title 'visual correction: how far smoothing moved a drawn object in one frame, per second'\n"
      "set ylabel 'mm'\n"
      "set logscale y\n"
      "set yrange [0.1<*:]\n"
      "plot {}\n"
      "unset logscale y\n"
      "set title 'largest position difference between peers (same frame)'\n"
      "set ylabel 'm'\n"
      "set yrange [0:0.001<*]\n"
      "plot $divergence using 1:2 with linespoints title 'max position error'\n"
      "unset multiplot\n",
      png_path, bandwidth_plots.empty() ? "NaN notitle" : bandwidth_plots,
      latency_plots.empty() ? "NaN notitle" : latency_plots, visual_plots.empty() ? "NaN notitle" : visual_plots);
  run_gnuplot(script, png_path);
}

}  // namespace lan_match
