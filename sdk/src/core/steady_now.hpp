// SPDX-License-Identifier: MIT
// The one reading of the local monotonic clock the SDK makes, in microseconds. Everything
// below the peer is handed its time, the transports' timers too (Transport::poll(event,
// now_us)); only the outermost loops read it, through this: Peer::update() without a time, a
// transport's poll(event) without one, the relay's loop (RelayServer::poll()) and shoal-netsim.
// The link conditioner in front of ENet reads it as each datagram arrives (conditioned_relay.cpp).
#pragma once

#include <chrono>
#include <cstdint>

namespace shoal::core {

inline std::int64_t steady_now_us() {
  return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace shoal::core
