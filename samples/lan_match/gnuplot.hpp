// SPDX-License-Identifier: MIT
// Drawing a plot: runs gnuplot (Debian: gnuplot-nox) on a script, bounded in time.
#pragma once

#include <string>

namespace lan_match {

/// Runs gnuplot on `script`, which writes `png_path`. Throws std::runtime_error when gnuplot is
/// missing, fails or takes more than 30 s, saying which.
void run_gnuplot(const std::string& script, const std::string& png_path);

}  // namespace lan_match
