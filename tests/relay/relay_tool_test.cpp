// SPDX-License-Identifier: MIT
// shoal-relay as a program: it serves, prints per-session statistics each interval, stops
// cleanly on SIGTERM and SIGINT, and rejects bad flags with exit code 2.
#include <doctest/doctest.h>

#include <csignal>

#include "relay_harness.hpp"
#include "transport/child_process.hpp"

using namespace shoal;
using namespace shoal::test;

namespace {
const std::string kRelay = std::string(SHOAL_BIN_DIR) + "/shoal-relay";
}

TEST_CASE("shoal-relay serves a session, prints its statistics line, and stops on SIGTERM and SIGINT") {
  for (const int signal : {SIGTERM, SIGINT}) {
    ChildProcess relay({kRelay, "--port", "0", "--bind", "127.0.0.1", "--stats-interval", "0.2", "--audit"});
    REQUIRE(relay.started());
    const auto serving = relay.read_line(std::chrono::seconds(10));
    REQUIRE(serving);
    const auto colon = serving->rfind(':', serving->find(" (max"));
    REQUIRE(colon != std::string::npos);
    const auto port = static_cast<std::uint16_t>(std::stoi(serving->substr(colon + 1)));
    const auto audit = relay.read_line(std::chrono::seconds(10));
    REQUIRE(audit);
    CHECK(audit->find("--audit needs the game's simulation adapter") != std::string::npos);
    CHECK(audit->find("shoal::AuditingRelay") != std::string::npos);

    Client member = make_client(client_config({"127.0.0.1", port}, "tool-session"));
    bool stats_seen = false;
    const auto deadline = Clock::now() + std::chrono::seconds(10);
    for (int i = 0; i < 1000 && !stats_seen && Clock::now() < deadline; ++i) {
      member.drain();
      if (const auto line = relay.read_line(std::chrono::milliseconds(20))) {
        stats_seen = line->find("session=tool-session code=" + relay_session_code("tool-session") +
                                " members=1") != std::string::npos;
      }
    }
    CHECK(stats_seen);
    CHECK(relay.finish(signal, std::chrono::seconds(10)) == 0);
  }
}

TEST_CASE("shoal-relay rejects bad flags with a clear message and exit code 2") {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases{
      {{"--port", "70000"}, "--port '70000' is not valid: expected a port"},
      {{"--max-sessions", "0"}, "--max-sessions '0' is not valid"},
      {{"--stats-interval", "soon"}, "--stats-interval 'soon' is not valid"},
      {{"--frobnicate"}, "unknown flag '--frobnicate'"},
      {{"--port"}, "--port needs a value"},
  };
  for (const auto& [args, message] : cases) {
    std::vector<std::string> argv{kRelay};
    argv.insert(argv.end(), args.begin(), args.end());
    ChildProcess relay(argv);
    REQUIRE(relay.started());
    CHECK(relay.finish(0, std::chrono::seconds(10)) == 2);
    const std::string& err = relay.stderr_text();
    INFO("stderr: " << err);
    CHECK(err.find(message) != std::string::npos);
    CHECK(err.find("usage: shoal-relay") != std::string::npos);
  }
}
