// SPDX-License-Identifier: MIT
// Watches heap allocations made by the test binary (global operator new is replaced in
// allocation_counter.cpp), so tests can prove that a decoder allocates nothing, or nothing big.
#pragma once

#include <cstddef>

namespace shoal::test {

struct AllocationStats {
  std::size_t count = 0;
  std::size_t largest = 0;
};

/// Resets the counters; allocations from now on are recorded.
void start_counting_allocations();
/// What was allocated since start_counting_allocations().
AllocationStats counted_allocations();

}  // namespace shoal::test
