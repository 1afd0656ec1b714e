// SPDX-License-Identifier: MIT
#include "relay_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
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
  return (std::filesystem::read_symlink("/proc/self/exe").parent_path() / "shoal-relay").string();
}

RelayProcess::RelayProcess(std::string exe, std::uint16_t port) : exe_(std::move(exe)), port_(port) { start(); }

RelayProcess::~RelayProcess() { stop(); }

void RelayProcess::restart() {
  stop();
  start();
}

void RelayProcess::start() {
  int out[2];
  if (::pipe2(out, O_CLOEXEC) != 0) throw std::runtime_error(fmt::format("cannot create a pipe: {}", std::strerror(errno)));
  const std::string port = std::to_string(port_);
  // --stats-interval 0: nothing more to say after "serving on", so its closed pipe never matters.
  std::vector<const char*> argv = {exe_.c_str(), "--bind", "127.0.0.1", "--port", port.c_str(),
                                   "--stats-interval", "0", nullptr};
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error(fmt::format("cannot start shoal-relay: {}", std::strerror(errno)));
  if (pid == 0) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);  // it dies with the launcher
    if (::getppid() != parent) ::_exit(1);
    ::dup2(out[1], STDOUT_FILENO);
    ::execv(argv[0], const_cast<char* const*>(argv.data()));
    ::_exit(127);
  }
  ::close(out[1]);
  pid_ = pid;
  // Ready once it says where it serves.
  std::string said;
  const auto deadline = std::chrono::steady_clock::now() + kReadyWait;
  auto has_line = [&] {
    const std::size_t at = said.find("serving on");
    return at != std::string::npos && said.find('\n', at) != std::string::npos;
  };
  while (!has_line() && std::chrono::steady_clock::now() < deadline) {
    pollfd p{out[0], POLLIN, 0};
    if (::poll(&p, 1, 100) <= 0) continue;
    char buffer[512];
    const ssize_t size = ::read(out[0], buffer, sizeof buffer);
    if (size <= 0) break;
    said.append(buffer, static_cast<std::size_t>(size));
  }
  ::close(out[0]);
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

void RelayProcess::stop() {
  if (pid_ < 0) return;
  ::kill(pid_, SIGKILL);
  int status = 0;
  ::waitpid(pid_, &status, 0);
  pid_ = -1;
}

}  // namespace lan_match
