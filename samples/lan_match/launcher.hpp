// `shoal-lan-match`: starts N peer processes of this same program (`--peer`), follows their
// reports, prints one progress line per second of match time, compares their states at the
// agreed frame and writes the report. Crashed or hung peers are reported and killed.
#pragma once

#include "options.hpp"

namespace lan_match {

/// Returns the exit code: 0 exactly when the match is consistent and nothing was lost.
int run_launcher(const Options& options, const char* self_path);

}  // namespace lan_match
