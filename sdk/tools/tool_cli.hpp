// SPDX-License-Identifier: MIT
// What every tool's command line shares: the usage error, number parsing with a message that
// says what was expected, and a main() that turns errors into exit codes (2 = bad usage).
#pragma once

#include <cstdint>
#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "shoal/version.hpp"

namespace shoal::tools {

/// A wrong flag or value. An empty message prints only the usage (for --help).
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// `text` as a number in [low, high] (and whole, if asked), or a UsageError naming the flag,
/// the text and what was expected.
inline double parse_number(std::string_view flag, const std::string& text, double low, double high,
                           std::string_view expected, bool whole = false) {
  std::size_t used = 0;
  double value = 0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || text.empty() || !(value >= low && value <= high) ||
      (whole && value != static_cast<double>(static_cast<std::int64_t>(value)))) {
    throw UsageError(fmt::format("{} '{}' is not valid: expected {}", flag, text, expected));
  }
  return value;
}

inline std::uint16_t parse_port(std::string_view flag, const std::string& text, bool allow_zero) {
  return static_cast<std::uint16_t>(parse_number(flag, text, allow_zero ? 0 : 1, 65535,
                                                 allow_zero ? "a port 0..65535" : "a port 1..65535",
                                                 true));
}

/// Parses, then runs; a UsageError prints the message and the usage and returns 2, any other
/// error prints the message and returns 1.
template <class Parse, class Run>
int run_tool(std::string_view name, std::string_view usage, int argc, char** argv, Parse&& parse,
             Run&& run) {
  if (print_version_if_asked(argc, argv, name)) return 0;
  decltype(parse(argc, argv)) options;
  try {
    options = parse(argc, argv);
  } catch (const UsageError& error) {
    if (error.what()[0] != '\0') fmt::print(stderr, "{}: {}\n", name, error.what());
    fmt::print(stderr, "{}", usage);
    return 2;
  }
  try {
    return run(options);
  } catch (const std::exception& error) {
    fmt::print(stderr, "{}: {}\n", name, error.what());
    return 1;
  }
}

}  // namespace shoal::tools
