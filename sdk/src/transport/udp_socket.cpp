#include "transport/udp_socket.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

namespace shoal {

std::string to_string(const Address& address) { return fmt::format("{}:{}", address.host, address.port); }

namespace transport {
namespace {

sockaddr_in to_sockaddr(const Endpoint& endpoint) {
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(endpoint.ipv4);
  address.sin_port = htons(endpoint.port);
  return address;
}

Endpoint from_sockaddr(const sockaddr_in& address) {
  return {ntohl(address.sin_addr.s_addr), ntohs(address.sin_port)};
}

}  // namespace

Endpoint resolve(const Address& address) {
  addrinfo hints{};
  hints.ai_family = AF_INET;
  hints.ai_socktype = SOCK_DGRAM;
  addrinfo* found = nullptr;
  const int error = getaddrinfo(address.host.c_str(), nullptr, &hints, &found);
  if (error != 0 || found == nullptr) {
    throw std::invalid_argument(fmt::format(
        "cannot resolve host '{}' ({}): expected a numeric IPv4 address or a resolvable host name",
        address.host, gai_strerror(error)));
  }
  Endpoint endpoint = from_sockaddr(*reinterpret_cast<const sockaddr_in*>(found->ai_addr));
  freeaddrinfo(found);
  endpoint.port = address.port;
  return endpoint;
}

Address to_address(const Endpoint& endpoint) {
  const in_addr raw{htonl(endpoint.ipv4)};
  char text[INET_ADDRSTRLEN] = {};
  inet_ntop(AF_INET, &raw, text, sizeof text);
  return {text, endpoint.port};
}

UdpSocket::UdpSocket(const Endpoint& local) {
  fd_ = ::socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd_ < 0) {
    throw std::runtime_error(fmt::format("cannot create a UDP socket: {}", std::strerror(errno)));
  }
  const sockaddr_in address = to_sockaddr(local);
  if (::bind(fd_, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
    const int bind_error = errno;
    ::close(fd_);
    throw std::runtime_error(fmt::format("cannot bind UDP port {}: {} (expected a free port, or 0 for any)",
                                         to_string(to_address(local)), std::strerror(bind_error)));
  }
  sockaddr_in bound{};
  socklen_t length = sizeof bound;
  ::getsockname(fd_, reinterpret_cast<sockaddr*>(&bound), &length);
  local_ = from_sockaddr(bound);
}

UdpSocket::~UdpSocket() {
  if (fd_ >= 0) ::close(fd_);
}

UdpSocket::UdpSocket(UdpSocket&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)), local_(other.local_) {}

UdpSocket& UdpSocket::operator=(UdpSocket&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(other.fd_, -1);
    local_ = other.local_;
  }
  return *this;
}

void UdpSocket::send_to(const Endpoint& remote, std::span<const std::uint8_t> datagram) {
  const sockaddr_in address = to_sockaddr(remote);
  // Errors (full buffer, unreachable) are a lost datagram, which UDP callers already handle.
  (void)::sendto(fd_, datagram.data(), datagram.size(), MSG_NOSIGNAL,
                 reinterpret_cast<const sockaddr*>(&address), sizeof address);
}

std::ptrdiff_t UdpSocket::receive_from(std::span<std::uint8_t> buffer, Endpoint& from) {
  sockaddr_in address{};
  socklen_t length = sizeof address;
  for (;;) {
    const ssize_t size = ::recvfrom(fd_, buffer.data(), buffer.size(), 0,
                                    reinterpret_cast<sockaddr*>(&address), &length);
    if (size >= 0) {
      from = from_sockaddr(address);
      return size;
    }
    // ECONNREFUSED reports an earlier send to a closed port: skip it, keep reading.
    if (errno != EINTR && errno != ECONNREFUSED) return -1;
  }
}

}  // namespace transport
}  // namespace shoal
