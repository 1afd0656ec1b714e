// SPDX-License-Identifier: MIT
// process.hpp on Windows: CreateProcess with anonymous pipes, read without blocking through
// PeekNamedPipe; a job object kills the children when the launcher ends, as Linux's
// parent-death signal does. A peer reads its parent's commands on a thread of its own: a
// blocking ReadFile works on every kind of stdin (a pipe of a Windows parent, or one of a
// Linux parent through wine), where peeking does not.
#include "process.hpp"

#include <windows.h>
#include <psapi.h>
#include <fcntl.h>
#include <io.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <stdexcept>
#include <string_view>
#include <thread>

#include <fmt/format.h>

namespace shoal::samples {
namespace {

std::string error_text(DWORD code) {
  char* text = nullptr;
  const DWORD length = ::FormatMessageA(
      FORMAT_MESSAGE_ALLOCATE_BUFFER | FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS, nullptr, code, 0,
      reinterpret_cast<char*>(&text), 0, nullptr);
  std::string message = length > 0 && text != nullptr ? std::string(text, length) : "error";
  if (text != nullptr) ::LocalFree(text);
  while (!message.empty() && (message.back() == '\n' || message.back() == '\r' || message.back() == '.')) message.pop_back();
  return fmt::format("{} ({})", message, code);
}

void close_handle(HANDLE& handle) {
  if (handle != nullptr && handle != INVALID_HANDLE_VALUE) ::CloseHandle(handle);
  handle = nullptr;
}

// One argument as the C runtime's parser reads it back: quotes around anything with blanks or
// quotes, backslashes doubled before a quote.
std::string quoted(const std::string& argument) {
  if (!argument.empty() && argument.find_first_of(" \t\n\v\"") == std::string::npos) return argument;
  std::string out = "\"";
  std::size_t backslashes = 0;
  for (const char c : argument) {
    if (c == '\\') {
      ++backslashes;
      continue;
    }
    out.append(c == '"' ? 2 * backslashes + 1 : backslashes, '\\');
    backslashes = 0;
    out += c;
  }
  out.append(2 * backslashes, '\\');
  return out + "\"";
}

// The environment block for a child: ours, less the names unset or replaced, plus the set ones.
std::string environment_block(const ChildOptions& options) {
  std::string block;
  char* ours = ::GetEnvironmentStringsA();
  for (const char* entry = ours; entry != nullptr && *entry != '\0'; entry += std::strlen(entry) + 1) {
    const std::string_view text(entry);
    const std::string_view name = text.substr(0, text.find('=', 1));  // "=C:=C:\..." entries start with '='
    const bool unset = std::any_of(options.unset_environment.begin(), options.unset_environment.end(),
                                   [&](const std::string& n) { return name == n; });
    const bool replaced = std::any_of(options.set_environment.begin(), options.set_environment.end(),
                                      [&](const auto& pair) { return name == pair.first; });
    if (!unset && !replaced) block.append(text).push_back('\0');
  }
  if (ours != nullptr) ::FreeEnvironmentStringsA(ours);
  for (const auto& [name, value] : options.set_environment) block.append(name + "=" + value).push_back('\0');
  block.push_back('\0');
  return block;
}

// The job every child joins: closed (so its processes killed) when this process ends.
HANDLE children_job() {
  static const HANDLE job = [] {
    HANDLE created = ::CreateJobObjectA(nullptr, nullptr);
    JOBOBJECT_EXTENDED_LIMIT_INFORMATION limits{};
    limits.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE;
    if (created != nullptr) ::SetInformationJobObject(created, JobObjectExtendedLimitInformation, &limits, sizeof limits);
    return created;
  }();
  return job;
}

// A pipe whose `child_end` (0: read, 1: write) alone is inherited.
void open_pipe(HANDLE ends[2], int child_end) {
  SECURITY_ATTRIBUTES inherit{sizeof(SECURITY_ATTRIBUTES), nullptr, TRUE};
  if (!::CreatePipe(&ends[0], &ends[1], &inherit, 0)) {
    throw std::runtime_error("cannot create a pipe: " + error_text(::GetLastError()));
  }
  ::SetHandleInformation(ends[1 - child_end], HANDLE_FLAG_INHERIT, 0);
}

}  // namespace

struct ChildProcess::Native {
  HANDLE process = nullptr;
  DWORD id = 0;
  HANDLE input = nullptr;   // its stdin, our end
  HANDLE output = nullptr;  // its stdout, our end
  std::optional<ExitStatus> exited;
};

ProcessId current_process_id() { return ::GetCurrentProcessId(); }

std::string current_executable() {
  std::string path(MAX_PATH, '\0');
  for (;;) {
    const DWORD length = ::GetModuleFileNameA(nullptr, path.data(), static_cast<DWORD>(path.size()));
    if (length == 0) throw std::runtime_error("cannot find this program's path: " + error_text(::GetLastError()));
    if (length < path.size()) return path.substr(0, length);
    path.resize(path.size() * 2);
  }
}

std::int64_t process_cpu_ms() {
  FILETIME created, exited, kernel, user;
  if (!::GetProcessTimes(::GetCurrentProcess(), &created, &exited, &kernel, &user)) return 0;
  auto ms = [](const FILETIME& t) {  // 100 ns units
    return static_cast<std::int64_t>((std::uint64_t{t.dwHighDateTime} << 32 | t.dwLowDateTime) / 10'000);
  };
  return ms(kernel) + ms(user);
}

std::int64_t resident_kb(ProcessId process) {
  HANDLE handle = ::OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, FALSE, static_cast<DWORD>(process));
  if (handle == nullptr) return 0;
  PROCESS_MEMORY_COUNTERS counters{};
  const bool read = ::K32GetProcessMemoryInfo(handle, &counters, sizeof counters) != 0;
  ::CloseHandle(handle);
  return read ? static_cast<std::int64_t>(counters.WorkingSetSize / 1024) : 0;
}

std::optional<std::size_t> heap_bytes_in_use() { return std::nullopt; }

std::string ExitStatus::describe() const {
  return killed ? std::string("was killed") : fmt::format("exited with code {}", code);
}

ChildProcess::ChildProcess(const std::vector<std::string>& argv, const ChildOptions& options) : native_(new Native) {
  HANDLE in_pipe[2] = {nullptr, nullptr}, out_pipe[2] = {nullptr, nullptr};
  try {
    if (options.pipe_input) open_pipe(in_pipe, 0);
    if (options.pipe_output) open_pipe(out_pipe, 1);
  } catch (...) {
    close_handle(in_pipe[0]);
    close_handle(in_pipe[1]);
    delete native_;
    throw;
  }
  std::string command_line;
  for (const std::string& a : argv) command_line += (command_line.empty() ? "" : " ") + quoted(a);
  std::string environment = environment_block(options);
  STARTUPINFOA startup{};
  startup.cb = sizeof startup;
  startup.dwFlags = STARTF_USESTDHANDLES;
  startup.hStdInput = options.pipe_input ? in_pipe[0] : ::GetStdHandle(STD_INPUT_HANDLE);
  startup.hStdOutput = options.pipe_output ? out_pipe[1] : ::GetStdHandle(STD_OUTPUT_HANDLE);
  startup.hStdError = ::GetStdHandle(STD_ERROR_HANDLE);
  PROCESS_INFORMATION started{};
  // Suspended until it is in the job, so nothing it starts escapes the job either.
  const BOOL ok = ::CreateProcessA(options.search_path ? nullptr : argv.front().c_str(), command_line.data(), nullptr,
                                   nullptr, TRUE, CREATE_SUSPENDED, environment.data(), nullptr, &startup, &started);
  const DWORD error = ::GetLastError();
  close_handle(in_pipe[0]);
  close_handle(out_pipe[1]);
  if (!ok) {
    close_handle(in_pipe[1]);
    close_handle(out_pipe[0]);
    delete native_;
    throw std::runtime_error(fmt::format("cannot start {}: {}", argv.front(), error_text(error)));
  }
  if (HANDLE job = children_job(); job != nullptr) ::AssignProcessToJobObject(job, started.hProcess);
  ::ResumeThread(started.hThread);
  ::CloseHandle(started.hThread);
  native_->process = started.hProcess;
  native_->id = started.dwProcessId;
  native_->input = in_pipe[1];
  native_->output = out_pipe[0];
}

ChildProcess::~ChildProcess() {
  if (native_ == nullptr) return;
  if (native_->process != nullptr && !native_->exited) kill();
  close_input();
  close_output();
  close_handle(native_->process);
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

ProcessId ChildProcess::id() const { return native_->id; }

bool ChildProcess::write(std::string_view text) {
  if (native_->input == nullptr) return false;
  DWORD written = 0;
  return ::WriteFile(native_->input, text.data(), static_cast<DWORD>(text.size()), &written, nullptr) &&
         written == text.size();
}

void ChildProcess::close_input() { close_handle(native_->input); }

bool ChildProcess::read_available(std::string& out) {
  if (native_->output == nullptr) return false;
  DWORD waiting = 0;
  if (!::PeekNamedPipe(native_->output, nullptr, 0, nullptr, &waiting, nullptr)) {  // closed
    close_output();
    return false;
  }
  while (waiting > 0) {
    char buffer[65536];
    DWORD size = 0;
    if (!::ReadFile(native_->output, buffer, std::min<DWORD>(waiting, sizeof buffer), &size, nullptr) || size == 0) {
      close_output();
      return false;
    }
    out.append(buffer, size);
    waiting -= size;
  }
  return true;
}

void ChildProcess::close_output() { close_handle(native_->output); }

bool ChildProcess::output_open() const { return native_->output != nullptr; }

std::optional<ExitStatus> ChildProcess::try_wait() {
  if (!native_->exited && native_->process != nullptr && ::WaitForSingleObject(native_->process, 0) == WAIT_OBJECT_0) {
    DWORD code = 0;
    ::GetExitCodeProcess(native_->process, &code);
    native_->exited = ExitStatus{static_cast<int>(code), false, 0};
  }
  return native_->exited;
}

ExitStatus ChildProcess::kill() {
  if (!native_->exited && native_->process != nullptr) {
    ::TerminateProcess(native_->process, 1);
    ::WaitForSingleObject(native_->process, INFINITE);
    native_->exited = ExitStatus{1, true, 0};
  }
  return native_->exited.value_or(ExitStatus{1, true, 0});
}

void wait_for_output(std::span<ChildProcess* const> children, int timeout_ms) {
  // Anonymous pipes cannot be waited on: look every millisecond (1 ms timers: timeBeginPeriod).
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  for (;;) {
    bool any_open = false;
    for (ChildProcess* c : children) {
      HANDLE output = c->native_->output;
      if (output == nullptr) continue;
      any_open = true;
      DWORD waiting = 0;
      if (!::PeekNamedPipe(output, nullptr, 0, nullptr, &waiting, nullptr) || waiting > 0) return;
    }
    if (!any_open || std::chrono::steady_clock::now() >= until) return;
    ::Sleep(1);
  }
}

// Our stdin, read by a thread of its own into `arrived`.
struct ParentInput::Native {
  std::mutex mutex;
  std::string arrived;
  bool closed = false;
  std::thread reader;
};

ParentInput::ParentInput() : native_(new Native) {
  native_->reader = std::thread([native = native_] {
    HANDLE input = ::GetStdHandle(STD_INPUT_HANDLE);
    for (;;) {
      char buffer[256];
      DWORD size = 0;
      const bool read = input != nullptr && ::ReadFile(input, buffer, sizeof buffer, &size, nullptr) && size > 0;
      const std::lock_guard lock(native->mutex);
      if (!read) {
        native->closed = true;
        return;
      }
      native->arrived.append(buffer, size);
    }
  });
}

ParentInput::~ParentInput() {
  // The thread may be blocked in ReadFile for good (a parent that never closes our stdin): it
  // is left to end with the process rather than joined.
  native_->reader.detach();
}

bool ParentInput::read_available(std::string& out) {
  const std::lock_guard lock(native_->mutex);
  out += native_->arrived;
  native_->arrived.clear();
  return !native_->closed;
}

void use_binary_stdout() {
  std::fflush(stdout);
  ::_setmode(::_fileno(stdout), _O_BINARY);
}

}  // namespace shoal::samples
