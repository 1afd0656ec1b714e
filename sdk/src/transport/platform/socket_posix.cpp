// SPDX-License-Identifier: MIT
// socket.hpp on POSIX (Linux first; macOS and the BSDs are not tested). Linux-only flags are
// used where they exist and replaced by their portable equivalents where they do not.
#include "transport/platform/socket.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace shoal::transport::platform {
namespace {

#ifdef MSG_NOSIGNAL
constexpr int kSendFlags = MSG_NOSIGNAL;
#else
constexpr int kSendFlags = 0;  // UDP raises no SIGPIPE anyway
#endif

int fd_of(SocketHandle socket) { return static_cast<int>(socket); }

sockaddr_in to_sockaddr(const Ipv4Endpoint& endpoint) {
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(endpoint.ipv4);
  address.sin_port = htons(endpoint.port);
  return address;
}

Ipv4Endpoint from_sockaddr(const sockaddr_in& address) {
  return {ntohl(address.sin_addr.s_addr), ntohs(address.sin_port)};
}

bool set_flag(int fd, int level, int option) {
  const int on = 1;
  return ::setsockopt(fd, level, option, &on, sizeof on) == 0;
}

}  // namespace

SocketHandle open_udp_socket() {
#if defined(SOCK_NONBLOCK) && defined(SOCK_CLOEXEC)
  const int fd = ::socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
#else
  const int fd = ::socket(AF_INET, SOCK_DGRAM, 0);
  if (fd >= 0 && (::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK) != 0 || ::fcntl(fd, F_SETFD, FD_CLOEXEC) != 0)) {
    const int error = errno;
    ::close(fd);
    errno = error;
    throw std::runtime_error("cannot make a UDP socket non-blocking: " + last_socket_error());
  }
#endif
  if (fd < 0) throw std::runtime_error("cannot create a UDP socket: " + last_socket_error());
  return static_cast<SocketHandle>(fd);
}

void close_socket(SocketHandle socket) {
  if (socket != kNoSocket) ::close(fd_of(socket));
}

std::string last_socket_error() { return std::strerror(errno); }

bool bind_socket(SocketHandle socket, const Ipv4Endpoint& local) {
  const sockaddr_in address = to_sockaddr(local);
  return ::bind(fd_of(socket), reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0;
}

Ipv4Endpoint local_endpoint(SocketHandle socket) {
  sockaddr_in bound{};
  socklen_t length = sizeof bound;
  if (::getsockname(fd_of(socket), reinterpret_cast<sockaddr*>(&bound), &length) != 0) return {};
  return from_sockaddr(bound);
}

bool enable(SocketHandle socket, SocketOption option) {
  const int fd = fd_of(socket);
  switch (option) {
    case SocketOption::broadcast: return set_flag(fd, SOL_SOCKET, SO_BROADCAST);
    case SocketOption::share_port:
#ifdef SO_REUSEPORT
      return set_flag(fd, SOL_SOCKET, SO_REUSEADDR) && set_flag(fd, SOL_SOCKET, SO_REUSEPORT);
#else
      return set_flag(fd, SOL_SOCKET, SO_REUSEADDR);
#endif
    case SocketOption::packet_info:
#ifdef IP_PKTINFO
      return set_flag(fd, IPPROTO_IP, IP_PKTINFO);
#else
      return false;
#endif
  }
  return false;
}

bool send_to(SocketHandle socket, const Ipv4Endpoint& to, std::span<const std::uint8_t> datagram,
             std::optional<std::uint32_t> from_ipv4) {
  sockaddr_in address = to_sockaddr(to);
  iovec io{const_cast<std::uint8_t*>(datagram.data()), datagram.size()};
  msghdr message{};
  message.msg_name = &address;
  message.msg_namelen = sizeof address;
  message.msg_iov = &io;
  message.msg_iovlen = 1;
#ifdef IP_PKTINFO
  alignas(cmsghdr) unsigned char control[CMSG_SPACE(sizeof(in_pktinfo))] = {};
  if (from_ipv4) {
    message.msg_control = control;
    message.msg_controllen = sizeof control;
    cmsghdr* header = CMSG_FIRSTHDR(&message);
    header->cmsg_level = IPPROTO_IP;
    header->cmsg_type = IP_PKTINFO;
    header->cmsg_len = CMSG_LEN(sizeof(in_pktinfo));
    in_pktinfo info{};
    info.ipi_spec_dst.s_addr = htonl(*from_ipv4);
    std::memcpy(CMSG_DATA(header), &info, sizeof info);
  }
#else
  (void)from_ipv4;
#endif
  return ::sendmsg(fd_of(socket), &message, kSendFlags) >= 0;
}

std::optional<Received> receive_from(SocketHandle socket, std::span<std::uint8_t> buffer) {
  sockaddr_in address{};
  iovec io{buffer.data(), buffer.size()};
#ifdef IP_PKTINFO
  alignas(cmsghdr) unsigned char control[CMSG_SPACE(sizeof(in_pktinfo))] = {};
#endif
  for (;;) {
    msghdr message{};
    message.msg_name = &address;
    message.msg_namelen = sizeof address;
    message.msg_iov = &io;
    message.msg_iovlen = 1;
#ifdef IP_PKTINFO
    message.msg_control = control;
    message.msg_controllen = sizeof control;
#endif
    const ssize_t size = ::recvmsg(fd_of(socket), &message, 0);
    if (size < 0) {
      // ECONNREFUSED reports an earlier send to a closed port: skip it, keep reading.
      if (errno == EINTR || errno == ECONNREFUSED) continue;
      return std::nullopt;
    }
    Received received{static_cast<std::size_t>(size), from_sockaddr(address), 0};
#ifdef IP_PKTINFO
    for (cmsghdr* h = CMSG_FIRSTHDR(&message); h != nullptr; h = CMSG_NXTHDR(&message, h)) {
      if (h->cmsg_level != IPPROTO_IP || h->cmsg_type != IP_PKTINFO) continue;
      in_pktinfo info{};
      std::memcpy(&info, CMSG_DATA(h), sizeof info);
      received.to_ipv4 = ntohl(info.ipi_spec_dst.s_addr);
    }
#endif
    return received;
  }
}

std::size_t wait_readable(std::span<WaitEntry> entries, int timeout_ms) {
  // Reused: waits run once per frame or more, and should not allocate each time.
  thread_local std::vector<pollfd> fds;
  fds.clear();
  for (const WaitEntry& entry : entries) fds.push_back({fd_of(entry.socket), POLLIN, 0});
  const int ready = ::poll(fds.data(), fds.size(), timeout_ms);
  std::size_t readable = 0;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    entries[i].readable = ready > 0 && (fds[i].revents & (POLLIN | POLLERR)) != 0;
    readable += entries[i].readable ? 1 : 0;
  }
  return readable;
}

std::optional<std::uint32_t> resolve_ipv4(const std::string& host, std::string& error) {
  addrinfo hints{};
  hints.ai_family = AF_INET;
  hints.ai_socktype = SOCK_DGRAM;
  addrinfo* found = nullptr;
  const int status = ::getaddrinfo(host.c_str(), nullptr, &hints, &found);
  if (status != 0 || found == nullptr) {
    error = status != 0 ? ::gai_strerror(status) : "no IPv4 address";
    return std::nullopt;
  }
  const std::uint32_t ipv4 = ntohl(reinterpret_cast<const sockaddr_in*>(found->ai_addr)->sin_addr.s_addr);
  ::freeaddrinfo(found);
  return ipv4;
}

}  // namespace shoal::transport::platform
