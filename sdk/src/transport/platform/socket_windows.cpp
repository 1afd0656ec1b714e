// SPDX-License-Identifier: MIT
// socket.hpp on Windows: Winsock 2. What differs from POSIX, and why it is handled here:
//   - Winsock must be started (WSAStartup) before any call; the first socket does it.
//   - Windows' timers tick every 15.6 ms unless asked for 1 ms (timeBeginPeriod), which would
//     turn every short wait (Peer::wait(1), the conditioner's releases) into 16 ms.
//   - A UDP socket reports an ICMP "port unreachable" as WSAECONNRESET on its next receive,
//     and stops; SIO_UDP_CONNRESET turns that off (POSIX reports ECONNREFUSED, skipped there).
//   - A datagram larger than the buffer fails with WSAEMSGSIZE having filled the buffer:
//     reported as a truncated datagram, as POSIX does.
//   - No IP_PKTINFO through plain sendto/recvfrom: packet_info is not offered, so a socket
//     bound to every address answers from the address the route picks.
#include "transport/platform/socket.hpp"

#include <winsock2.h>
#include <ws2tcpip.h>
#include <mswsock.h>
#include <windows.h>
#include <timeapi.h>

#include <stdexcept>
#include <vector>

namespace shoal::transport::platform {
namespace {

SOCKET native(SocketHandle socket) { return static_cast<SOCKET>(socket); }

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

std::string error_text(DWORD code) {
  // The errors a caller acts on, in the words POSIX's strerror uses, so a message reads (and a
  // test matches) alike on both sides; the system's own text is not always there (wine).
  switch (code) {
    case WSAEADDRINUSE: return "Address already in use";
    case WSAEADDRNOTAVAIL: return "Cannot assign requested address";
    case WSAEACCES: return "Permission denied";
    case WSAENETUNREACH: return "Network is unreachable";
    case WSAEMSGSIZE: return "Message too long";
    default: break;
  }
  char* text = nullptr;
  const DWORD length = ::FormatMessageA(
      FORMAT_MESSAGE_ALLOCATE_BUFFER | FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS, nullptr, code, 0,
      reinterpret_cast<char*>(&text), 0, nullptr);
  std::string message = length > 0 && text != nullptr ? std::string(text, length) : "";
  if (text != nullptr) ::LocalFree(text);
  while (!message.empty() && (message.back() == '\n' || message.back() == '\r' || message.back() == '.')) message.pop_back();
  return (message.empty() ? "error" : message) + " (" + std::to_string(code) + ")";
}

// Winsock and 1 ms timers for the life of the process.
struct Started {
  Started() {
    WSADATA data{};
    ok = ::WSAStartup(MAKEWORD(2, 2), &data) == 0;
    if (!ok) error = error_text(static_cast<DWORD>(::WSAGetLastError()));
    ::timeBeginPeriod(1);
  }
  ~Started() {
    ::timeEndPeriod(1);
    if (ok) ::WSACleanup();
  }
  bool ok = false;
  std::string error;
};

void start() {
  static const Started started;
  if (!started.ok) throw std::runtime_error("cannot start Winsock: " + started.error);
}

bool set_flag(SocketHandle socket, int level, int option) {
  const BOOL on = TRUE;
  return ::setsockopt(native(socket), level, option, reinterpret_cast<const char*>(&on), sizeof on) == 0;
}

}  // namespace

SocketHandle open_udp_socket() {
  start();
  const SOCKET socket = ::WSASocketW(AF_INET, SOCK_DGRAM, IPPROTO_UDP, nullptr, 0, WSA_FLAG_NO_HANDLE_INHERIT);
  if (socket == INVALID_SOCKET) throw std::runtime_error("cannot create a UDP socket: " + last_socket_error());
  u_long non_blocking = 1;
  if (::ioctlsocket(socket, FIONBIO, &non_blocking) != 0) {
    const std::string why = last_socket_error();
    ::closesocket(socket);
    throw std::runtime_error("cannot make a UDP socket non-blocking: " + why);
  }
  BOOL report_unreachable = FALSE;
  DWORD returned = 0;
  ::WSAIoctl(socket, SIO_UDP_CONNRESET, &report_unreachable, sizeof report_unreachable, nullptr, 0, &returned,
             nullptr, nullptr);
  return static_cast<SocketHandle>(socket);
}

void close_socket(SocketHandle socket) {
  if (socket != kNoSocket) ::closesocket(native(socket));
}

std::string last_socket_error() { return error_text(static_cast<DWORD>(::WSAGetLastError())); }

bool bind_socket(SocketHandle socket, const Ipv4Endpoint& local) {
  const sockaddr_in address = to_sockaddr(local);
  return ::bind(native(socket), reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0;
}

Ipv4Endpoint local_endpoint(SocketHandle socket) {
  sockaddr_in bound{};
  int length = sizeof bound;
  if (::getsockname(native(socket), reinterpret_cast<sockaddr*>(&bound), &length) != 0) return {};
  return from_sockaddr(bound);
}

bool enable(SocketHandle socket, SocketOption option) {
  switch (option) {
    case SocketOption::broadcast: return set_flag(socket, SOL_SOCKET, SO_BROADCAST);
    // Winsock's SO_REUSEADDR lets sockets share a port as SO_REUSEPORT does on Linux.
    case SocketOption::share_port: return set_flag(socket, SOL_SOCKET, SO_REUSEADDR);
    case SocketOption::packet_info: return false;
  }
  return false;
}

bool send_to(SocketHandle socket, const Ipv4Endpoint& to, std::span<const std::uint8_t> datagram,
             std::optional<std::uint32_t>) {
  const sockaddr_in address = to_sockaddr(to);
  return ::sendto(native(socket), reinterpret_cast<const char*>(datagram.data()), static_cast<int>(datagram.size()), 0,
                  reinterpret_cast<const sockaddr*>(&address), sizeof address) != SOCKET_ERROR;
}

std::optional<Received> receive_from(SocketHandle socket, std::span<std::uint8_t> buffer) {
  for (;;) {
    sockaddr_in address{};
    int length = sizeof address;
    const int size = ::recvfrom(native(socket), reinterpret_cast<char*>(buffer.data()), static_cast<int>(buffer.size()),
                                0, reinterpret_cast<sockaddr*>(&address), &length);
    if (size != SOCKET_ERROR) return Received{static_cast<std::size_t>(size), from_sockaddr(address), 0};
    const int error = ::WSAGetLastError();
    if (error == WSAEMSGSIZE) return Received{buffer.size(), from_sockaddr(address), 0};
    if (error == WSAECONNRESET || error == WSAEINTR) continue;
    return std::nullopt;
  }
}

std::size_t wait_readable(std::span<WaitEntry> entries, int timeout_ms) {
  if (entries.empty()) {
    ::Sleep(static_cast<DWORD>(timeout_ms > 0 ? timeout_ms : 0));
    return 0;
  }
  thread_local std::vector<WSAPOLLFD> fds;
  fds.clear();
  for (const WaitEntry& entry : entries) fds.push_back({native(entry.socket), POLLRDNORM, 0});
  const int ready = ::WSAPoll(fds.data(), static_cast<ULONG>(fds.size()), timeout_ms);
  std::size_t readable = 0;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    entries[i].readable = ready > 0 && (fds[i].revents & (POLLRDNORM | POLLERR)) != 0;
    readable += entries[i].readable ? 1 : 0;
  }
  return readable;
}

std::optional<std::uint32_t> resolve_ipv4(const std::string& host, std::string& error) {
  start();
  addrinfo hints{};
  hints.ai_family = AF_INET;
  hints.ai_socktype = SOCK_DGRAM;
  addrinfo* found = nullptr;
  const int status = ::getaddrinfo(host.c_str(), nullptr, &hints, &found);
  if (status != 0 || found == nullptr) {
    error = status != 0 ? error_text(static_cast<DWORD>(status)) : "no IPv4 address";
    return std::nullopt;
  }
  const std::uint32_t ipv4 = ntohl(reinterpret_cast<const sockaddr_in*>(found->ai_addr)->sin_addr.s_addr);
  ::freeaddrinfo(found);
  return ipv4;
}

}  // namespace shoal::transport::platform
