// SPDX-License-Identifier: MIT
// The rate of one peer's game messages (MessageConfig): two token buckets, bytes and messages,
// refilled continuously at the configured rate up to a burst of `burst_seconds` of it. The
// sender holds one for itself (Peer::send_message refuses past it); a receiver holds one per
// sender, with twice the burst, since the network may bunch what left evenly (a reliable
// stream stalled by a loss arrives at once). Integer arithmetic, so replays decide alike.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "shoal/messages.hpp"

namespace shoal::session {

class MessageLimiter {
 public:
  MessageLimiter(const MessageConfig& config, std::int64_t burst_seconds)
      : bytes_rate_(static_cast<std::int64_t>(config.max_bytes_per_second)),
        messages_rate_(config.max_messages_per_second),
        burst_us_(burst_seconds * kMicrosPerSecond),
        bytes_(bytes_rate_ * burst_us_),
        messages_(messages_rate_ * burst_us_) {}

  /// Spends one message of `size` bytes at `now_us` when both budgets allow it; false (nothing
  /// spent) otherwise.
  bool take(std::size_t size, std::int64_t now_us) {
    refill(now_us);
    const std::int64_t byte_cost = static_cast<std::int64_t>(size) * kMicrosPerSecond;
    if (bytes_ < byte_cost || messages_ < kMicrosPerSecond) return false;
    bytes_ -= byte_cost;
    messages_ -= kMicrosPerSecond;
    return true;
  }

 private:
  static constexpr std::int64_t kMicrosPerSecond = 1'000'000;
  void refill(std::int64_t now_us) {
    if (last_us_ >= 0 && now_us > last_us_) {
      const std::int64_t elapsed = std::min(now_us - last_us_, burst_us_);  // no overflow, full anyway
      bytes_ = std::min(bytes_ + elapsed * bytes_rate_, bytes_rate_ * burst_us_);
      messages_ = std::min(messages_ + elapsed * messages_rate_, messages_rate_ * burst_us_);
    }
    last_us_ = std::max(last_us_, now_us);
  }

  std::int64_t bytes_rate_;     // bytes per second
  std::int64_t messages_rate_;  // messages per second
  std::int64_t burst_us_;       // the most time the buckets hold
  std::int64_t bytes_;          // byte-microseconds available (bytes x 10^6)
  std::int64_t messages_;       // message-microseconds available
  std::int64_t last_us_ = -1;   // the last refill
};

}  // namespace shoal::session
