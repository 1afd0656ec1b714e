// SPDX-License-Identifier: MIT
// The samples' one way to start and watch other processes, and to learn about their own:
// child_process_posix.cpp (fork and exec) and child_process_windows.cpp (CreateProcess) are
// its two sides. shoal-lan-match starts its peers, its relay and gnuplot through it; a peer
// reads its launcher's commands through ParentInput.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace shoal::samples {

using ProcessId = std::int64_t;

/// This process: its id, its executable's full path, the CPU time it used (user + system, ms).
ProcessId current_process_id();
std::string current_executable();
std::int64_t process_cpu_ms();
/// Resident memory of a running process in kB; 0 when it is gone or cannot be read.
std::int64_t resident_kb(ProcessId process);
/// Bytes this process's heap holds in allocations now (glibc: mallinfo2); nullopt where the
/// C library does not tell (Windows).
std::optional<std::size_t> heap_bytes_in_use();

struct ChildOptions {
  bool pipe_input = false;   ///< write() reaches its stdin (else it shares ours)
  bool pipe_output = false;  ///< read_available() gets its stdout (else it shares ours)
  bool search_path = false;  ///< argv[0] is looked up in PATH
  std::vector<std::pair<std::string, std::string>> set_environment;  ///< added or replaced
  std::vector<std::string> unset_environment;                          ///< left out
};

/// How a child ended.
struct ExitStatus {
  int code = 0;           ///< its exit code (when !killed)
  bool killed = false;    ///< ended by a signal or by kill()
  int signal = 0;         ///< POSIX: the signal, when killed
  std::string describe() const;  ///< "exited with code 3", "was killed by signal 9 (Killed)"
};

/// A started child process. It dies with this process where the system allows (Linux: a
/// parent-death signal; Windows: a job that kills its processes when the launcher's ends), and
/// is killed by the destructor if still running.
class ChildProcess {
 public:
  /// Throws std::runtime_error naming the program when it cannot be started.
  ChildProcess(const std::vector<std::string>& argv, const ChildOptions& options);
  ~ChildProcess();
  ChildProcess(ChildProcess&& other) noexcept;
  ChildProcess& operator=(ChildProcess&& other) noexcept;
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  ProcessId id() const;
  /// Writes to its stdin; false when it is closed (the child exited).
  bool write(std::string_view text);
  void close_input();
  /// Appends what its stdout holds now, without blocking; false once it is closed and empty.
  bool read_available(std::string& out);
  void close_output();
  bool output_open() const;
  /// Its exit, if it has exited (reaps it); nullopt while it runs.
  std::optional<ExitStatus> try_wait();
  /// Kills it at once (SIGKILL / TerminateProcess) and reaps it.
  ExitStatus kill();

  struct Native;  // each side's handles

 private:
  friend void wait_for_output(std::span<ChildProcess* const> children, int timeout_ms);
  Native* native_;
};

/// Blocks up to timeout_ms until one of `children` has output to read or closed it.
void wait_for_output(std::span<ChildProcess* const> children, int timeout_ms);

/// What this process's parent writes to its stdin, read without blocking.
class ParentInput {
 public:
  ParentInput();
  ~ParentInput();
  ParentInput(const ParentInput&) = delete;
  ParentInput& operator=(const ParentInput&) = delete;
  /// Appends what arrived; false once stdin is closed and everything was read.
  bool read_available(std::string& out);

  struct Native;

 private:
  Native* native_;
};

/// Lines written to stdout arrive as written ("\n", never "\r\n"), so a parent on any system
/// reads them alike. Call before printing.
void use_binary_stdout();

}  // namespace shoal::samples
