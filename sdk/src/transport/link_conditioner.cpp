// SPDX-License-Identifier: MIT
#include "transport/link_conditioner.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace shoal::transport {
namespace {

// How long a reordered datagram waits for a successor to overtake it before it leaves anyway,
// so a quiet link never strands it.
constexpr std::int64_t kMaxReorderHoldUs = 50'000;

std::int64_t ms_to_us(double ms) { return static_cast<std::int64_t>(std::llround(ms * 1000.0)); }

}  // namespace

LinkConditioner::LinkConditioner(const LinkConditions& conditions, std::uint64_t seed)
    : conditions_(conditions), random_(seed) {}

void LinkConditioner::set_conditions(const LinkConditions& conditions) { conditions_ = conditions; }

bool LinkConditioner::later(const Scheduled& a, const Scheduled& b) {
  return a.release_us != b.release_us ? a.release_us > b.release_us : a.order > b.order;
}

std::uint32_t LinkConditioner::store(std::span<const std::uint8_t> datagram) {
  std::uint32_t index = 0;
  if (free_buffers_.empty()) {
    index = static_cast<std::uint32_t>(buffers_.size());
    buffers_.emplace_back();
  } else {
    index = free_buffers_.back();
    free_buffers_.pop_back();
  }
  buffers_[index].assign(datagram.begin(), datagram.end());
  return index;
}

void LinkConditioner::schedule(std::int64_t release_us, std::uint32_t buffer) {
  queue_.push_back({release_us, next_order_++, buffer});
  std::push_heap(queue_.begin(), queue_.end(), later);
}

std::int64_t LinkConditioner::delivery_time(std::int64_t sent_us) {
  const double jitter = conditions_.jitter_ms > 0
                            ? random_.uniform(-conditions_.jitter_ms, conditions_.jitter_ms)
                            : 0.0;
  const double delay_ms = std::max(0.0, static_cast<double>(conditions_.latency_ms) + jitter);
  return sent_us + ms_to_us(delay_ms);
}

void LinkConditioner::submit(std::int64_t now_us, std::span<const std::uint8_t> datagram) {
  ++counters_.submitted;
  if (random_.chance(conditions_.loss)) {
    ++counters_.dropped_loss;
    return;
  }

  // Bandwidth cap: the link serialises datagrams one after another; what waits for the link
  // is the backlog, and a full backlog drops (a router's tail drop).
  std::int64_t sent_us = now_us;
  if (conditions_.bandwidth_bytes_per_s > 0) {
    const auto rate = static_cast<double>(conditions_.bandwidth_bytes_per_s);
    const std::int64_t start_us = std::max(now_us, link_free_at_us_);
    const double backlog_bytes = static_cast<double>(start_us - now_us) * rate / 1e6;
    if (backlog_bytes + static_cast<double>(datagram.size()) >
        static_cast<double>(conditions_.queue_limit_bytes)) {
      ++counters_.dropped_queue;
      return;
    }
    link_free_at_us_ =
        start_us + static_cast<std::int64_t>(static_cast<double>(datagram.size()) * 1e6 / rate);
    sent_us = link_free_at_us_;
  }

  const bool duplicate = random_.chance(conditions_.duplicate);
  const bool reorder = random_.chance(conditions_.reorder);
  const std::int64_t release_us = delivery_time(sent_us);

  if (reorder && !held_) {
    ++counters_.reordered;
    held_ = Scheduled{release_us, 0, store(datagram)};
  } else {
    schedule(release_us, store(datagram));
    if (held_) {
      // The held datagram leaves right behind the one that just overtook it.
      schedule(std::max(release_us, held_->release_us), held_->buffer);
      held_.reset();
    }
  }
  if (duplicate) {
    ++counters_.duplicated;
    schedule(delivery_time(sent_us), store(datagram));
  }
}

void LinkConditioner::flush_held_if_overdue(std::int64_t now_us) {
  if (held_ && now_us >= held_->release_us + kMaxReorderHoldUs) {
    schedule(held_->release_us + kMaxReorderHoldUs, held_->buffer);
    held_.reset();
  }
}

bool LinkConditioner::release(std::int64_t now_us, std::vector<std::uint8_t>& out) {
  flush_held_if_overdue(now_us);
  if (queue_.empty() || queue_.front().release_us > now_us) return false;
  std::pop_heap(queue_.begin(), queue_.end(), later);
  const std::uint32_t buffer = queue_.back().buffer;
  queue_.pop_back();
  out.assign(buffers_[buffer].begin(), buffers_[buffer].end());
  free_buffers_.push_back(buffer);
  ++counters_.delivered;
  return true;
}

std::int64_t LinkConditioner::next_release_us() const {
  std::int64_t next = queue_.empty() ? std::numeric_limits<std::int64_t>::max()
                                     : queue_.front().release_us;
  if (held_) next = std::min(next, held_->release_us + kMaxReorderHoldUs);
  return next;
}

}  // namespace shoal::transport
