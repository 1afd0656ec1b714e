// SPDX-License-Identifier: MIT
#include "soak.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "gnuplot.hpp"
#include "report.hpp"

namespace lan_match {
namespace {

constexpr double kMemoryWarmupSeconds = 120;  // of each process's life: caches, histories fill up
constexpr std::int64_t kMemoryGrowthFloorKb = 8 * 1024;
constexpr double kMemoryGrowthFraction = 0.10;
constexpr int kMemoryJudgedSamples = 3;

// The soak's own values where the user left a flag at its default.
template <class T>
void unless_given(T& value, T soak_value) {
  if (value == T{}) value = soak_value;
}

}  // namespace

void apply_soak(Options& o) {
  const Options defaults;
  if (o.peers == defaults.peers) o.peers = 8;
  unless_given(o.loss, 0.2f);
  unless_given(o.duplicate, 0.05f);
  unless_given(o.reorder, 0.05f);
  unless_given(o.latency_ms, 20.0f);
  o.seconds = o.soak_minutes * 60;
  // A peer killed every minute, each in turn but the host (every joiner finds the session
  // through it), back after a while; the last restart leaves it time to play before the end.
  int turn = 0;
  for (double t = kSoakFirstKillSeconds; t + 2 * kSoakRestartAfterSeconds <= o.seconds && o.peers > 1;
       t += kSoakKillEverySeconds) {
    const int index = 1 + turn++ % (o.peers - 1);
    o.kills.push_back({index, t});
    o.restarts.push_back({index, t + kSoakRestartAfterSeconds});
  }
}

void SoakSampler::operator()(const MatchView& match) {
  const double now_s = match.seconds_since_launch();
  if (now_s < next_s_) return;
  next_s_ += kSoakSampleSeconds;
  for (int i = 0; i < match.launched(); ++i) {
    const shoal::samples::ProcessId pid = match.pid_of(i);
    if (pid < 0) continue;
    SoakRow row{now_s, i, pid, shoal::samples::resident_kb(pid), 0, 0, match.newest_divergence()};
    if (const PeerSample* s = match.newest_sample(i)) {
      row.owned = s->figures.owned_objects;
      row.live = static_cast<int>(std::count_if(s->states.begin(), s->states.end(), [](const auto& x) { return x.has_value(); }));
    }
    rows_.push_back(row);
  }
}

std::vector<MemoryGrowth> growing_memory(const std::vector<SoakRow>& rows, double warmup_s, int& judged) {
  std::map<std::pair<int, shoal::samples::ProcessId>, std::vector<const SoakRow*>> lives;  // each process's samples
  for (const SoakRow& r : rows) lives[{r.index, r.pid}].push_back(&r);
  std::vector<MemoryGrowth> growing;
  judged = 0;
  for (const auto& [process, samples] : lives) {
    const double born_s = samples.front()->time_s;  // within one sampling interval of its start
    std::vector<const SoakRow*> warm;
    for (const SoakRow* r : samples) {
      if (r->time_s - born_s >= warmup_s && r->rss_kb > 0) warm.push_back(r);
    }
    if (warm.size() < kMemoryJudgedSamples) continue;
    ++judged;
    const std::int64_t from = warm.front()->rss_kb, to = warm.back()->rss_kb;
    const auto allowed = std::max<std::int64_t>(kMemoryGrowthFloorKb, static_cast<std::int64_t>(kMemoryGrowthFraction * static_cast<double>(from)));
    if (to - from > allowed) {
      growing.push_back({process.first, process.second, from, to, warm.front()->time_s, warm.back()->time_s});
    }
  }
  return growing;
}

int run_soak(const Options& given, const char* self_path) {
  Options options = given;
  apply_soak(options);
  // The per-second CSV and plot would be as long as the soak: --csv and --plot get the soak's.
  Options match = options;
  match.csv_path.clear();
  match.plot_path.clear();
  SoakSampler sampler;
  const MatchOutcome outcome = run_match(match, self_path, false, [&](const MatchView& view) { sampler(view); });

  int judged = 0;
  const std::vector<MemoryGrowth> growing = growing_memory(sampler.rows(), kMemoryWarmupSeconds, judged);
  std::int64_t reowned_max = -1, rejoin_max = -1;
  int rejoined = 0;
  for (const FaultReport& f : outcome.report.faults) {
    reowned_max = std::max(reowned_max, f.reowned_ms);
    rejoin_max = std::max(rejoin_max, f.rejoin_ms);
    rejoined += f.rejoin_ms >= 0 ? 1 : 0;
  }
  std::int64_t rss_max = 0;
  std::map<std::pair<int, shoal::samples::ProcessId>, int> processes;
  for (const SoakRow& r : sampler.rows()) {
    rss_max = std::max(rss_max, r.rss_kb);
    processes[{r.index, r.pid}] = 1;
  }
  fmt::print("\nsoak: {} min, {} peers, {}% loss, {}% duplicated, {}% reordered, {} ms latency\n", options.soak_minutes,
             options.peers, options.loss * 100, options.duplicate * 100, options.reorder * 100, options.latency_ms);
  fmt::print("soak: {} samples of {} processes; largest RSS {} MiB; peers killed {}, restarted and rejoined {}; "
             "largest reowned_ms {}, largest rejoin_ms {}\n",
             sampler.rows().size(), processes.size(), rss_max / 1024, outcome.report.faults.size(), rejoined, reowned_max, rejoin_max);
  if (judged == 0) {
    fmt::print("soak: memory not judged: no process has {} samples past its {:.0f} s warm-up (a longer soak does)\n",
               kMemoryJudgedSamples, kMemoryWarmupSeconds);
  } else {
    fmt::print("soak: memory judged on {} processes; growing past the warm-up: {}\n", judged, growing.size());
  }
  for (const MemoryGrowth& g : growing) {
    fmt::print("FAILED: peer #{} (pid {}) grew from {} kB at {:.0f} s to {} kB at {:.0f} s\n", g.index, g.pid,
               g.from_kb, g.from_s, g.to_kb, g.to_s);
  }
  int code = outcome.exit_code != 0 || !growing.empty() ? 1 : 0;
  try {
    if (!options.csv_path.empty()) write_soak_csv(options.csv_path, sampler.rows());
    if (!options.plot_path.empty()) write_soak_plot(options.plot_path, sampler.rows());
  } catch (const std::exception& e) {
    fmt::print(stderr, "shoal-lan-match: {}\n", e.what());
    code = 1;
  }
  fmt::print("soak verdict: {}\n", code == 0 ? "PASSED" : "FAILED");
  return code;
}

void write_soak_csv(const std::string& path, const std::vector<SoakRow>& rows) {
  std::FILE* file = std::fopen(path.c_str(), "w");
  if (file == nullptr) throw std::runtime_error(fmt::format("cannot write '{}'", path));
  fmt::print(file, "time_s,index,pid,rss_kb,owned_objects,live_objects,max_position_error_m\n");
  for (const SoakRow& r : rows) {
    fmt::print(file, "{:.1f},{},{},{},{},{},{}\n", r.time_s, r.index, r.pid, r.rss_kb, r.owned, r.live, r.divergence_m);
  }
  if (std::fclose(file) != 0) throw std::runtime_error(fmt::format("cannot write '{}'", path));
}

void write_soak_plot(const std::string& png_path, const std::vector<SoakRow>& rows) {
  std::map<int, std::string> by_peer;  // "time rss_mib" lines; a restart is a blank line (a gap)
  std::map<int, shoal::samples::ProcessId> last_pid;
  std::string divergence;
  double last_time = -1;
  for (const SoakRow& r : rows) {
    std::string& block = by_peer[r.index];
    if (last_pid.contains(r.index) && last_pid[r.index] != r.pid) block += "\n";
    last_pid[r.index] = r.pid;
    block += fmt::format("{:.1f} {:.2f}\n", r.time_s / 60, static_cast<double>(r.rss_kb) / 1024);
    if (r.time_s != last_time) divergence += fmt::format("{:.1f} {}\n", r.time_s / 60, r.divergence_m);
    last_time = r.time_s;
  }
  std::string script = fmt::format("$divergence << EOD\n{}EOD\n", divergence);
  std::string plots;
  for (const auto& [index, block] : by_peer) {
    script += fmt::format("$peer{} << EOD\n{}EOD\n", index, block);
    plots += fmt::format("{}$peer{} using 1:2 with linespoints title 'peer #{}'", plots.empty() ? "" : ", ", index, index);
  }
  script += fmt::format(
      "set terminal png size 1000,800\n"
      "set output '{}'\n"
      "set key outside right\n"
      "set xlabel 'soak time (min)'\n"
      "set multiplot layout 2,1 title 'shoal-lan-match --soak'\n"
      "set title 'resident memory of each peer process (a gap: killed and restarted)'\n"
      "set ylabel 'MiB'\n"
      "plot {}\n"
      "set title 'largest position difference between peers (same frame, during play)'\n"
      "set ylabel 'm'\n"
      "plot $divergence using 1:2 with linespoints title 'max position error'\n"
      "unset multiplot\n",
      png_path, plots.empty() ? "NaN notitle" : plots);
  run_gnuplot(script, png_path);
}

}  // namespace lan_match
