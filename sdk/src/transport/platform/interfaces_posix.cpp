// SPDX-License-Identifier: MIT
// interfaces.hpp on POSIX: getifaddrs().
#include "transport/platform/interfaces.hpp"

#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/socket.h>

namespace shoal::transport::platform {

std::vector<Ipv4Interface> ipv4_interfaces() {
  std::vector<Ipv4Interface> found;
  ifaddrs* interfaces = nullptr;
  if (::getifaddrs(&interfaces) != 0) return found;
  for (const ifaddrs* i = interfaces; i != nullptr; i = i->ifa_next) {
    if (i->ifa_addr == nullptr || i->ifa_netmask == nullptr || i->ifa_addr->sa_family != AF_INET) continue;
    if ((i->ifa_flags & IFF_UP) == 0) continue;
    found.push_back({ntohl(reinterpret_cast<const sockaddr_in*>(i->ifa_addr)->sin_addr.s_addr),
                     ntohl(reinterpret_cast<const sockaddr_in*>(i->ifa_netmask)->sin_addr.s_addr)});
  }
  ::freeifaddrs(interfaces);
  return found;
}

}  // namespace shoal::transport::platform
