// SPDX-License-Identifier: MIT
// When to hold a resting copy up against its owner's last word. A body this peer does not own
// that changed here (a step or a catch-up moved it) and then kept still for a while should
// rest where its owner says it rests; where it does not, this peer's simulation went its own
// way unseen (the owner, whose copy never moved, has nothing new to send) and asks for the
// owner's state. That repair is what owners' periodic refreshes of settled objects were for;
// asking only where a copy changed spares every receiver most of them.
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
  /// `delay`: frames a body must keep still before its check (at least 1); long enough for
  /// the owner's record of the frame it came to rest in to have arrived.
  RestChecks(std::size_t bodies, Frame delay)
      : delay_(delay < 1 ? 1 : delay), last_changed_(bodies, kNoFrame), queued_(bodies, 0) {
    queue_.reserve(2 * bodies);  // pending (one per body at most) and the processed front
  }

  /// Notes that `bodies` changed in or before `now`, the newest frame; each is checked once it
  /// has kept still for `delay` frames. Duplicates are fine.
  void changed(std::span<const BodyIndex> bodies, Frame now) {
    for (const BodyIndex b : bodies) {
      if (b >= last_changed_.size()) continue;
      last_changed_[b] = now;
      if (queued_[b] == 0) {
        queued_[b] = 1;
        queue_.push_back({now + delay_, b});
      }
    }
  }

  /// Calls check(body) for each body that has kept still since `delay` frames before `now`;
  /// check returns false to be asked again `delay` frames later (the owner's word is not in
  /// yet, or a repair it asked for has not arrived), true when done. Bodies that changed again
  /// meanwhile wait again.
  template <class Check>
  void run(Frame now, Check&& check) {
    const std::size_t end = queue_.size();
    // Everything queued is due at most `delay` frames from its queueing, in queueing order:
    // the due ones come first.
    while (head_ < end && queue_[head_].due <= now) {
      const BodyIndex b = queue_[head_++].body;
      if (last_changed_[b] + delay_ > now || !check(b)) {
        queue_.push_back({now + delay_, b});
      } else {
        queued_[b] = 0;
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
  };
  Frame delay_;
  std::vector<Frame> last_changed_;
  std::vector<std::uint8_t> queued_;
  std::vector<Entry> queue_;  // [head_, end): pending, due times non-decreasing
  std::size_t head_ = 0;
};

}  // namespace shoal::sync
