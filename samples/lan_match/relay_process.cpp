// SPDX-License-Identifier: MIT
#include "relay_process.hpp"

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

namespace lan_match {
namespace {

constexpr auto kReadyWait = std::chrono::seconds(10);  // sanitized builds start slowly

}  // namespace

std::string sibling_relay_path() {
  const std::filesystem::path self = shoal::samples::current_executable();
  return (self.parent_path() / ("shoal-relay" + self.extension().string())).string();
}

RelayProcess::RelayProcess(std::string exe, std::uint16_t port) : exe_(std::move(exe)), port_(port) { start(); }

RelayProcess::~RelayProcess() { stop(); }

void RelayProcess::restart() {
  stop();
  start();
}

void RelayProcess::start() {
  // --stats-interval 0: nothing more to say after "serving on", so its closed pipe never matters.
  shoal::samples::ChildOptions launch;
  launch.pipe_output = true;
  process_.emplace(std::vector<std::string>{exe_, "--bind", "127.0.0.1", "--port", std::to_string(port_),
                                            "--stats-interval", "0"},
                   launch);
  // Ready once it says where it serves.
  std::string said;
  const auto deadline = std::chrono::steady_clock::now() + kReadyWait;
  auto has_line = [&] {
    const std::size_t at = said.find("serving on");
    return at != std::string::npos && said.find('\n', at) != std::string::npos;
  };
  shoal::samples::ChildProcess* relay = &*process_;
  while (!has_line() && std::chrono::steady_clock::now() < deadline) {
    shoal::samples::wait_for_output({&relay, 1}, 100);
    if (!process_->read_available(said)) break;
  }
  process_->close_output();
  // "shoal-relay: serving on 127.0.0.1:PORT (max ...": the port, when any free one was asked for.
  const std::size_t serving = said.find("serving on");
  const std::size_t colon = serving == std::string::npos ? serving : said.find(':', serving);
  const int served = colon == std::string::npos ? 0 : std::atoi(said.c_str() + colon + 1);
  if (served <= 0 || served > 65535) {
    stop();
    throw std::runtime_error(fmt::format("{} did not start on port {}: '{}'", exe_, port_, said));
  }
  port_ = static_cast<std::uint16_t>(served);
}

void RelayProcess::stop() { process_.reset(); }  // killed and reaped

}  // namespace lan_match
