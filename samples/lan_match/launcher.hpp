// SPDX-License-Identifier: MIT
// `shoal-lan-match`: starts N peer processes of this same program (`--peer`), follows their
// reports, prints one progress line per second of match time, compares their states at the
// agreed frame and writes the report. Crashed or hung peers are reported and killed.
#pragma once

#include "options.hpp"
#include "report.hpp"

namespace lan_match {

struct MatchOutcome {
  MatchReport report;
  int exit_code = 1;  ///< 0 exactly when the match is consistent and nothing was lost
};

/// Runs one match of `options.peers` processes of `self_path`. Quiet: no progress lines and
/// no report on stdout (the caller has the report).
MatchOutcome run_match(const Options& options, const char* self_path, bool quiet);

}  // namespace lan_match
