// SPDX-License-Identifier: MIT
#include "transport/udp_socket.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/uio.h>
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
  if (local_.ipv4 == INADDR_ANY) {
    const int on = 1;
    any_address_ = ::setsockopt(fd_, IPPROTO_IP, IP_PKTINFO, &on, sizeof on) == 0;
  }
}

UdpSocket::~UdpSocket() {
  if (fd_ >= 0) ::close(fd_);
}

UdpSocket::UdpSocket(UdpSocket&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)),
      local_(other.local_),
      any_address_(other.any_address_),
      reached_at_(std::move(other.reached_at_)) {}

UdpSocket& UdpSocket::operator=(UdpSocket&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(other.fd_, -1);
    local_ = other.local_;
    any_address_ = other.any_address_;
    reached_at_ = std::move(other.reached_at_);
  }
  return *this;
}

void UdpSocket::send_to(const Endpoint& remote, std::span<const std::uint8_t> datagram) {
  sockaddr_in address = to_sockaddr(remote);
  iovec io{const_cast<std::uint8_t*>(datagram.data()), datagram.size()};
  msghdr message{};
  message.msg_name = &address;
  message.msg_namelen = sizeof address;
  message.msg_iov = &io;
  message.msg_iovlen = 1;
  alignas(cmsghdr) unsigned char control[CMSG_SPACE(sizeof(in_pktinfo))] = {};
  if (any_address_) {
    if (auto it = reached_at_.find(remote); it != reached_at_.end()) {
      message.msg_control = control;
      message.msg_controllen = sizeof control;
      cmsghdr* header = CMSG_FIRSTHDR(&message);
      header->cmsg_level = IPPROTO_IP;
      header->cmsg_type = IP_PKTINFO;
      header->cmsg_len = CMSG_LEN(sizeof(in_pktinfo));
      in_pktinfo info{};
      info.ipi_spec_dst.s_addr = htonl(it->second);
      std::memcpy(CMSG_DATA(header), &info, sizeof info);
    }
  }
  // Errors (full buffer, unreachable) are a lost datagram, which UDP callers already handle.
  (void)::sendmsg(fd_, &message, MSG_NOSIGNAL);
}

std::ptrdiff_t UdpSocket::receive_from(std::span<std::uint8_t> buffer, Endpoint& from) {
  sockaddr_in address{};
  iovec io{buffer.data(), buffer.size()};
  alignas(cmsghdr) unsigned char control[CMSG_SPACE(sizeof(in_pktinfo))] = {};
  for (;;) {
    msghdr message{};
    message.msg_name = &address;
    message.msg_namelen = sizeof address;
    message.msg_iov = &io;
    message.msg_iovlen = 1;
    message.msg_control = any_address_ ? control : nullptr;
    message.msg_controllen = any_address_ ? sizeof control : 0;
    const ssize_t size = ::recvmsg(fd_, &message, 0);
    if (size >= 0) {
      from = from_sockaddr(address);
      for (cmsghdr* h = CMSG_FIRSTHDR(&message); any_address_ && h != nullptr; h = CMSG_NXTHDR(&message, h)) {
        if (h->cmsg_level != IPPROTO_IP || h->cmsg_type != IP_PKTINFO) continue;
        in_pktinfo info{};
        std::memcpy(&info, CMSG_DATA(h), sizeof info);
        // Bounded like the pipes themselves: a flood of sources stops being tracked.
        constexpr std::size_t kMaxTracked = 4096;
        if (reached_at_.size() < kMaxTracked || reached_at_.count(from) != 0) {
          reached_at_[from] = ntohl(info.ipi_spec_dst.s_addr);
        }
      }
      return size;
    }
    // ECONNREFUSED reports an earlier send to a closed port: skip it, keep reading.
    if (errno != EINTR && errno != ECONNREFUSED) return -1;
  }
}

}  // namespace transport
}  // namespace shoal
