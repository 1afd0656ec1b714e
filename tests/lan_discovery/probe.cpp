// SPDX-License-Identifier: MIT
// A LAN discovery probe for the tests that need separate processes (and network namespaces):
//   shoal-lan-discovery-probe announce SESSION DISCOVERY_PORT HOST:PORT SECONDS [loopback]
//   shoal-lan-discovery-probe seek SESSION DISCOVERY_PORT TIMEOUT_MS
// seek prints "found HOST:PORT version V" and exits 0, or exits 1 when nothing matched in time.
#include <chrono>
#include <cstdlib>
#include <exception>
#include <string>
#include <string_view>
#include <thread>

#include <fmt/core.h>

#include "shoal/lan_discovery.hpp"
#include "shoal/version.hpp"

namespace {

int usage() {
  fmt::print(stderr,
             "usage: shoal-lan-discovery-probe announce SESSION DISCOVERY_PORT HOST:PORT SECONDS [loopback]\n"
             "       shoal-lan-discovery-probe seek SESSION DISCOVERY_PORT TIMEOUT_MS\n");
  return 2;
}

shoal::Address parse_address(const std::string& text) {
  const auto colon = text.rfind(':');
  if (colon == std::string::npos) throw std::invalid_argument("expected HOST:PORT, got " + text);
  return {text.substr(0, colon), static_cast<std::uint16_t>(std::stoul(text.substr(colon + 1)))};
}

}  // namespace

int main(int argc, char** argv) {
  if (shoal::print_version_if_asked(argc, argv, "shoal-lan-discovery-probe")) return 0;
  if (argc < 5 || argc > 7) return usage();
  const std::string_view mode = argv[1];
  try {
    shoal::LanDiscoveryConfig config;
    config.port = static_cast<std::uint16_t>(std::stoul(argv[3]));
    if (mode == "announce" && argc >= 6) {
      if (argc == 7 && std::string_view(argv[6]) != "loopback") return usage();
      config.loopback_only = argc == 7;
      shoal::LanAnnouncer announcer(config, argv[2], parse_address(argv[4]));
      const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(std::stod(argv[5]));
      while (std::chrono::steady_clock::now() < end) {
        announcer.update();
        std::this_thread::sleep_for(std::chrono::milliseconds(10));  // a stand-in for a game frame
      }
      return 0;
    }
    if (mode == "seek" && argc == 5) {
      shoal::LanSeeker seeker(config);
      const auto found = seeker.find(argv[2], std::stoi(argv[4]));
      if (!found) {
        fmt::print("not found ({} datagrams heard)\n", seeker.stats().received);
        return 1;
      }
      fmt::print("found {}:{} version {}\n", found->address.host, found->address.port, found->protocol_version);
      return 0;
    }
  } catch (const std::exception& e) {
    fmt::print(stderr, "shoal-lan-discovery-probe: {}\n", e.what());
    return 2;
  }
  return usage();
}
