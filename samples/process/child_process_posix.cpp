// SPDX-License-Identifier: MIT
// process.hpp on POSIX: fork and exec, pipes, poll, waitpid.
#include "process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string_view>

#include <fmt/format.h>

extern char** environ;

namespace shoal::samples {
namespace {

// A pipe whose ends are not inherited by children started later.
void open_pipe(int ends[2]) {
  if (::pipe(ends) != 0) throw std::runtime_error(fmt::format("cannot create a pipe: {}", std::strerror(errno)));
  ::fcntl(ends[0], F_SETFD, FD_CLOEXEC);
  ::fcntl(ends[1], F_SETFD, FD_CLOEXEC);
}

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

ExitStatus status_of(int status) {
  if (WIFSIGNALED(status)) return {0, true, WTERMSIG(status)};
  return {WEXITSTATUS(status), false, 0};
}

}  // namespace

struct ChildProcess::Native {
  pid_t pid = -1;
  int input = -1;   // its stdin, our end
  int output = -1;  // its stdout, our end
  std::optional<ExitStatus> exited;
};

ProcessId current_process_id() { return ::getpid(); }

std::string current_executable() {
#ifdef __linux__
  return std::filesystem::read_symlink("/proc/self/exe").string();
#else
  throw std::runtime_error("this program cannot find its own executable on this system");
#endif
}

std::int64_t process_cpu_ms() {
  rusage usage{};
  if (::getrusage(RUSAGE_SELF, &usage) != 0) return 0;
  auto ms = [](const timeval& t) { return std::int64_t{t.tv_sec} * 1000 + t.tv_usec / 1000; };
  return ms(usage.ru_utime) + ms(usage.ru_stime);
}

std::int64_t resident_kb(ProcessId process) {
  std::ifstream status(fmt::format("/proc/{}/status", process));
  for (std::string line; std::getline(status, line);) {
    if (line.starts_with("VmRSS:")) return std::stoll(line.substr(6));  // "VmRSS:   12345 kB"
  }
  return 0;
}

std::optional<std::size_t> heap_bytes_in_use() {
#ifdef __GLIBC__
  return ::mallinfo2().uordblks;
#else
  return std::nullopt;
#endif
}

std::string ExitStatus::describe() const {
  if (!killed) return fmt::format("exited with code {}", code);
  if (signal == 0) return "was killed";
  return fmt::format("was killed by signal {} ({})", signal, ::strsignal(signal));
}

ChildProcess::ChildProcess(const std::vector<std::string>& argv, const ChildOptions& options) : native_(new Native) {
  int in_pipe[2] = {-1, -1}, out_pipe[2] = {-1, -1};
  try {
    if (options.pipe_input) open_pipe(in_pipe);
    if (options.pipe_output) open_pipe(out_pipe);
  } catch (...) {
    close_fd(in_pipe[0]);
    close_fd(in_pipe[1]);
    delete native_;
    throw;
  }
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  // Built before fork: the child may only call async-signal-safe functions until exec.
  std::vector<std::string> environment;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string_view entry(*e);
    const std::string_view name = entry.substr(0, entry.find('='));
    const auto named = [&](const auto& n) { return name == n; };
    if (std::any_of(options.unset_environment.begin(), options.unset_environment.end(), named)) continue;
    if (std::any_of(options.set_environment.begin(), options.set_environment.end(),
                    [&](const auto& pair) { return name == pair.first; })) {
      continue;
    }
    environment.emplace_back(entry);
  }
  for (const auto& [name, value] : options.set_environment) environment.push_back(name + "=" + value);
  std::vector<char*> envp;
  for (std::string& e : environment) envp.push_back(e.data());
  envp.push_back(nullptr);

  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) {
    const int error = errno;
    for (int* fd : {&in_pipe[0], &in_pipe[1], &out_pipe[0], &out_pipe[1]}) close_fd(*fd);
    delete native_;
    throw std::runtime_error(fmt::format("cannot start {}: {}", argv.front(), std::strerror(error)));
  }
  if (pid == 0) {
#ifdef __linux__
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);  // it dies with its parent
    if (::getppid() != parent) ::_exit(1);
#endif
    if (in_pipe[0] >= 0) ::dup2(in_pipe[0], STDIN_FILENO);
    if (out_pipe[1] >= 0) ::dup2(out_pipe[1], STDOUT_FILENO);
    if (options.search_path) {
      environ = envp.data();
      ::execvp(args[0], args.data());
    } else {
      ::execve(args[0], args.data(), envp.data());
    }
    ::_exit(127);
  }
  (void)parent;
  close_fd(in_pipe[0]);
  close_fd(out_pipe[1]);
  native_->pid = pid;
  native_->input = in_pipe[1];
  native_->output = out_pipe[0];
}

ChildProcess::~ChildProcess() {
  if (native_ == nullptr) return;
  if (native_->pid > 0 && !native_->exited) kill();
  close_input();
  close_output();
  delete native_;
}

ChildProcess::ChildProcess(ChildProcess&& other) noexcept : native_(std::exchange(other.native_, nullptr)) {}

ChildProcess& ChildProcess::operator=(ChildProcess&& other) noexcept {
  if (this != &other) {
    ChildProcess gone(std::move(*this));
    native_ = std::exchange(other.native_, nullptr);
  }
  return *this;
}

ProcessId ChildProcess::id() const { return native_->pid; }

bool ChildProcess::write(std::string_view text) {
  if (native_->input < 0) return false;
  // The launcher ignores SIGPIPE: a child that exited makes this fail, not kill us.
  return ::write(native_->input, text.data(), text.size()) == static_cast<ssize_t>(text.size());
}

void ChildProcess::close_input() { close_fd(native_->input); }

bool ChildProcess::read_available(std::string& out) {
  if (native_->output < 0) return false;
  pollfd ready{native_->output, POLLIN, 0};
  if (::poll(&ready, 1, 0) <= 0) return true;
  char buffer[65536];
  const ssize_t size = ::read(native_->output, buffer, sizeof buffer);
  if (size <= 0) {
    close_output();
    return false;
  }
  out.append(buffer, static_cast<std::size_t>(size));
  return true;
}

void ChildProcess::close_output() { close_fd(native_->output); }

bool ChildProcess::output_open() const { return native_->output >= 0; }

std::optional<ExitStatus> ChildProcess::try_wait() {
  if (!native_->exited && native_->pid > 0) {
    int status = 0;
    if (::waitpid(native_->pid, &status, WNOHANG) == native_->pid) native_->exited = status_of(status);
  }
  return native_->exited;
}

ExitStatus ChildProcess::kill() {
  if (!native_->exited && native_->pid > 0) {
    ::kill(native_->pid, SIGKILL);
    int status = 0;
    ::waitpid(native_->pid, &status, 0);  // SIGKILL cannot be caught: this returns at once
    native_->exited = status_of(status);
  }
  return native_->exited.value_or(ExitStatus{0, true, SIGKILL});
}

void wait_for_output(std::span<ChildProcess* const> children, int timeout_ms) {
  std::vector<pollfd> fds;
  for (ChildProcess* c : children) {
    if (c->output_open()) fds.push_back({c->native_->output, POLLIN, 0});
  }
  if (fds.empty()) return;
  ::poll(fds.data(), fds.size(), timeout_ms);
}

struct ParentInput::Native {};

ParentInput::ParentInput() : native_(nullptr) {}
ParentInput::~ParentInput() = default;

bool ParentInput::read_available(std::string& out) {
  pollfd input{STDIN_FILENO, POLLIN, 0};
  if (::poll(&input, 1, 0) <= 0) return true;
  char buffer[256];
  const ssize_t size = ::read(STDIN_FILENO, buffer, sizeof buffer);
  if (size <= 0) return false;
  out.append(buffer, static_cast<std::size_t>(size));
  return true;
}

void use_binary_stdout() {}  // POSIX writes what it is given

}  // namespace shoal::samples
