// SPDX-License-Identifier: MIT
// shoal-lan-match: a headless LAN match of real peer processes, with a report.
// See launcher.hpp (the default mode) and peer_process.hpp (--peer).
#include <csignal>
#include <exception>
#include <string>

#include <fmt/format.h>

#include "launcher.hpp"
#include "options.hpp"
#include "peer_process.hpp"
#include "process.hpp"
#include "repeat.hpp"
#include "soak.hpp"
#include "shoal/version.hpp"

int main(int argc, char** argv) {
  if (shoal::print_version_if_asked(argc, argv, "shoal-lan-match")) return 0;
  lan_match::ParsedOptions parsed;
  try {
    parsed = lan_match::parse_options(argc, argv);
  } catch (const lan_match::UsageError& e) {
    fmt::print(stderr, "shoal-lan-match: {}\n", e.what());
    return 2;
  }
  if (parsed.help) {
    fmt::print("{}", lan_match::usage_text());
    return 0;
  }
  const lan_match::Options& options = parsed.options;
  try {
    if (options.peer_mode) return lan_match::run_peer(options);
#ifdef SIGPIPE
    // A peer that exits early closes its pipe; the launcher notices by reading, not by dying.
    std::signal(SIGPIPE, SIG_IGN);
#endif
    const std::string self = shoal::samples::current_executable();
    if (options.soak_minutes > 0) return lan_match::run_soak(options, self.c_str());
    if (options.repeat > 0) return lan_match::run_repeated(options, self.c_str());
    return lan_match::run_single(options, self.c_str());
  } catch (const std::exception& e) {
    fmt::print(stderr, "shoal-lan-match: {}\n", e.what());
    return 1;
  }
}
