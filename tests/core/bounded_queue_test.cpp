// SPDX-License-Identifier: MIT
// The bounded queue behind a peer's events: first in, first out through wrap-around and
// growth, the oldest dropped at the limit, and no growth once the traffic has settled.
#include <doctest/doctest.h>

#include <deque>
#include <stdexcept>
#include <string>

#include "core/bounded_queue.hpp"
#include "core/random.hpp"

using namespace shoal;

TEST_CASE("bounded queue: seeded pushes and pops give what a deque dropping its oldest gives") {
  constexpr std::size_t kLimit = 50;
  core::Random random(17);
  core::BoundedQueue<std::string> queue(kLimit);
  std::deque<std::string> reference;
  int dropped = 0;
  for (int step = 0; step < 20000; ++step) {
    // Phases of mostly pushing and mostly popping, so the queue fills, wraps and empties.
    const bool pushing = (step / 500) % 2 == 0 ? random.chance(0.7) : random.chance(0.3);
    if (pushing) {
      const std::string value = std::to_string(step);
      const bool full = reference.size() == kLimit;
      if (full) reference.pop_front();
      reference.push_back(value);
      CHECK(queue.push(value) == full);
      dropped += full ? 1 : 0;
    } else if (!reference.empty()) {
      REQUIRE_FALSE(queue.empty());
      CHECK(queue.pop() == reference.front());
      reference.pop_front();
    } else {
      CHECK(queue.empty());
    }
    REQUIRE(queue.size() == reference.size());
    CHECK(queue.capacity() <= kLimit);
  }
  CHECK(dropped > 0);  // the limit was reached
}

TEST_CASE("bounded queue: once it has held its most, it stops growing") {
  core::BoundedQueue<int> queue(4096);
  for (int i = 0; i < 100; ++i) queue.push(i);
  const std::size_t settled = queue.capacity();
  CHECK(settled >= 100);
  // A steady flow of at most 100 values held at once, wrapping the ring many times over.
  for (int i = 100; i < 100000; ++i) {
    queue.push(i);
    CHECK(queue.pop() == i - 100);
  }
  CHECK(queue.capacity() == settled);
  CHECK(queue.size() == 100);
}

TEST_CASE("bounded queue: a limit of 0 and a pop from an empty queue are refused with a message") {
  CHECK_THROWS_WITH_AS(core::BoundedQueue<int>(0), "BoundedQueue: the limit must be at least 1 value",
                       std::invalid_argument);
  core::BoundedQueue<int> queue(1);
  CHECK_THROWS_AS(queue.pop(), std::logic_error);
  CHECK_FALSE(queue.push(1));
  CHECK(queue.push(2));  // the limit: 1 goes
  CHECK(queue.pop() == 2);
}

TEST_CASE("bounded queue: front is the oldest value, full says whether the next push drops it") {
  core::BoundedQueue<int> queue(3);
  CHECK_THROWS_AS((void)queue.front(), std::logic_error);
  for (int i = 1; i <= 3; ++i) {
    CHECK_FALSE(queue.full());
    queue.push(i);
  }
  CHECK(queue.full());
  CHECK(queue.front() == 1);
  CHECK(queue.push(4));  // the one front named goes
  CHECK(queue.front() == 2);
  CHECK(queue.pop() == 2);
  CHECK_FALSE(queue.full());
}
