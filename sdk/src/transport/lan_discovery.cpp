// SPDX-License-Identifier: MIT
#include "transport/lan_discovery.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>

#include <fmt/format.h>

#include "transport/platform/interfaces.hpp"
#include "transport/platform/socket.hpp"
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

void enable(platform::SocketHandle socket, platform::SocketOption option, const char* name) {
  if (!platform::enable(socket, option)) {
    const std::string why = platform::last_socket_error();
    platform::close_socket(socket);
    throw std::runtime_error(fmt::format("cannot set {} on the discovery socket: {}", name, why));
  }
}

// The directed broadcast address of every IPv4 interface that is up, loopback included
// (lo has no broadcast flag, but 127.255.255.255 is a broadcast route on Linux and reaches
// every socket bound to the port, which is what several peers on one machine need); only
// loopback's when asked.
std::vector<platform::Ipv4Endpoint> broadcast_targets(std::uint16_t port, bool loopback_only) {
  std::vector<platform::Ipv4Endpoint> targets;
  auto add = [&](std::uint32_t broadcast) {
    const platform::Ipv4Endpoint target{broadcast, port};
    if (std::find(targets.begin(), targets.end(), target) == targets.end()) targets.push_back(target);
  };
  if (loopback_only) {
    add(0x7FFFFFFFu);  // 127.255.255.255
    return targets;
  }
  for (const platform::Ipv4Interface& i : platform::ipv4_interfaces()) {
    if (i.netmask == 0xFFFFFFFFu) continue;  // a /32 has no neighbours to announce to
    add((i.address & i.netmask) | ~i.netmask);
  }
  return targets;
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
  transport::platform::SocketHandle socket = transport::platform::kNoSocket;
  std::vector<std::uint8_t> datagram;
  std::vector<transport::platform::Ipv4Endpoint> targets;
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
  impl_->socket = transport::platform::open_udp_socket();
  transport::enable(impl_->socket, transport::platform::SocketOption::broadcast, "SO_BROADCAST");
}

LanAnnouncer::~LanAnnouncer() { transport::platform::close_socket(impl_->socket); }

void LanAnnouncer::update() {
  const Clock::time_point now = Clock::now();
  if (now < impl_->next_send) return;
  impl_->next_send = now + impl_->interval;
  for (const transport::platform::Ipv4Endpoint& target : impl_->targets) {
    // A failed send (interface gone, buffer full) is one lost announcement; the next follows.
    if (transport::platform::send_to(impl_->socket, target, impl_->datagram)) ++impl_->stats.sent;
  }
}

const LanDiscoveryStats& LanAnnouncer::stats() const { return impl_->stats; }

struct LanSeeker::Impl {
  transport::platform::SocketHandle socket = transport::platform::kNoSocket;
  LanDiscoveryStats stats;
};

LanSeeker::LanSeeker(const LanDiscoveryConfig& config) : impl_(std::make_unique<Impl>()) {
  transport::validate(config);
  const transport::platform::SocketHandle socket = transport::platform::open_udp_socket();
  // Several seekers on one machine share the port; broadcasts reach every one of them.
  transport::enable(socket, transport::platform::SocketOption::share_port, "SO_REUSEADDR/SO_REUSEPORT");
  if (!transport::platform::bind_socket(socket, {0, config.port})) {
    const std::string why = transport::platform::last_socket_error();
    transport::platform::close_socket(socket);
    throw std::runtime_error(fmt::format("cannot listen for LAN announcements on UDP port {}: {}", config.port, why));
  }
  impl_->socket = socket;
}

LanSeeker::~LanSeeker() { transport::platform::close_socket(impl_->socket); }

std::optional<LanSession> LanSeeker::poll(std::string_view session) {
  // One byte more than the largest announcement, so an oversized datagram is seen as such.
  std::uint8_t buffer[transport::kMaxAnnouncementSize + 1];
  for (;;) {
    const std::optional<transport::platform::Received> received = transport::platform::receive_from(impl_->socket, buffer);
    if (!received) return std::nullopt;  // nothing waiting
    ++impl_->stats.received;
    transport::DecodedAnnouncement decoded = transport::decode_announcement({buffer, received->size});
    if (!decoded.ok) {
      impl_->stats.dropped.add(decoded.reason);
      continue;
    }
    if (decoded.session.session != session) {
      ++impl_->stats.other_sessions;
      continue;
    }
    if (decoded.session.address.host == transport::kAnyHost) {
      decoded.session.address.host = transport::platform::ipv4_text(received->from.ipv4);
    }
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
    transport::platform::WaitEntry waiting{impl_->socket};
    transport::platform::wait_readable({&waiting, 1}, static_cast<int>(left));
  }
}

const LanDiscoveryStats& LanSeeker::stats() const { return impl_->stats; }

}  // namespace shoal
