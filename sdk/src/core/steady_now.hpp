// SPDX-License-Identifier: MIT
// The one reading of the local monotonic clock the SDK makes, in microseconds. Everything
// below the peer is handed its time; only the outermost loops (Peer::update() without a time,
// the relay and the link conditioner's own processes) read it, through this.
#pragma once

#include <chrono>
#include <cstdint>

namespace shoal::core {

inline std::int64_t steady_now_us() {
  return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace shoal::core
