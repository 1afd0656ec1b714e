// SPDX-License-Identifier: MIT
// How long the tests' real-time loops may wait: `seconds` of the steady clock, stretched by the
// environment's SHOAL_TEST_TIME_SCALE (1 to 100; 1 when unset). A slow platform sets it for its
// whole run (under wine, tests/windows/run_under_wine.sh sets 3): a loop that waits for what it
// checks then waits longer, and one that plays for a while plays longer; what they check stays.
// The SDK's own timeouts (ENet's 5 s) are not stretched: a test that must beat one checks
// that nothing timed out, not only that its wait ended.
#pragma once

#include <cstdlib>
#include <stdexcept>
#include <string>

namespace shoal::test {

inline double time_scale() {
  static const double scale = [] {
    const char* text = std::getenv("SHOAL_TEST_TIME_SCALE");
    if (text == nullptr || *text == '\0') return 1.0;
    char* end = nullptr;
    const double value = std::strtod(text, &end);
    if (*end != '\0' || !(value >= 1.0 && value <= 100.0)) {
      throw std::invalid_argument(std::string("SHOAL_TEST_TIME_SCALE is '") + text +
                                  "': expected a number from 1 to 100 (the factor the tests' real-time waits are stretched by)");
    }
    return value;
  }();
  return scale;
}

/// `seconds` of real time as the tests may wait them here.
inline double real_seconds(double seconds) { return seconds * time_scale(); }

}  // namespace shoal::test
