// SPDX-License-Identifier: MIT
#include "shoal/log.hpp"

namespace shoal {

std::string_view to_string(LogLevel level) {
  switch (level) {
    case LogLevel::debug: return "debug";
    case LogLevel::info: return "info";
    case LogLevel::warn: return "warn";
    case LogLevel::error: return "error";
    case LogLevel::off: return "off";
  }
  return "unknown";
}

}  // namespace shoal
