// SPDX-License-Identifier: MIT
// The log hook: a game that wants to know why Shoal dropped, snapped or expelled something
// sets a callback in PeerConfig::log. Without one nothing is formatted at all.
#pragma once

#include <cstdint>
#include <functional>
#include <string_view>

namespace shoal {

/// How much a log line matters; a callback sees the lines at LogConfig::level and above.
enum class LogLevel : std::uint8_t {
  debug,  ///< routine: a stale snapshot dropped, a message over a sender's rate
  info,   ///< worth knowing: an object snapped to its owner, a peer gone
  warn,   ///< something is wrong with a peer: a malformed or hostile message dropped, a peer refused
  error,  ///< this peer failed at something: a join that gave up
  off,    ///< as LogConfig::level: no line at all
};

/// "debug", "info", "warn", "error" or "off" ("unknown" for a value outside the enum).
std::string_view to_string(LogLevel level);

/// Receives one line: its level, and text saying what happened and why (valid only during the
/// call). Called from inside Peer's calls (update() mostly), on the thread that made them.
using LogCallback = std::function<void(LogLevel level, std::string_view text)>;

/// Where a peer's log lines go (PeerConfig::log).
struct LogConfig {
  LogCallback callback;              ///< empty (the default): no line is formatted
  LogLevel level = LogLevel::info;   ///< the least level passed to the callback
};

}  // namespace shoal
