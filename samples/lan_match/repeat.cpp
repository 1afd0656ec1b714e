// SPDX-License-Identifier: MIT
#include "repeat.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "launcher.hpp"

namespace lan_match {
namespace {

namespace fs = std::filesystem;

std::int64_t percentile(std::vector<std::int64_t> values, double p) {
  if (values.empty()) return -1;
  std::sort(values.begin(), values.end());
  const auto rank = static_cast<std::size_t>(std::ceil(p * static_cast<double>(values.size())));
  return values[std::clamp<std::size_t>(rank, 1, values.size()) - 1];
}

struct MatchLine {
  std::uint64_t seed = 0;
  bool consistent = false;
  double seconds = 0;
  MatchReport report;
};

std::string one_line(const MatchLine& m, const std::string& kept) {
  const MatchReport& r = m.report;
  std::int64_t slowest_join = -1;
  for (const PeerSummary& p : r.peers) slowest_join = std::max(slowest_join, p.join_ms);
  std::string line = fmt::format("seed {}: {}{} ({:.0f} s) max error {:.4f} m {:.4f} rad, lost {}, slowest join {} ms",
                                 m.seed, m.consistent ? "consistent" : "NOT CONSISTENT",
                                 r.final.bodies_lost == 0 && r.final.bitwise ? ", bitwise" : "", m.seconds,
                                 r.final.max_position_error_m, r.final.max_rotation_error_rad, r.final.bodies_lost,
                                 slowest_join);
  for (const FaultReport& f : r.faults) {
    line += fmt::format(", peer {} reowned in {} ms", f.peer, f.reowned_ms);
    if (f.restarted_at_s >= 0) line += fmt::format(" and rejoined in {} ms", f.rejoin_ms);
    if (f.kicked) line += fmt::format(" (kicked: came back {} times, refused {})", f.comebacks, f.comebacks_refused);
  }
  if (!r.differences.empty()) line += fmt::format(", {}+ bodies differ", r.differences.size());
  for (const std::string& failure : r.failures) line += fmt::format("; {}", failure);
  if (!kept.empty()) line += fmt::format("; recordings in {}", kept);
  return line;
}

void write_summary(const std::string& path, const std::vector<MatchLine>& matches, const std::vector<std::int64_t>& joins) {
  std::FILE* file = std::fopen(path.c_str(), "w");
  if (file == nullptr) throw std::runtime_error(fmt::format("cannot write '{}'", path));
  const auto failed = std::count_if(matches.begin(), matches.end(), [](const MatchLine& m) { return !m.consistent; });
  fmt::print(file, "{{\n  \"matches\": [\n");
  for (std::size_t i = 0; i < matches.size(); ++i) {
    const MatchLine& m = matches[i];
    fmt::print(file,
               "    {{\"seed\": {}, \"consistent\": {}, \"bitwise\": {}, \"seconds\": {:.1f}, \"final_max_position_error_m\": {}, "
               "\"final_max_rotation_error_rad\": {}, \"objects_lost\": {}, \"failures\": {}}}{}\n",
               m.seed, m.consistent, m.report.final.bitwise && m.report.final.bodies_lost == 0, m.seconds,
               m.report.final.max_position_error_m,
               m.report.final.max_rotation_error_rad, m.report.final.bodies_lost, m.report.failures.size(),
               i + 1 < matches.size() ? "," : "");
  }
  fmt::print(file,
             "  ],\n  \"failed\": {},\n  \"joins\": {},\n  \"join_ms_p50\": {},\n  \"join_ms_p99\": {},\n"
             "  \"join_ms_max\": {}\n}}\n",
             failed, joins.size(), percentile(joins, 0.5), percentile(joins, 0.99), percentile(joins, 1.0));
  if (std::fclose(file) != 0) throw std::runtime_error(fmt::format("cannot write '{}'", path));
}

}  // namespace

int run_single(const Options& options, const char* self_path) {
  const int code = run_match(options, self_path, false).exit_code;
  if (!options.record_dir.empty()) fmt::print("recordings: {}/peer-I.shoalrec (shoal-replay plays one again)\n", options.record_dir);
  return code;
}

int run_repeated(const Options& options, const char* self_path) {
  std::vector<MatchLine> matches;
  std::vector<std::int64_t> joins;  // every joiner's join time, in every match
  fmt::print("shoal-lan-match: {} matches from seed {} on\n", options.repeat, options.seed);
  std::fflush(stdout);
  for (int i = 0; i < options.repeat; ++i) {
    Options one = options;
    one.seed = options.seed + static_cast<std::uint64_t>(i);
    one.report_path.clear();
    if (!options.record_dir.empty()) {
      one.record_dir = fmt::format("{}/seed-{}", options.record_dir, one.seed);
    }
    const auto start = std::chrono::steady_clock::now();
    MatchOutcome outcome = run_match(one, self_path, true);
    MatchLine line{one.seed, outcome.exit_code == 0,
                   std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(),
                   std::move(outcome.report)};
    for (const PeerSummary& p : line.report.peers) {
      if (p.id != 0 && p.join_ms >= 0) joins.push_back(p.join_ms);
    }
    std::string kept;
    if (!one.record_dir.empty()) {
      if (line.consistent) {
        fs::remove_all(one.record_dir);
      } else {
        kept = one.record_dir;
      }
    }
    fmt::print("{}\n", one_line(line, kept));
    std::fflush(stdout);
    matches.push_back(std::move(line));
  }
  const auto failed = std::count_if(matches.begin(), matches.end(), [](const MatchLine& m) { return !m.consistent; });
  fmt::print("summary: {} of {} matches consistent; {} joins: p50 {} ms, p99 {} ms, max {} ms\n",
             matches.size() - static_cast<std::size_t>(failed), matches.size(), joins.size(), percentile(joins, 0.5),
             percentile(joins, 0.99), percentile(joins, 1.0));
  if (!options.report_path.empty()) write_summary(options.report_path, matches, joins);
  return failed == 0 ? 0 : 1;
}

}  // namespace lan_match
