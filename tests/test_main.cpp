// SPDX-License-Identifier: MIT
// The main of every doctest suite. `--version` prints Shoal's version like every other program
// in build/bin (doctest's own -v/--version would print doctest's).
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstring>
#include <string>

#include "shoal/version.hpp"

int main(int argc, char** argv) {
  // Each suite is named after its binary: build/bin/shoal-test-<area>.
  const char* slash = std::strrchr(argv[0], '/');
  if (shoal::print_version_if_asked(argc, argv, slash != nullptr ? slash + 1 : argv[0])) return 0;
  doctest::Context context(argc, argv);
  return context.run();
}
