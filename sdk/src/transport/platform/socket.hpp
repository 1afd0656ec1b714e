// SPDX-License-Identifier: MIT
// The SDK's one door to the operating system's sockets: non-blocking IPv4 UDP, waiting for
// readable sockets, name resolution. socket_posix.cpp (Linux, macOS, the BSDs) and
// socket_windows.cpp (Winsock 2) are its two sides; no other SDK file includes a platform header
// (ENet's own enet.h aside, which includes Winsock's on Windows).
//
// Batches: receive_many() fills several slots in one call. It loops over receive_from() today
// (socket_batch.cpp); a Linux side can take a whole batch with one recvmmsg behind the same
// signature, and a send_many() beside it can do the same with sendmmsg, callers unchanged.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace shoal::transport::platform {

/// A socket of either side: a file descriptor on POSIX, a SOCKET on Windows.
using SocketHandle = std::uintptr_t;
inline constexpr SocketHandle kNoSocket = ~SocketHandle{0};

/// An IPv4 address and port, host byte order in both fields.
struct Ipv4Endpoint {
  std::uint32_t ipv4 = 0;
  std::uint16_t port = 0;

  bool operator==(const Ipv4Endpoint&) const = default;
};

inline constexpr std::uint32_t kLoopbackIpv4 = 0x7F000001;  // 127.0.0.1

/// A non-blocking IPv4 UDP socket, not inherited by child processes. Starts the socket
/// library on first use (Windows: Winsock 2, and 1 ms timer resolution so short waits are
/// short). Throws std::runtime_error saying why when none can be made.
SocketHandle open_udp_socket();
void close_socket(SocketHandle socket);

/// What the last failed call of this thread said, as text (errno / WSAGetLastError).
std::string last_socket_error();

/// False (then last_socket_error() says why) when `local` cannot be bound.
bool bind_socket(SocketHandle socket, const Ipv4Endpoint& local);
Ipv4Endpoint local_endpoint(SocketHandle socket);

enum class SocketOption {
  broadcast,      ///< may send to broadcast addresses
  share_port,     ///< several sockets of this machine may bind the same port; broadcasts reach each
  packet_info,    ///< receive_from reports the local address a datagram reached; send_to may pick it
};
/// False when the option cannot be set, or does not exist on this side (packet_info on Windows).
bool enable(SocketHandle socket, SocketOption option);

/// Best effort, like UDP: false when the datagram was not sent (full buffer, no route).
/// `from_ipv4`, on a socket with packet_info, picks the local address it leaves from.
bool send_to(SocketHandle socket, const Ipv4Endpoint& to, std::span<const std::uint8_t> datagram,
             std::optional<std::uint32_t> from_ipv4 = std::nullopt);

/// One datagram received: its size (truncated to the buffer), sender and, with packet_info,
/// the local address it reached (0 when unknown).
struct Received {
  std::size_t size = 0;
  Ipv4Endpoint from;
  std::uint32_t to_ipv4 = 0;
};

/// Reads one waiting datagram into `buffer`; nullopt when none is waiting. Reports of an
/// earlier send to a closed port (ICMP port unreachable) are skipped, not returned.
std::optional<Received> receive_from(SocketHandle socket, std::span<std::uint8_t> buffer);

/// One slot of a batch: the caller's buffer, and what arrived in it.
struct ReceiveSlot {
  std::span<std::uint8_t> buffer;
  Received received;
};
/// Fills slots in order with waiting datagrams; returns how many were filled (0: none waiting).
std::size_t receive_many(SocketHandle socket, std::span<ReceiveSlot> slots);

/// One socket to wait on, and whether it turned out readable.
struct WaitEntry {
  SocketHandle socket = kNoSocket;
  bool readable = false;
};
/// Blocks up to timeout_ms (0: just looks) until one of `entries` is readable; sets each
/// entry's `readable` and returns how many are. No entries: sleeps timeout_ms.
std::size_t wait_readable(std::span<WaitEntry> entries, int timeout_ms);

/// A numeric IPv4 address or host name as an IPv4 address; nullopt with `error` set when it
/// cannot be resolved.
std::optional<std::uint32_t> resolve_ipv4(const std::string& host, std::string& error);
/// Dotted-quad text of a host-order IPv4 address.
inline std::string ipv4_text(std::uint32_t ipv4) {
  return std::to_string(ipv4 >> 24) + '.' + std::to_string((ipv4 >> 16) & 0xFF) + '.' +
         std::to_string((ipv4 >> 8) & 0xFF) + '.' + std::to_string(ipv4 & 0xFF);
}

}  // namespace shoal::transport::platform
