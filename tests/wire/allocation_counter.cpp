// SPDX-License-Identifier: MIT
#include "allocation_counter.hpp"

#include <atomic>
#include <cstdlib>
#include <new>

namespace {
std::atomic<std::size_t> g_count{0};
std::atomic<std::size_t> g_largest{0};
}  // namespace

namespace shoal::test {

void start_counting_allocations() {
  g_count = 0;
  g_largest = 0;
}

AllocationStats counted_allocations() { return {g_count.load(), g_largest.load()}; }

}  // namespace shoal::test

void* operator new(std::size_t size) {
  ++g_count;
  std::size_t largest = g_largest.load();
  while (size > largest && !g_largest.compare_exchange_weak(largest, size)) {
  }
  if (void* memory = std::malloc(size == 0 ? 1 : size)) return memory;
  throw std::bad_alloc();
}
void operator delete(void* memory) noexcept { std::free(memory); }
void operator delete(void* memory, std::size_t) noexcept { std::free(memory); }
