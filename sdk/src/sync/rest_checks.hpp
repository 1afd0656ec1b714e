// SPDX-License-Identifier: MIT
// When to hold a copy up against its owner's last word. A body this peer does not own that
// changed here (a step or a catch-up moved it) should, once it has kept still for a while,
// rest where its owner says it rests; and one that keeps moving here for as long should have
// heard its owner say so. Where neither holds, this peer's simulation went its own way unseen
// (the owner, whose copy never moved, has nothing new to send) and asks for the owner's state.
// That repair is what owners' periodic refreshes of settled objects were for; asking only where
// a copy changed spares every receiver most of them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "shoal/simulation.hpp"
#include "shoal/types.hpp"

namespace shoal::sync {

class RestChecks {
 public:
  /// `delay`: frames between a body's checks, and that it must keep still to be checked as
  /// resting (at least 1); long enough for the owner's record of the frame it came to rest in,
  /// or of its starting to move, to have arrived.
  RestChecks(std::size_t bodies, Frame delay)
      : delay_(delay < 1 ? 1 : delay), last_changed_(bodies, kNoFrame), queued_(bodies, 0) {
    queue_.reserve(2 * bodies);  // pending (one per body at most) and the processed front
  }

  /// Notes that `bodies` changed in or before `now`, the newest frame; each is checked `delay`
  /// frames later, and every `delay` frames until it has kept still for as long and its check
  /// is done. Duplicates are fine.
  void changed(std::span<const BodyIndex> bodies, Frame now) {
    for (const BodyIndex b : bodies) {
      if (b >= last_changed_.size()) continue;
      last_changed_[b] = now;
      if (queued_[b] == 0) {
        queued_[b] = 1;
        queue_.push_back({now + delay_, b, now});
      }
    }
  }

  /// Calls check(body, still, since) for each body due: queued `delay` frames ago or more,
  /// having changed since frame `since` (its first change since its last check was done) and
  /// `still` when it has kept still for the last `delay` frames. check returns false to be
  /// asked again `delay` frames later (the owner's word is not in yet, or a repair it asked for
  /// has not arrived), true when done; a body that is not still is always asked again.
  template <class Check>
  void run(Frame now, Check&& check) {
    const std::size_t end = queue_.size();
    // Everything queued is due at most `delay` frames from its queueing, in queueing order:
    // the due ones come first.
    while (head_ < end && queue_[head_].due <= now) {
      const Entry e = queue_[head_++];
      const bool still = last_changed_[e.body] + delay_ <= now;
      if (!check(e.body, still, e.since) || !still) {
        queue_.push_back({now + delay_, e.body, e.since});
      } else {
        queued_[e.body] = 0;
      }
    }
    if (head_ > queue_.size() / 2) {  // drop the processed front now and then: no growth
      queue_.erase(queue_.begin(), queue_.begin() + static_cast<std::ptrdiff_t>(head_));
      head_ = 0;
    }
  }

  /// Forgets every pending check (a new match).
  void clear() {
    for (std::size_t i = head_; i < queue_.size(); ++i) queued_[queue_[i].body] = 0;
    queue_.clear();
    head_ = 0;
  }

  std::size_t pending() const { return queue_.size() - head_; }

 private:
  struct Entry {
    Frame due;
    BodyIndex body;
    Frame since;  // its first change since its last check was done
  };
  Frame delay_;
  std::vector<Frame> last_changed_;
  std::vector<std::uint8_t> queued_;
  std::vector<Entry> queue_;  // [head_, end): pending, due times non-decreasing
  std::size_t head_ = 0;
};

}  // namespace shoal::sync
