// SPDX-License-Identifier: MIT
// The seeded link conditioner: one direction of a bad network, simulated in user space
// (kernel netem is not available on our machines). Pure: no sockets, no clock of its own.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "core/random.hpp"
#include "shoal/link_conditions.hpp"

namespace shoal::transport {

class LinkConditioner {
 public:
  LinkConditioner(const LinkConditions& conditions, std::uint64_t seed);

  /// Takes effect for later submits; datagrams already queued keep their schedule.
  void set_conditions(const LinkConditions& conditions);

  /// Offers a datagram sent at now_us: dropped, delayed (latency +- uniform jitter),
  /// duplicated, reordered (held back behind the next one), or rate-limited by the
  /// bandwidth cap (dropped when the backlog would pass queue_limit_bytes).
  void submit(std::int64_t now_us, std::span<const std::uint8_t> datagram);

  /// Takes the next datagram due at or before now_us, in delivery order; false when none is due.
  bool release(std::int64_t now_us, std::vector<std::uint8_t>& out);

  /// When the next datagram falls due; INT64_MAX when nothing is queued.
  std::int64_t next_release_us() const;

  struct Counters {
    std::uint64_t submitted = 0;
    std::uint64_t delivered = 0;
    std::uint64_t dropped_loss = 0;
    std::uint64_t dropped_queue = 0;
    std::uint64_t duplicated = 0;
    std::uint64_t reordered = 0;
  };
  const Counters& counters() const { return counters_; }

 private:
  struct Scheduled {
    std::int64_t release_us;
    std::uint64_t order;  ///< breaks ties: equal release times leave in submit order
    std::uint32_t buffer;
  };
  static bool later(const Scheduled& a, const Scheduled& b);

  std::uint32_t store(std::span<const std::uint8_t> datagram);
  void schedule(std::int64_t release_us, std::uint32_t buffer);
  std::int64_t delivery_time(std::int64_t sent_us);
  void flush_held_if_overdue(std::int64_t now_us);

  LinkConditions conditions_;
  core::Random random_;
  Counters counters_;
  std::uint64_t next_order_ = 0;
  std::int64_t link_free_at_us_ = 0;  ///< when the bandwidth-capped link finishes its backlog

  std::vector<Scheduled> queue_;  ///< min-heap on (release_us, order)
  /// A datagram held back for reordering: it leaves right after the next datagram that is
  /// scheduled, or at `release_us` + kMaxReorderHoldUs if none comes.
  std::optional<Scheduled> held_;

  // Payload storage: buffers are recycled, so steady state allocates nothing.
  std::vector<std::vector<std::uint8_t>> buffers_;
  std::vector<std::uint32_t> free_buffers_;
};

}  // namespace shoal::transport
