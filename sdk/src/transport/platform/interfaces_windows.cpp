// SPDX-License-Identifier: MIT
// interfaces.hpp on Windows: GetAdaptersAddresses(), whose prefix lengths give the masks.
#include "transport/platform/interfaces.hpp"

#include <winsock2.h>
#include <ws2tcpip.h>
#include <iphlpapi.h>

namespace shoal::transport::platform {

std::vector<Ipv4Interface> ipv4_interfaces() {
  std::vector<Ipv4Interface> found;
  constexpr ULONG kFlags = GAA_FLAG_SKIP_ANYCAST | GAA_FLAG_SKIP_MULTICAST | GAA_FLAG_SKIP_DNS_SERVER;
  ULONG size = 16 * 1024;
  std::vector<unsigned char> buffer;
  ULONG status = ERROR_BUFFER_OVERFLOW;
  for (int attempt = 0; attempt < 3 && status == ERROR_BUFFER_OVERFLOW; ++attempt) {  // the list may grow between calls
    buffer.resize(size);
    status = ::GetAdaptersAddresses(AF_INET, kFlags, nullptr, reinterpret_cast<IP_ADAPTER_ADDRESSES*>(buffer.data()), &size);
  }
  if (status != NO_ERROR) return found;
  for (auto* adapter = reinterpret_cast<const IP_ADAPTER_ADDRESSES*>(buffer.data()); adapter != nullptr;
       adapter = adapter->Next) {
    if (adapter->OperStatus != IfOperStatusUp) continue;
    for (const IP_ADAPTER_UNICAST_ADDRESS* a = adapter->FirstUnicastAddress; a != nullptr; a = a->Next) {
      if (a->Address.lpSockaddr == nullptr || a->Address.lpSockaddr->sa_family != AF_INET) continue;
      const std::uint32_t prefix = a->OnLinkPrefixLength > 32 ? 32 : a->OnLinkPrefixLength;
      const std::uint32_t mask = prefix == 0 ? 0 : ~std::uint32_t{0} << (32 - prefix);
      found.push_back({ntohl(reinterpret_cast<const sockaddr_in*>(a->Address.lpSockaddr)->sin_addr.s_addr), mask});
    }
  }
  return found;
}

}  // namespace shoal::transport::platform
