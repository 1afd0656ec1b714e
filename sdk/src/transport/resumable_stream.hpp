// SPDX-License-Identifier: MIT
// Reliable, ordered, exactly-once delivery across a path that may lose what is in flight
// (a relay restart, a switch between relay and direct paths). Each message gets a sequence
// number; the sender keeps it until the receiver's cumulative ack covers it and, when told
// the path was re-established (or nothing was acked for a while), sends every unacked
// message again, oldest first (go-back-N). The receiver delivers only the next expected
// number: duplicates and anything past a gap are dropped and come again.
// Sequence numbers wrap; comparisons use the signed distance.
#pragma once

#include <cstdint>
#include <deque>
#include <span>
#include <vector>

namespace shoal::transport {

class ResumableStream {
 public:
  struct Pending {
    std::uint32_t seq = 0;
    std::vector<std::uint8_t> bytes;
  };

  // --- sending side ---
  /// Stores a message and returns its sequence number.
  std::uint32_t push(std::span<const std::uint8_t> bytes);
  /// Frees every message the receiver has (all before `next_expected`); true if any.
  bool acknowledge(std::uint32_t next_expected);
  const std::deque<Pending>& unacked() const { return unacked_; }
  std::size_t unacked_bytes() const { return unacked_bytes_; }

  // --- receiving side ---
  enum class Verdict : std::uint8_t { deliver, duplicate, gap };
  /// Deliver only when `seq` is the next expected one; the ack then moves on.
  Verdict receive(std::uint32_t seq);
  std::uint32_t next_expected() const { return next_expected_; }

 private:
  std::uint32_t next_seq_ = 0;
  std::deque<Pending> unacked_;
  std::size_t unacked_bytes_ = 0;
  std::uint32_t next_expected_ = 0;
};

}  // namespace shoal::transport
