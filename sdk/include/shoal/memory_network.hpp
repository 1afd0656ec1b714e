// SPDX-License-Identifier: MIT
// An in-process network for tests and tools: endpoints are Transports whose delivery the
// caller controls. Time is the caller's (set_time_us), so a test replays exactly from its seed;
// unreliable channels go through the same seeded link conditioner as the ENet transport, the
// reliable channel is delayed (and retransmitted when "lost") but always delivered in order.
#pragma once

#include <cstdint>
#include <memory>

#include "shoal/link_conditions.hpp"
#include "shoal/transport.hpp"

namespace shoal {

/// An in-process network whose clock and delivery a test controls: endpoints exchange datagrams
/// without sockets, with optional loss and latency, the same on every run for one seed.
class MemoryNetwork {
 public:
  /// A network whose random impairments follow `seed`.
  explicit MemoryNetwork(std::uint64_t seed = 1);
  ~MemoryNetwork();
  MemoryNetwork(const MemoryNetwork&) = delete;
  MemoryNetwork& operator=(const MemoryNetwork&) = delete;

  /// A new endpoint at the fake address "mem:<port>". Port 0 picks the next free one.
  /// Throws std::invalid_argument when the port is taken.
  std::unique_ptr<Transport> create_endpoint(std::uint16_t port = 0,
                                             std::uint32_t timeout_ms = 5000);

  void set_time_us(std::int64_t now_us);  ///< Sets the network's clock, which decides what latency lets through.
  std::int64_t time_us() const;  ///< the network's clock, microseconds

  /// Impairs every link, both directions (replaces per-link settings).
  void set_conditions(const LinkConditions& conditions);
  /// Impairs the direction from -> to only.
  void set_conditions(std::uint16_t from_port, std::uint16_t to_port,
                      const LinkConditions& conditions);
  /// Cuts (or restores) both directions between two endpoints: everything sent is lost,
  /// the reliable channel stalls and connections time out after their timeout.
  void set_blocked(std::uint16_t port_a, std::uint16_t port_b, bool blocked);
  /// Makes an endpoint fall silent as if its process crashed: peers see a timeout.
  void crash(std::uint16_t port);

  struct Impl;

 private:
  std::shared_ptr<Impl> impl_;
};

}  // namespace shoal
