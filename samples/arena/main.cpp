// SPDX-License-Identifier: MIT
// shoal-arena: play one peer of a Shoal match with the keyboard, against bots or other arena
// windows on the LAN, and watch ownership, regions and the network at work.
#include <cstdio>
#include <exception>

#include "app.hpp"
#include "options.hpp"
#include "shoal/version.hpp"

int main(int argc, char** argv) {
  if (shoal::print_version_if_asked(argc, argv, "shoal-arena")) return 0;
  arena::Options options;
  try {
    options = arena::parse_options(argc, argv);
  } catch (const arena::UsageError& e) {
    std::fprintf(stderr, "shoal-arena: %s\n%s", e.what(), arena::usage());
    return 2;
  }
  if (options.help) {
    std::fputs(arena::usage(), stdout);
    return 0;
  }
  try {
    arena::App app(options);
    app.run();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "shoal-arena: %s\n", e.what());
    return 1;
  }
  return 0;
}
