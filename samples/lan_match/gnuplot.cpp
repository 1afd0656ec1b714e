// SPDX-License-Identifier: MIT
#include "gnuplot.hpp"

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <stdexcept>
#include <thread>

#include <fmt/format.h>

extern char** environ;

namespace lan_match {

void run_gnuplot(const std::string& script, const std::string& png_path) {
  char script_path[] = "/tmp/shoal-lan-match-plot-XXXXXX";
  const int fd = ::mkstemp(script_path);
  if (fd < 0) throw std::runtime_error(fmt::format("cannot create a gnuplot script: {}", std::strerror(errno)));
  const bool written = ::write(fd, script.data(), script.size()) == static_cast<ssize_t>(script.size());
  ::close(fd);
  if (!written) throw std::runtime_error("cannot write the gnuplot script");

  char gnuplot[] = "gnuplot";
  char* argv[] = {gnuplot, script_path, nullptr};
  pid_t pid = 0;
  const int spawn_error = ::posix_spawnp(&pid, gnuplot, nullptr, nullptr, argv, environ);
  if (spawn_error != 0) {
    ::unlink(script_path);
    throw std::runtime_error(fmt::format("cannot run gnuplot ({}): install it (Debian: apt-get install gnuplot-nox)",
                                         std::strerror(spawn_error)));
  }
  int status = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  pid_t done = 0;
  while ((done = ::waitpid(pid, &status, WNOHANG)) == 0 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));  // polling a child process, not syncing
  }
  if (done == 0) {
    ::kill(pid, SIGKILL);
    ::waitpid(pid, &status, 0);
  }
  ::unlink(script_path);
  if (done == 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    throw std::runtime_error(fmt::format("gnuplot could not draw '{}' (see its message above)", png_path));
  }
}

}  // namespace lan_match
