// SPDX-License-Identifier: MIT
// Runs a built program as a child with its stdout and stderr captured, for tool tests.
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace shoal::test {

class ChildProcess {
 public:
  explicit ChildProcess(std::vector<std::string> argv) {
    int out[2], err[2];
    if (::pipe2(out, O_CLOEXEC) != 0 || ::pipe2(err, O_CLOEXEC) != 0) return;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, out[1], 1);
    posix_spawn_file_actions_adddup2(&actions, err[1], 2);
    std::vector<char*> args;
    for (auto& a : argv) args.push_back(a.data());
    args.push_back(nullptr);
    if (posix_spawn(&pid_, args[0], &actions, nullptr, args.data(), environ) != 0) pid_ = -1;
    posix_spawn_file_actions_destroy(&actions);
    ::close(out[1]);
    ::close(err[1]);
    out_ = out[0];
    err_ = err[0];
  }
  ~ChildProcess() {
    if (pid_ > 0 && !exit_code_) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
    if (out_ >= 0) ::close(out_);
    if (err_ >= 0) ::close(err_);
  }
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  bool started() const { return pid_ > 0; }

  /// The first line the child prints on stdout, waiting at most `deadline`.
  std::optional<std::string> read_line(std::chrono::milliseconds deadline) {
    const auto until = std::chrono::steady_clock::now() + deadline;
    std::string line;
    while (std::chrono::steady_clock::now() < until) {
      pollfd fd{out_, POLLIN, 0};
      if (::poll(&fd, 1, 50) <= 0) continue;
      char c = 0;
      if (::read(out_, &c, 1) != 1) return std::nullopt;
      if (c == '\n') return line;
      line += c;
    }
    return std::nullopt;
  }

  /// Sends `signal` (0 = none) and waits up to `deadline` for the exit code.
  std::optional<int> finish(int signal, std::chrono::milliseconds deadline) {
    if (signal != 0) ::kill(pid_, signal);
    const auto until = std::chrono::steady_clock::now() + deadline;
    for (int i = 0; i < 100'000 && std::chrono::steady_clock::now() < until; ++i) {
      int status = 0;
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        exit_code_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        return exit_code_;
      }
      pollfd fd{err_, POLLIN, 0};  // also drains stderr so the child never blocks on it
      if (::poll(&fd, 1, 10) > 0) drain_stderr();
    }
    return std::nullopt;
  }

  /// Everything the child wrote to stderr (complete once it has exited).
  const std::string& stderr_text() {
    drain_stderr();
    return stderr_;
  }

 private:
  void drain_stderr() {
    const int flags = ::fcntl(err_, F_GETFL);
    ::fcntl(err_, F_SETFL, flags | O_NONBLOCK);
    char buffer[512];
    for (ssize_t n; (n = ::read(err_, buffer, sizeof buffer)) > 0;) stderr_.append(buffer, static_cast<std::size_t>(n));
  }

  pid_t pid_ = -1;
  int out_ = -1;
  int err_ = -1;
  std::optional<int> exit_code_;
  std::string stderr_;
};

}  // namespace shoal::test
