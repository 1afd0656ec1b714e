// SPDX-License-Identifier: MIT
// The versions Shoal reports. In the peer layer because it is the one that sees both the wire
// and the transport layers' protocol versions.
#include "shoal/version.hpp"

#include <cstdio>

#include "transport/relay_protocol.hpp"
#include "wire/packet_header.hpp"

#ifndef SHOAL_VERSION_STRING
#error "SHOAL_VERSION_STRING must be defined by the build (the project's version)"
#endif

namespace shoal {

std::string_view version() { return SHOAL_VERSION_STRING; }

int wire_version() { return wire::kProtocolVersion; }

int relay_protocol_version() { return transport::kRelayProtocolVersion; }

std::string version_line(std::string_view program) {
  std::string line(program);
  line.append(" ").append(version());
  line.append(" (wire ").append(std::to_string(wire_version()));
  line.append(", relay ").append(std::to_string(relay_protocol_version())).append(")");
  return line;
}

bool print_version_if_asked(int argc, const char* const* argv, std::string_view program) {
  if (argc != 2 || std::string_view(argv[1]) != "--version") return false;
  std::printf("%s\n", version_line(program).c_str());
  return true;
}

}  // namespace shoal
