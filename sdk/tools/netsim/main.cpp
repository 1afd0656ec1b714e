// SPDX-License-Identifier: MIT
// shoal-netsim: a standalone conditioning UDP proxy. Point clients at --listen instead of the
// real server (--target); each client gets its own path through the seeded link conditioner,
// both directions. Built on the same ConditionedRelay the ENet transport uses.
#include <csignal>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "core/steady_now.hpp"
#include "../tool_cli.hpp"

#include "transport/conditioned_relay.hpp"

namespace {

using shoal::tools::UsageError;
using shoal::tools::parse_number;
using shoal::tools::parse_port;

using shoal::transport::ConditionedRelay;
using shoal::transport::Endpoint;

constexpr std::string_view kUsage =
    "usage: shoal-netsim --listen PORT --target HOST:PORT [--latency-ms L] [--jitter-ms J]\n"
    "                    [--loss P] [--duplicate P] [--reorder P] [--bandwidth BYTES_PER_S]\n"
    "                    [--seed S] [--seconds N]\n"
    "  Forwards UDP between clients of 127.0.0.1:PORT (0 = any free port) and the target,\n"
    "  impairing both directions alike. P is a fraction 0..1; --seconds 0 runs until killed.\n";

struct Options {
  std::uint16_t listen_port = 0;
  bool has_listen = false;
  shoal::Address target;
  bool has_target = false;
  shoal::LinkConditions conditions;
  std::uint64_t seed = 1;
  double seconds = 0;
};

Options parse(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string_view flag = argv[i];
    if (flag == "--help" || flag == "-h") throw UsageError("");
    if (i + 1 >= argc) throw UsageError(fmt::format("{} needs a value", flag));
    const std::string value = argv[++i];
    if (flag == "--listen") {
      options.listen_port = parse_port(flag, value, true);
      options.has_listen = true;
    } else if (flag == "--target") {
      const auto colon = value.rfind(':');
      if (colon == std::string::npos || colon == 0) {
        throw UsageError(fmt::format("--target '{}' is not valid: expected HOST:PORT", value));
      }
      options.target = {value.substr(0, colon), parse_port(flag, value.substr(colon + 1), false)};
      options.has_target = true;
    } else if (flag == "--latency-ms") {
      options.conditions.latency_ms = static_cast<float>(parse_number(flag, value, 0, 60'000, "milliseconds 0..60000"));
    } else if (flag == "--jitter-ms") {
      options.conditions.jitter_ms = static_cast<float>(parse_number(flag, value, 0, 60'000, "milliseconds 0..60000"));
    } else if (flag == "--loss") {
      options.conditions.loss = static_cast<float>(parse_number(flag, value, 0, 1, "a fraction 0..1"));
    } else if (flag == "--duplicate") {
      options.conditions.duplicate = static_cast<float>(parse_number(flag, value, 0, 1, "a fraction 0..1"));
    } else if (flag == "--reorder") {
      options.conditions.reorder = static_cast<float>(parse_number(flag, value, 0, 1, "a fraction 0..1"));
    } else if (flag == "--bandwidth") {
      options.conditions.bandwidth_bytes_per_s = static_cast<std::uint64_t>(
          parse_number(flag, value, 0, 1e12, "bytes per second, 0 = unlimited"));
    } else if (flag == "--seed") {
      options.seed = static_cast<std::uint64_t>(parse_number(flag, value, 0, 9e15, "a whole number"));
    } else if (flag == "--seconds") {
      options.seconds = parse_number(flag, value, 0, 1e9, "seconds, 0 = until killed");
    } else {
      throw UsageError(fmt::format("unknown flag '{}'", flag));
    }
  }
  if (!options.has_listen) throw UsageError("--listen PORT is required");
  if (!options.has_target) throw UsageError("--target HOST:PORT is required");
  return options;
}

volatile std::sig_atomic_t stop_requested = 0;

int run(const Options& options) {
  shoal::transport::RelayConfig config;
  config.public_bind = {0x7F000001, options.listen_port};
  config.inner = shoal::transport::resolve(options.target);
  config.pipe_bind = {0, 0};
  config.max_pipes = 256;
  config.conditions.outbound = options.conditions;
  config.conditions.inbound = options.conditions;
  config.conditions.seed = options.seed;
  ConditionedRelay relay(config);

  // Tools and tests read this line to learn the port (with --listen 0).
  fmt::print("shoal-netsim: listening on {} -> {}\n",
             to_string(shoal::transport::to_address(relay.public_endpoint())),
             to_string(options.target));
  std::fflush(stdout);

  std::signal(SIGINT, [](int) { stop_requested = 1; });
  std::signal(SIGTERM, [](int) { stop_requested = 1; });
  const std::int64_t start = shoal::core::steady_now_us();
  const std::int64_t end = options.seconds > 0
                               ? start + static_cast<std::int64_t>(options.seconds * 1e6)
                               : std::numeric_limits<std::int64_t>::max();
  while (stop_requested == 0 && shoal::core::steady_now_us() < end) {
    relay.wait(50, shoal::transport::platform::kNoSocket);
    relay.pump();
  }
  fmt::print("shoal-netsim: {} clients, {} datagrams from unknown sources dropped\n",
             relay.pipe_count(), relay.counters().dropped_unknown_source);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return shoal::tools::run_tool("shoal-netsim", kUsage, argc, argv, parse, run);
}
