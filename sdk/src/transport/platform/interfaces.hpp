// SPDX-License-Identifier: MIT
// The machine's IPv4 interfaces, for LAN discovery's broadcasts. interfaces_posix.cpp reads
// getifaddrs(), interfaces_windows.cpp GetAdaptersAddresses().
#pragma once

#include <cstdint>
#include <vector>

namespace shoal::transport::platform {

/// One IPv4 address of an interface that is up, host byte order.
struct Ipv4Interface {
  std::uint32_t address = 0;
  std::uint32_t netmask = 0;
};

/// Every IPv4 address of every interface that is up; empty when they cannot be listed.
std::vector<Ipv4Interface> ipv4_interfaces();

}  // namespace shoal::transport::platform
