// SPDX-License-Identifier: MIT
// Command-line flags of shoal-arena.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>

#include "physics_choice.hpp"
#include "shoal/transport.hpp"

namespace arena {

/// A flag or value the arena does not accept; main prints it with the usage and exits 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Options {
  bool help = false;
  /// LAN play: --host listens on every interface, --join connects to a host. Neither: a local
  /// match against the bots on loopback. (LAN discovery will offer hosts here later.)
  bool lan_host = false;
  std::optional<shoal::Address> join;
  std::uint16_t port = 0;  ///< 0 = any free port (--host defaults to kDefaultPort)
  int bots = 2;
  int objects = 40;        ///< every window of one match must use the same value
  std::uint64_t seed = 1;
  shoal::samples::Physics physics = shoal::samples::Physics::reference;  ///< the same in every window
  float loss = 0, latency_ms = 0, jitter_ms = 0;  ///< initial link conditioner of the player
  int width = 1200, height = 760;
  bool overlay = true;
  bool raw_state = false;  ///< start with the raw simulation state outlined
  bool insecure = false;   ///< --insecure: links in the clear, for comparison
  int frames = 0;          ///< 0 = run until the window closes
  std::string screenshot;  ///< PNG written after `frames` frames
};

inline constexpr std::uint16_t kDefaultPort = 40000;

/// Throws UsageError naming the flag and what it expects.
Options parse_options(int argc, char** argv);
const char* usage();

}  // namespace arena
