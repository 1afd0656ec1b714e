// SPDX-License-Identifier: MIT
// A plain non-blocking IPv4 UDP socket and the endpoint type the relay speaks.
// ENet keeps its own socket; this one is for the conditioning proxy and shoal-netsim.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <unordered_map>
#include <string>

#include "transport/platform/socket.hpp"
#include "shoal/transport.hpp"

namespace shoal::transport {

/// An IPv4 address and port, host byte order in both fields.
using Endpoint = transport::platform::Ipv4Endpoint;

struct EndpointHash {
  std::size_t operator()(const Endpoint& e) const noexcept {
    return std::hash<std::uint64_t>{}((std::uint64_t{e.ipv4} << 16) | e.port);
  }
};

/// Resolves a numeric address or host name to IPv4. Throws std::invalid_argument naming the
/// host when it cannot be resolved.
Endpoint resolve(const Address& address);
Address to_address(const Endpoint& endpoint);

class UdpSocket {
 public:
  /// Binds to `local` (port 0 = any free port). Throws std::runtime_error saying which
  /// address could not be bound and why (e.g. already in use).
  explicit UdpSocket(const Endpoint& local);
  ~UdpSocket();
  UdpSocket(UdpSocket&& other) noexcept;
  UdpSocket& operator=(UdpSocket&& other) noexcept;
  UdpSocket(const UdpSocket&) = delete;
  UdpSocket& operator=(const UdpSocket&) = delete;

  /// Best effort, like UDP itself: a full socket buffer drops the datagram. On a socket bound
  /// to every address, a reply leaves from the address the remote last reached us on, as a
  /// NAT in front of the remote expects (the kernel would pick one by route).
  void send_to(const Endpoint& remote, std::span<const std::uint8_t> datagram);
  /// Reads one waiting datagram into `buffer`; returns its size, or -1 when none is waiting.
  /// A datagram larger than the buffer is truncated (the relay's buffer fits any UDP payload).
  std::ptrdiff_t receive_from(std::span<std::uint8_t> buffer, Endpoint& from);

  const Endpoint& local() const { return local_; }
  transport::platform::SocketHandle handle() const { return socket_; }

 private:
  transport::platform::SocketHandle socket_ = transport::platform::kNoSocket;
  Endpoint local_;
  bool any_address_ = false;  // bound to 0.0.0.0: track where each remote reached us
  std::unordered_map<Endpoint, std::uint32_t, EndpointHash> reached_at_;
};

}  // namespace shoal::transport
