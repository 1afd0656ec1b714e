// SPDX-License-Identifier: MIT
// shoal-replay FILE...: runs each recorded peer (shoal-lan-match --record) again, alone, on the
// same arena, and says whether it did exactly what the recorded peer did, bit for bit; where it
// did not, at which update and frame it first went its own way.
//
// Exit code: 0 when every replay was identical, 1 when one differed, 2 for a wrong argument or
// a file that is not a recording of shoal-lan-match's arena.
#include <algorithm>
#include <charconv>
#include <exception>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "arena.hpp"
#include "shoal/recording.hpp"
#include "physics_choice.hpp"
#include "shoal/version.hpp"

namespace {

constexpr const char* kUsage =
    "usage: shoal-replay [--trace OBJECT]... FILE.shoalrec...\n"
    "  Plays each peer recorded by `shoal-lan-match --record DIR` again, alone and without a clock,\n"
    "  and compares every update with the recording. Exit 0 when every replay is identical.\n"
    "  --trace OBJECT   print what the peer knows of the object (Peer::diagnose) whenever it\n"
    "                   changes: state, owner, frozen, the owner's last frame and last word\n"
    "  --trace-join     print each step of the peer's join, and its count, as they change\n"
    "                   (Peer::join_progress)\n"
    "  With several files of one match, the objects whose final states differ between them\n"
    "  are listed at the end (replay those with --trace).\n";

// The replayed peer's final frame and the states of every object then.
struct FinalStates {
  shoal::Frame frame = shoal::kNoFrame;
  std::vector<shoal::ObjectState> states;
};

// One line of what a peer knows of an object; printed when it differs from the last one.
std::string trace_line(const shoal::ObjectDiagnosis& d) {
  const shoal::ObjectState& s = d.state;
  std::string line = fmt::format("owner {} pos ({} {} {}) vel ({} {} {}){}{}{} owner-frame {}@{} overrides {}", d.owner,
                                 s.position.x, s.position.y, s.position.z, s.linear_velocity.x, s.linear_velocity.y,
                                 s.linear_velocity.z, s.at_rest ? " resting" : "", d.frozen ? " frozen" : "",
                                 d.confirmed ? " confirmed" : "", d.last_owner_frame, d.last_owner_frame_at,
                                 d.overrides);
  if (d.owner_said) {
    const shoal::ObjectState& o = d.owner_said_state;
    line += fmt::format(" | owner said at {}: ({} {} {}){}", d.owner_said_frame, o.position.x, o.position.y,
                        o.position.z, o.at_rest ? " resting" : "");
  }
  for (const shoal::OwnershipHistoryEntry& e : d.ownership) {
    line += fmt::format(" | owner {} from {} (seq {}, by {}, applied at {})", e.owner, e.frame, e.sequence, e.author,
                        e.applied_at);
  }
  return line;
}

int replay_one(const std::string& path, const std::vector<shoal::ObjectId>& traced, bool trace_join,
               FinalStates& final) {
  const shoal::Replay replay(path);
  const std::string_view words(reinterpret_cast<const char*>(replay.world().data()), replay.world().size());
  const std::optional<lan_match::ArenaDescription> described = lan_match::arena_from_description(words);
  if (!described) {
    fmt::print(stderr, "shoal-replay: {}: its world '{}' is not a shoal-lan-match arena this program can build\n", path,
               words);
    return 2;
  }
  if (const std::string problem = shoal::samples::physics_problem(shoal::samples::name(described->physics));
      !problem.empty()) {
    fmt::print(stderr, "shoal-replay: {}: {}\n", path, problem);
    return 2;
  }
  const std::unique_ptr<shoal::samples::EngineWorld> world = lan_match::build_arena(described->physics, described->arena);
  shoal::Simulation& physics = world->simulation();
  std::vector<std::string> last(traced.size());
  const std::vector<shoal::ObjectId> bodies = lan_match::all_bodies(described->arena);
  shoal::PeerId peer_id = shoal::kNoPeer;
  shoal::JoinProgress join_seen;
  const shoal::ReplayReport report = replay.run(physics, [&](const shoal::Peer& peer) {
    peer_id = peer.id();
    if (const shoal::JoinProgress p = peer.join_progress();
        trace_join && (p.step != join_seen.step || p.done != join_seen.done || p.needed != join_seen.needed)) {
      join_seen = p;
      fmt::print("  join: {} {}/{} at {} ms\n", shoal::to_string(p.step), p.done, p.needed, p.elapsed_ms);
    }
    if (peer.frame() != final.frame) {
      final.frame = peer.frame();
      final.states.clear();
      for (shoal::ObjectId id : bodies) final.states.push_back(peer.state(id));
    }
    for (std::size_t i = 0; i < traced.size(); ++i) {
      if (peer.frame() == shoal::kNoFrame) continue;
      // A spawned object is known only while it lives here.
      const std::vector<shoal::ObjectId> live = peer.spawned_objects();
      const bool spawned = (traced[i] & shoal::kSpawnedIdBit) != 0;
      std::string line = spawned && std::ranges::find(live, traced[i]) == live.end()
                             ? std::string("not live here")
                             : trace_line(peer.diagnose(traced[i], peer.frame()));
      if (line == last[i]) continue;
      fmt::print("  frame {} object {}: {}\n", peer.frame(), traced[i], line);
      last[i] = std::move(line);
    }
  });
  fmt::print("{} (peer {}): {} updates, {} checks, frame {}, {} overrides, {} frames caught up{}: {}\n", path, peer_id, report.updates,
             report.checks, report.final_frame, report.stats.overrides, report.stats.catchup_frames,
             replay.complete() ? "" : " (the recording stops early: no final states)",
             report.identical ? "identical" : "DIFFERS");
  if (!report.identical) fmt::print("  first difference: {}\n", report.first_difference);
  return report.identical ? 0 : 1;
}

// Objects whose final state is not the same bits in every replay that ended on the same frame.
void list_differences(const std::vector<std::string>& files, const std::vector<FinalStates>& finals) {
  const FinalStates& first = finals.front();
  // Peers end on different frames when their processes stop at different times; once
  // everything rests, every frame holds the same states and they compare all the same.
  bool same_frame = true, all_rest = true;
  for (const FinalStates& f : finals) {
    if (f.states.size() != first.states.size()) return;
    same_frame = same_frame && f.frame == first.frame;
    for (const shoal::ObjectState& s : f.states) all_rest = all_rest && s.at_rest;
  }
  if (!same_frame && !all_rest) {
    fmt::print("the replays end on different frames with objects still moving: their final states are not compared\n");
    return;
  }
  std::size_t differing = 0;
  for (std::size_t b = 0; b < first.states.size(); ++b) {
    bool same = true;
    for (const FinalStates& f : finals) same = same && f.states[b] == first.states[b];
    if (same) continue;
    ++differing;
    fmt::print("body {} differs at frame {}:\n", b, first.frame);
    for (std::size_t i = 0; i < finals.size(); ++i) {
      const shoal::ObjectState& s = finals[i].states[b];
      fmt::print("  {}: ({} {} {}) q({} {} {} {}){}\n", files[i], s.position.x, s.position.y, s.position.z,
                 s.orientation.w, s.orientation.x, s.orientation.y, s.orientation.z, s.at_rest ? " resting" : "");
    }
  }
  fmt::print("{} of {} bodies differ between the {} replays at frame {}\n", differing, first.states.size(),
             finals.size(), first.frame);
}

}  // namespace

int main(int argc, char** argv) {
  if (shoal::print_version_if_asked(argc, argv, "shoal-replay")) return 0;
  std::vector<std::string> files;
  std::vector<shoal::ObjectId> traced;
  bool trace_join = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      fmt::print("{}", kUsage);
      return 0;
    }
    if (arg == "--trace-join") {
      trace_join = true;
      continue;
    }
    if (arg == "--trace") {
      shoal::ObjectId id = 0;
      const std::string_view value = i + 1 < argc ? argv[++i] : "";
      const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), id);
      if (value.empty() || error != std::errc{} || end != value.data() + value.size()) {
        fmt::print(stderr, "shoal-replay: --trace '{}' is not valid: expected an object id\n{}", value, kUsage);
        return 2;
      }
      traced.push_back(id);
      continue;
    }
    if (arg.starts_with("-")) {
      fmt::print(stderr, "shoal-replay: unknown flag '{}'\n{}", arg, kUsage);
      return 2;
    }
    files.emplace_back(arg);
  }
  if (files.empty()) {
    fmt::print(stderr, "shoal-replay: expected at least one recording\n{}", kUsage);
    return 2;
  }
  int worst = 0;
  std::vector<FinalStates> finals(files.size());
  for (std::size_t f = 0; f < files.size(); ++f) {
    try {
      worst = std::max(worst, replay_one(files[f], traced, trace_join, finals[f]));
    } catch (const std::exception& e) {
      fmt::print(stderr, "shoal-replay: {}\n", e.what());
      worst = 2;
    }
  }
  if (files.size() > 1) list_differences(files, finals);
  return worst;
}
