// SPDX-License-Identifier: MIT
#include "transport/udp_socket.hpp"

#include <stdexcept>
#include <utility>

#include <fmt/format.h>

namespace shoal {

std::string to_string(const Address& address) { return fmt::format("{}:{}", address.host, address.port); }

namespace transport {


Endpoint resolve(const Address& address) {
  std::string error;
  const std::optional<std::uint32_t> ipv4 = platform::resolve_ipv4(address.host, error);
  if (!ipv4) {
    throw std::invalid_argument(fmt::format(
        "cannot resolve host '{}' ({}): expected a numeric IPv4 address or a resolvable host name", address.host, error));
  }
  return {*ipv4, address.port};
}

Address to_address(const Endpoint& endpoint) { return {platform::ipv4_text(endpoint.ipv4), endpoint.port}; }

UdpSocket::UdpSocket(const Endpoint& local) : socket_(platform::open_udp_socket()) {
  if (!platform::bind_socket(socket_, local)) {
    const std::string why = platform::last_socket_error();
    platform::close_socket(socket_);
    throw std::runtime_error(fmt::format("cannot bind UDP port {}: {} (expected a free port, or 0 for any)",
                                         to_string(to_address(local)), why));
  }
  local_ = platform::local_endpoint(socket_);
  if (local_.ipv4 == 0) any_address_ = platform::enable(socket_, platform::SocketOption::packet_info);
}

UdpSocket::~UdpSocket() { platform::close_socket(socket_); }

UdpSocket::UdpSocket(UdpSocket&& other) noexcept
    : socket_(std::exchange(other.socket_, platform::kNoSocket)),
      local_(other.local_),
      any_address_(other.any_address_),
      reached_at_(std::move(other.reached_at_)) {}

UdpSocket& UdpSocket::operator=(UdpSocket&& other) noexcept {
  if (this != &other) {
    platform::close_socket(socket_);
    socket_ = std::exchange(other.socket_, platform::kNoSocket);
    local_ = other.local_;
    any_address_ = other.any_address_;
    reached_at_ = std::move(other.reached_at_);
  }
  return *this;
}

void UdpSocket::send_to(const Endpoint& remote, std::span<const std::uint8_t> datagram) {
  std::optional<std::uint32_t> from;
  if (any_address_) {
    if (auto it = reached_at_.find(remote); it != reached_at_.end()) from = it->second;
  }
  // Errors (full buffer, unreachable) are a lost datagram, which UDP callers already handle.
  (void)platform::send_to(socket_, remote, datagram, from);
}

std::ptrdiff_t UdpSocket::receive_from(std::span<std::uint8_t> buffer, Endpoint& from) {
  const std::optional<platform::Received> received = platform::receive_from(socket_, buffer);
  if (!received) return -1;
  from = received->from;
  if (any_address_ && received->to_ipv4 != 0) {
    // Bounded like the pipes themselves: a flood of sources stops being tracked.
    constexpr std::size_t kMaxTracked = 4096;
    if (reached_at_.size() < kMaxTracked || reached_at_.count(from) != 0) reached_at_[from] = received->to_ipv4;
  }
  return static_cast<std::ptrdiff_t>(received->size);
}

}  // namespace transport
}  // namespace shoal
