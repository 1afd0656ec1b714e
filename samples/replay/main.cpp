// shoal-replay FILE...: runs each recorded peer (shoal-lan-match --record) again, alone, on the
// same arena, and says whether it did exactly what the recorded peer did, bit for bit; where it
// did not, at which update and frame it first went its own way.
//
// Exit code: 0 when every replay was identical, 1 when one differed, 2 for a wrong argument or
// a file that is not a recording of shoal-lan-match's arena.
#include <exception>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "arena.hpp"
#include "shoal/recording.hpp"
#include "shoal/reference_physics.hpp"

namespace {

constexpr const char* kUsage =
    "usage: shoal-replay FILE.shoalrec...\n"
    "  Plays each peer recorded by `shoal-lan-match --record DIR` again, alone and without a clock,\n"
    "  and compares every update with the recording. Exit 0 when every replay is identical.\n";

int replay_one(const std::string& path) {
  const shoal::Replay replay(path);
  const std::string_view words(reinterpret_cast<const char*>(replay.world().data()), replay.world().size());
  const std::optional<lan_match::Arena> arena = lan_match::arena_from_description(words);
  if (!arena) {
    fmt::print(stderr, "shoal-replay: {}: its world '{}' is not a shoal-lan-match arena this program can build\n", path,
               words);
    return 2;
  }
  shoal::ReferencePhysics physics(lan_match::arena_physics(*arena));
  lan_match::build_arena(physics, *arena);
  const shoal::ReplayReport report = replay.run(physics);
  fmt::print("{}: {} updates, {} checks, frame {}, {} overrides, {} frames caught up{}: {}\n", path, report.updates,
             report.checks, report.final_frame, report.stats.overrides, report.stats.catchup_frames,
             replay.complete() ? "" : " (the recording stops early: no final states)",
             report.identical ? "identical" : "DIFFERS");
  if (!report.identical) fmt::print("  first difference: {}\n", report.first_difference);
  return report.identical ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      fmt::print("{}", kUsage);
      return 0;
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
  for (const std::string& file : files) {
    try {
      worst = std::max(worst, replay_one(file));
    } catch (const std::exception& e) {
      fmt::print(stderr, "shoal-replay: {}\n", e.what());
      worst = 2;
    }
  }
  return worst;
}
