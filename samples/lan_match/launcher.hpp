// SPDX-License-Identifier: MIT
// `shoal-lan-match`: starts N peer processes of this same program (`--peer`), follows their
// reports, prints one progress line per second of match time, compares their states at the
// agreed frame and writes the report. Crashed or hung peers are reported and killed.
#pragma once

#include "process.hpp"

#include <functional>

#include "options.hpp"
#include "peer_report.hpp"
#include "report.hpp"

namespace lan_match {

struct MatchOutcome {
  MatchReport report;
  int exit_code = 1;  ///< 0 exactly when the match is consistent and nothing was lost
};

/// What a watcher of a running match (the soak's sampler) sees of it.
class MatchView {
 public:
  virtual ~MatchView() = default;
  virtual double seconds_since_launch() const = 0;
  virtual int launched() const = 0;  ///< peers launched
  /// Launched peer `index`'s process, -1 while none runs (killed, crashed, done).
  virtual shoal::samples::ProcessId pid_of(int index) const = 0;
  /// Its newest per-second sample (nullptr: none yet).
  virtual const PeerSample* newest_sample(int index) const = 0;
  /// The largest position difference between peers in the newest complete second.
  virtual float newest_divergence() const = 0;
};
/// Called on every pass of the launcher's loop (about every 100 ms).
using MatchWatcher = std::function<void(const MatchView&)>;

/// Runs one match of `options.peers` processes of `self_path`. Quiet: no progress lines and
/// no report on stdout (the caller has the report).
MatchOutcome run_match(const Options& options, const std::string& self_path, bool quiet, const MatchWatcher& watcher = {});

}  // namespace lan_match
