// SPDX-License-Identifier: MIT
// A first-in, first-out queue of at most `limit` values that drops its oldest to make room.
// The values live in one ring that grows to the most the queue ever held and then stays: once
// the traffic has settled, queueing allocates nothing (a std::deque allocates and frees a block
// every few values as they pass through).
#pragma once

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <utility>
#include <vector>

namespace shoal::core {

template <class T>
class BoundedQueue {
 public:
  /// Throws std::invalid_argument for a limit of 0.
  explicit BoundedQueue(std::size_t limit) : limit_(limit) {
    if (limit == 0) throw std::invalid_argument("BoundedQueue: the limit must be at least 1 value");
  }

  bool empty() const { return count_ == 0; }
  std::size_t size() const { return count_; }
  /// Whether the next push drops the oldest value.
  bool full() const { return count_ == limit_; }
  /// The oldest value. Throws std::logic_error when the queue is empty.
  const T& front() const {
    if (count_ == 0) throw std::logic_error("BoundedQueue::front: the queue is empty");
    return ring_[head_];
  }
  /// Values the ring holds room for: it grows up to the limit, never shrinks.
  std::size_t capacity() const { return ring_.size(); }

  /// Appends `value`. At the limit the oldest value is dropped first; returns whether one was.
  bool push(T value) {
    const bool full = count_ == limit_;
    if (full) {
      head_ = next(head_);
      --count_;
    } else if (count_ == ring_.size()) {
      grow();
    }
    ring_[(head_ + count_) % ring_.size()] = std::move(value);
    ++count_;
    return full;
  }
  /// Takes the oldest value. Throws std::logic_error when the queue is empty.
  T pop() {
    if (count_ == 0) throw std::logic_error("BoundedQueue::pop: the queue is empty");
    T value = std::move(ring_[head_]);
    head_ = next(head_);
    --count_;
    return value;
  }

 private:
  std::size_t next(std::size_t slot) const { return slot + 1 == ring_.size() ? 0 : slot + 1; }
  void grow() {
    constexpr std::size_t kFirstRoom = 8;
    std::vector<T> larger(std::min(limit_, std::max(kFirstRoom, 2 * ring_.size())));
    for (std::size_t i = 0; i < count_; ++i) larger[i] = std::move(ring_[(head_ + i) % ring_.size()]);
    ring_ = std::move(larger);
    head_ = 0;
  }

  std::size_t limit_;
  std::vector<T> ring_;
  std::size_t head_ = 0;   // the oldest value's slot
  std::size_t count_ = 0;  // values held
};

}  // namespace shoal::core
