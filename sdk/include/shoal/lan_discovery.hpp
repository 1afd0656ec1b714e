// SPDX-License-Identifier: MIT
// LAN discovery: how peers on one network find a match without typing addresses.
//
// A host runs a LanAnnouncer: a few times per second it broadcasts {session name, the address
// its transport listens on, protocol version} to a UDP port on every IPv4 interface (loopback
// included, so several processes on one machine find each other). A joiner runs a LanSeeker
// on that port and takes the first announcement whose session name and protocol version match.
//
//   shoal::LanAnnouncer announcer({}, "my-game", peer.address());
//   while (running) { announcer.update(); ... }          // on the host, once per frame
//
//   shoal::LanSeeker seeker({});
//   if (auto found = seeker.find("my-game", 3000)) peer.join(found->address);
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "shoal/drop_reason.hpp"
#include "shoal/transport.hpp"

namespace shoal {

/// The protocol version this build speaks; announcements carry it and seekers require it.
std::uint8_t protocol_version();

/// Where and how often LAN sessions are announced.
struct LanDiscoveryConfig {
  std::uint16_t port = 47474;        ///< UDP port announcements go to, 1..65535
  int announce_interval_ms = 250;    ///< time between announcements, 10..10000
  /// Announce to 127.255.255.255 only: for peers that all run on this machine (tests, a
  /// local match); nothing leaves the machine. Otherwise every IPv4 interface's broadcast.
  bool loopback_only = false;
};

/// One heard announcement.
struct LanSession {
  std::string session;  ///< the session's name
  Address address;                   ///< where the host's transport listens
  std::uint8_t protocol_version = 0;  ///< the announcing build's (lan discovery only matches its own)
};

/// Limits of an announcement, checked by LanAnnouncer and by the decoder.
inline constexpr std::size_t kMaxSessionNameLength = 64;
inline constexpr std::size_t kMaxAnnouncedHostLength = 64;

/// What an announcer or a seeker has sent, heard and dropped.
struct LanDiscoveryStats {
  std::uint64_t sent = 0;            ///< announcement datagrams sent (one per interface)
  std::uint64_t received = 0;        ///< datagrams heard on the discovery port
  std::uint64_t other_sessions = 0;  ///< well-formed announcements of another session
  DropCounters dropped;              ///< garbage, wrong version, truncated, ...: by reason
};

/// Broadcasts one session. Throws std::invalid_argument for a bad config, an empty or too
/// long session name, or an address without a port; std::runtime_error when no socket can
/// be opened.
class LanAnnouncer {
 public:
  /// Announces `session`, reachable at `address`, on the config's port.
  LanAnnouncer(const LanDiscoveryConfig& config, std::string_view session, const Address& address);
  ~LanAnnouncer();
  LanAnnouncer(const LanAnnouncer&) = delete;
  LanAnnouncer& operator=(const LanAnnouncer&) = delete;

  /// Sends the announcement when the interval has passed (at once on the first call);
  /// otherwise returns at once. Never blocks, never allocates after the first call.
  void update();
  const LanDiscoveryStats& stats() const;  ///< what it has sent so far

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// Listens on the discovery port (shared with other seekers on the same machine). Throws
/// std::invalid_argument for a bad config, std::runtime_error when the port cannot be bound.
class LanSeeker {
 public:
  /// Binds the config's discovery port.
  explicit LanSeeker(const LanDiscoveryConfig& config);
  ~LanSeeker();
  LanSeeker(const LanSeeker&) = delete;
  LanSeeker& operator=(const LanSeeker&) = delete;

  /// Reads what has arrived without blocking; the first matching announcement, if any.
  std::optional<LanSession> poll(std::string_view session);
  /// Waits up to timeout_ms for a matching announcement.
  std::optional<LanSession> find(std::string_view session, int timeout_ms);
  const LanDiscoveryStats& stats() const;  ///< what it has heard and dropped so far

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace shoal
