// SPDX-License-Identifier: MIT
// shoal-lan-match --soak MINUTES: one long match on a bad network (8 peers, 20% loss, 5%
// duplicated, 5% reordered), a peer killed and restarted every minute, each peer process's
// resident memory, owned and live objects sampled every 30 s. The verdict is the match's (no
// object lost, every body owned, the settled states the same on every peer, every killed
// peer's objects owned again, every restarted one joined) and the memory's: no process may
// keep growing once warmed up.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "process.hpp"

#include "launcher.hpp"
#include "options.hpp"

namespace lan_match {

inline constexpr double kSoakSampleSeconds = 30;
inline constexpr double kSoakFirstKillSeconds = 20;  // then one every kSoakKillEverySeconds
inline constexpr double kSoakKillEverySeconds = 60;
inline constexpr double kSoakRestartAfterSeconds = 15;

/// The soak's match: its network, length, faults and timeouts, from --soak MINUTES (flags the
/// user gave for the network win).
void apply_soak(Options& options);

/// One peer process at one sampling time.
struct SoakRow {
  double time_s = 0;  ///< since the launch
  int index = 0;      ///< launched peer
  shoal::samples::ProcessId pid = -1;     ///< its process (a restarted peer has a new one)
  std::int64_t rss_kb = 0;
  std::uint64_t owned = 0;   ///< objects it owned, newest sample
  int live = 0;              ///< bodies it held a state of, newest sample
  float divergence_m = 0;    ///< largest position difference between peers, newest second
};

/// Samples every launched peer every kSoakSampleSeconds of a running match (a MatchWatcher).
class SoakSampler {
 public:
  void operator()(const MatchView& match);
  const std::vector<SoakRow>& rows() const { return rows_; }

 private:
  std::vector<SoakRow> rows_;
  double next_s_ = kSoakSampleSeconds;
};

/// A process whose memory kept growing: from its first sample after its warm-up to its last.
struct MemoryGrowth {
  int index = 0;
  shoal::samples::ProcessId pid = -1;
  std::int64_t from_kb = 0, to_kb = 0;
  double from_s = 0, to_s = 0;
};
/// Processes (each incarnation apart) whose RSS grew by more than max(8 MiB, 10%) from their
/// first sample past `warmup_s` of their life to their last; judged only with 3 such samples.
/// `judged` counts the processes that had them.
std::vector<MemoryGrowth> growing_memory(const std::vector<SoakRow>& rows, double warmup_s, int& judged);

/// Runs the soak; returns the exit code (0: the match consistent and no memory growing).
int run_soak(const Options& options, const char* self_path);

void write_soak_csv(const std::string& path, const std::vector<SoakRow>& rows);
/// RSS of every launched peer and the divergence over time, by gnuplot.
void write_soak_plot(const std::string& png_path, const std::vector<SoakRow>& rows);

}  // namespace lan_match
