// SPDX-License-Identifier: MIT
// shoal-relay: forwards packets between the members of each session, never across sessions.
// Peers that cannot reach each other directly play through it (shoal/relay.hpp).
#include <chrono>
#include <csignal>
#include <cstdint>
#include <exception>
#include <stdexcept>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "../tool_cli.hpp"

#include "transport/relay_server.hpp"

namespace {

using shoal::tools::UsageError;
using shoal::tools::parse_number;

constexpr std::string_view kUsage =
    "usage: shoal-relay [--port P] [--bind HOST] [--max-sessions N] [--stats-interval S] [--audit]\n"
    "  --port P            UDP port to serve (default 40100; 0 = any free port)\n"
    "  --bind HOST         address to bind (default 0.0.0.0)\n"
    "  --max-sessions N    sessions served at once (default 64)\n"
    "  --stats-interval S  print one line per session every S seconds (default 10; 0 = never)\n"
    "  --audit             not in this generic relay: auditing re-simulates owner frames in the\n"
    "                      game's own world, so a game builds its auditing relay with the library\n"
    "                      (shoal::AuditingRelay in shoal/audit.hpp, given its world factory)\n"
    "  Stops cleanly on SIGINT and SIGTERM.\n";

struct Options {
  shoal::transport::RelayServerConfig server;
  double stats_interval_s = 10;
  bool audit = false;
};

Options parse(int argc, char** argv) {
  Options options;
  options.server.bind_host = "0.0.0.0";
  options.server.port = 40100;
  for (int i = 1; i < argc; ++i) {
    const std::string_view flag = argv[i];
    if (flag == "--help" || flag == "-h") throw UsageError("");
    if (flag == "--audit") {
      options.audit = true;
      continue;
    }
    if (flag != "--port" && flag != "--bind" && flag != "--max-sessions" && flag != "--stats-interval") {
      throw UsageError(fmt::format("unknown flag '{}'", flag));
    }
    if (i + 1 >= argc) throw UsageError(fmt::format("{} needs a value", flag));
    const std::string value = argv[++i];
    if (flag == "--port") {
      options.server.port = static_cast<std::uint16_t>(parse_number(flag, value, 0, 65535, "a port 0..65535", true));
    } else if (flag == "--bind") {
      options.server.bind_host = value;
    } else if (flag == "--max-sessions") {
      options.server.max_sessions =
          static_cast<std::size_t>(parse_number(flag, value, 1, 100000, "a whole number 1..100000", true));
    } else {  // --stats-interval
      options.stats_interval_s = parse_number(flag, value, 0, 86400, "seconds 0..86400 (0 = never)", false);
    }
  }
  return options;
}

volatile std::sig_atomic_t stop_requested = 0;

int run(const Options& options) {
  using Clock = std::chrono::steady_clock;
  shoal::transport::RelayServer relay(options.server);
  // Tools and tests read this line to learn the port (with --port 0).
  fmt::print("shoal-relay: serving on {} (max {} sessions)\n", to_string(relay.address()),
             options.server.max_sessions);
  if (options.audit) {
    fmt::print("shoal-relay: --audit needs the game's simulation adapter, which the generic relay "
               "cannot know; a game builds an auditing relay with shoal::AuditingRelay "
               "(shoal/audit.hpp) and its world factory. Forwarding without auditing\n");
  }
  std::fflush(stdout);

  std::signal(SIGINT, [](int) { stop_requested = 1; });
  std::signal(SIGTERM, [](int) { stop_requested = 1; });
  const auto interval = std::chrono::duration<double>(options.stats_interval_s);
  auto next_stats = Clock::now() + std::chrono::duration_cast<Clock::duration>(interval);
  while (stop_requested == 0) {
    relay.wait(50);
    const auto now = Clock::now();  // the round's one clock read: the relay's timing and the stats'
    relay.poll(std::chrono::duration_cast<std::chrono::microseconds>(now.time_since_epoch()).count());
    if (options.stats_interval_s > 0 && now >= next_stats) {
      next_stats += std::chrono::duration_cast<Clock::duration>(interval);
      for (const auto& session : relay.session_stats()) {
        fmt::print("shoal-relay: {}\n", shoal::transport::format_stats_line(session));
      }
      std::fflush(stdout);
    }
  }
  const auto& counters = relay.counters();
  fmt::print("shoal-relay: stopping; {} joins accepted, {} refused, {} malformed messages dropped\n",
             counters.joins_accepted, counters.joins_refused, counters.malformed.total());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return shoal::tools::run_tool("shoal-relay", kUsage, argc, argv, parse, run);
}
