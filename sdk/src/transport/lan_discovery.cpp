// SPDX-License-Identifier: MIT
#include "transport/lan_discovery.hpp"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

#include "wire/packet_header.hpp"

namespace shoal {

std::uint8_t protocol_version() { return wire::kProtocolVersion; }

namespace transport {
namespace {

constexpr std::uint8_t kMagic[4] = {'S', 'H', 'L', 'D'};
constexpr std::string_view kAnyHost = "0.0.0.0";

void append_text(std::vector<std::uint8_t>& out, std::string_view text) {
  out.push_back(static_cast<std::uint8_t>(text.size()));
  out.insert(out.end(), text.begin(), text.end());
}

// Reads a length-prefixed text at `at`; false when the datagram ends first.
bool read_text(std::span<const std::uint8_t> in, std::size_t& at, std::string& text) {
  if (at >= in.size()) return false;
  const std::size_t length = in[at++];
  if (in.size() - at < length) return false;
  text.assign(reinterpret_cast<const char*>(in.data() + at), length);
  at += length;
  return true;
}

void validate(const LanDiscoveryConfig& config) {
  if (config.port == 0) {
    throw std::invalid_argument("LanDiscoveryConfig.port is 0: expected a UDP port 1..65535");
  }
  if (config.announce_interval_ms < 10 || config.announce_interval_ms > 10'000) {
    throw std::invalid_argument(fmt::format(
        "LanDiscoveryConfig.announce_interval_ms is {}: expected 10..10000 ms", config.announce_interval_ms));
  }
}

int open_udp_socket() {
  const int fd = ::socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) throw std::runtime_error(fmt::format("cannot create a UDP socket: {}", std::strerror(errno)));
  return fd;
}

void enable(int fd, int option, const char* name) {
  const int on = 1;
  if (::setsockopt(fd, SOL_SOCKET, option, &on, sizeof on) != 0) {
    const int error = errno;
    ::close(fd);
    throw std::runtime_error(fmt::format("cannot set {} on the discovery socket: {}", name, std::strerror(error)));
  }
}

// The directed broadcast address of every IPv4 interface that is up, loopback included
// (lo has no broadcast flag, but 127.255.255.255 is a broadcast route on Linux and reaches
// every socket bound to the port, which is what several peers on one machine need); only
// loopback's when asked.
std::vector<sockaddr_in> broadcast_targets(std::uint16_t port, bool loopback_only) {
  std::vector<sockaddr_in> targets;
  auto add = [&](std::uint32_t broadcast) {
    const bool known = std::any_of(targets.begin(), targets.end(), [&](const sockaddr_in& t) {
      return t.sin_addr.s_addr == htonl(broadcast);
    });
    if (known) return;
    sockaddr_in target{};
    target.sin_family = AF_INET;
    target.sin_port = htons(port);
    target.sin_addr.s_addr = htonl(broadcast);
    targets.push_back(target);
  };
  if (loopback_only) {
    add(0x7FFFFFFFu);  // 127.255.255.255
    return targets;
  }
  ifaddrs* interfaces = nullptr;
  if (::getifaddrs(&interfaces) != 0) return targets;
  for (const ifaddrs* i = interfaces; i != nullptr; i = i->ifa_next) {
    if (i->ifa_addr == nullptr || i->ifa_netmask == nullptr || i->ifa_addr->sa_family != AF_INET) continue;
    if ((i->ifa_flags & IFF_UP) == 0) continue;
    const std::uint32_t address = ntohl(reinterpret_cast<const sockaddr_in*>(i->ifa_addr)->sin_addr.s_addr);
    const std::uint32_t mask = ntohl(reinterpret_cast<const sockaddr_in*>(i->ifa_netmask)->sin_addr.s_addr);
    if (mask == 0xFFFFFFFFu) continue;  // a /32 has no neighbours to announce to
    add((address & mask) | ~mask);
  }
  ::freeifaddrs(interfaces);
  return targets;
}

std::string to_text(const sockaddr_in& address) {
  char text[INET_ADDRSTRLEN] = {};
  ::inet_ntop(AF_INET, &address.sin_addr, text, sizeof text);
  return text;
}

}  // namespace

bool is_announceable(std::string_view text, std::size_t max_length) {
  if (text.empty() || text.size() > max_length) return false;
  return std::all_of(text.begin(), text.end(), [](char c) { return c >= 0x20 && c <= 0x7E; });
}

std::vector<std::uint8_t> encode_announcement(const LanSession& announcement) {
  if (!is_announceable(announcement.session, kMaxSessionNameLength)) {
    throw std::invalid_argument(fmt::format(
        "session name '{}' cannot be announced: expected 1..{} printable ASCII characters",
        announcement.session, kMaxSessionNameLength));
  }
  if (!is_announceable(announcement.address.host, kMaxAnnouncedHostLength) || announcement.address.port == 0) {
    throw std::invalid_argument(fmt::format(
        "address '{}' cannot be announced: expected a host of 1..{} printable characters and a port 1..65535",
        to_string(announcement.address), kMaxAnnouncedHostLength));
  }
  std::vector<std::uint8_t> out(std::begin(kMagic), std::end(kMagic));
  out.push_back(announcement.protocol_version);
  out.push_back(static_cast<std::uint8_t>(announcement.address.port >> 8));
  out.push_back(static_cast<std::uint8_t>(announcement.address.port & 0xFF));
  append_text(out, announcement.address.host);
  append_text(out, announcement.session);
  return out;
}

DecodedAnnouncement decode_announcement(std::span<const std::uint8_t> in) {
  DecodedAnnouncement result;
  auto reject = [&](DropReason reason) {
    result.reason = reason;
    return result;
  };
  if (in.size() > kMaxAnnouncementSize) return reject(DropReason::oversize);
  if (in.size() < sizeof kMagic) return reject(in.empty() ? DropReason::truncated : DropReason::bad_magic);
  if (!std::equal(std::begin(kMagic), std::end(kMagic), in.begin())) return reject(DropReason::bad_magic);
  std::size_t at = sizeof kMagic;
  if (in.size() < at + 3) return reject(DropReason::truncated);
  if (in[at] != wire::kProtocolVersion) return reject(DropReason::unsupported_version);
  LanSession& s = result.session;
  s.protocol_version = in[at];
  s.address.port = static_cast<std::uint16_t>((in[at + 1] << 8) | in[at + 2]);
  at += 3;
  if (!read_text(in, at, s.address.host) || !read_text(in, at, s.session)) return reject(DropReason::truncated);
  if (at != in.size()) return reject(DropReason::malformed);
  if (s.address.port == 0 || !is_announceable(s.address.host, kMaxAnnouncedHostLength) ||
      !is_announceable(s.session, kMaxSessionNameLength)) {
    return reject(DropReason::malformed);
  }
  result.ok = true;
  return result;
}

}  // namespace transport

using Clock = std::chrono::steady_clock;

struct LanAnnouncer::Impl {
  int fd = -1;
  std::vector<std::uint8_t> datagram;
  std::vector<sockaddr_in> targets;
  Clock::duration interval;
  Clock::time_point next_send{};
  LanDiscoveryStats stats;
};

LanAnnouncer::LanAnnouncer(const LanDiscoveryConfig& config, std::string_view session, const Address& address)
    : impl_(std::make_unique<Impl>()) {
  transport::validate(config);
  impl_->datagram = transport::encode_announcement({std::string(session), address, protocol_version()});
  impl_->interval = std::chrono::milliseconds(config.announce_interval_ms);
  impl_->targets = transport::broadcast_targets(config.port, config.loopback_only);
  impl_->fd = transport::open_udp_socket();
  transport::enable(impl_->fd, SO_BROADCAST, "SO_BROADCAST");
}

LanAnnouncer::~LanAnnouncer() {
  if (impl_->fd >= 0) ::close(impl_->fd);
}

void LanAnnouncer::update() {
  const Clock::time_point now = Clock::now();
  if (now < impl_->next_send) return;
  impl_->next_send = now + impl_->interval;
  for (const sockaddr_in& target : impl_->targets) {
    // A failed send (interface gone, buffer full) is one lost announcement; the next follows.
    const ssize_t sent = ::sendto(impl_->fd, impl_->datagram.data(), impl_->datagram.size(), MSG_NOSIGNAL,
                                  reinterpret_cast<const sockaddr*>(&target), sizeof target);
    if (sent >= 0) ++impl_->stats.sent;
  }
}

const LanDiscoveryStats& LanAnnouncer::stats() const { return impl_->stats; }

struct LanSeeker::Impl {
  int fd = -1;
  LanDiscoveryStats stats;
};

LanSeeker::LanSeeker(const LanDiscoveryConfig& config) : impl_(std::make_unique<Impl>()) {
  transport::validate(config);
  const int fd = transport::open_udp_socket();
  // Several seekers on one machine share the port; broadcasts reach every one of them.
  transport::enable(fd, SO_REUSEADDR, "SO_REUSEADDR");
  transport::enable(fd, SO_REUSEPORT, "SO_REUSEPORT");
  sockaddr_in local{};
  local.sin_family = AF_INET;
  local.sin_addr.s_addr = htonl(INADDR_ANY);
  local.sin_port = htons(config.port);
  if (::bind(fd, reinterpret_cast<const sockaddr*>(&local), sizeof local) != 0) {
    const int error = errno;
    ::close(fd);
    throw std::runtime_error(fmt::format("cannot listen for LAN announcements on UDP port {}: {}",
                                         config.port, std::strerror(error)));
  }
  impl_->fd = fd;
}

LanSeeker::~LanSeeker() {
  if (impl_->fd >= 0) ::close(impl_->fd);
}

std::optional<LanSession> LanSeeker::poll(std::string_view session) {
  // One byte more than the largest announcement, so an oversized datagram is seen as such.
  std::uint8_t buffer[transport::kMaxAnnouncementSize + 1];
  for (;;) {
    sockaddr_in from{};
    socklen_t from_length = sizeof from;
    const ssize_t size = ::recvfrom(impl_->fd, buffer, sizeof buffer, 0, reinterpret_cast<sockaddr*>(&from),
                                    &from_length);
    if (size < 0) {
      if (errno == EINTR) continue;
      return std::nullopt;  // nothing waiting
    }
    ++impl_->stats.received;
    transport::DecodedAnnouncement decoded =
        transport::decode_announcement({buffer, static_cast<std::size_t>(size)});
    if (!decoded.ok) {
      impl_->stats.dropped.add(decoded.reason);
      continue;
    }
    if (decoded.session.session != session) {
      ++impl_->stats.other_sessions;
      continue;
    }
    if (decoded.session.address.host == transport::kAnyHost) decoded.session.address.host = transport::to_text(from);
    return std::move(decoded.session);
  }
}

std::optional<LanSession> LanSeeker::find(std::string_view session, int timeout_ms) {
  const Clock::time_point deadline = Clock::now() + std::chrono::milliseconds(std::max(timeout_ms, 0));
  for (;;) {
    if (auto found = poll(session)) return found;
    // Rounded up: truncated, the last fraction of a millisecond would end the wait early.
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) return std::nullopt;
    pollfd waiting{impl_->fd, POLLIN, 0};
    ::poll(&waiting, 1, static_cast<int>(left));
  }
}

const LanDiscoveryStats& LanSeeker::stats() const { return impl_->stats; }

}  // namespace shoal
