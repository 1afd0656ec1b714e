// SPDX-License-Identifier: MIT
// The C++ side of the C# binding's benchmark: C++ calling libshoal_c (the library the binding
// calls), timing each shoal_peer_update_at on the steady clock, for the same peers of the same
// match that the C# side updates through the binding in the rounds between.
#include <chrono>
#include <cstdint>

#include "shoal/shoal.h"

#if defined(_WIN32)
#define SHOAL_BENCH_EXPORT extern "C" __declspec(dllexport)
#else
#define SHOAL_BENCH_EXPORT extern "C" __attribute__((visibility("default")))
#endif

/// Updates each of `count` peers at `now_us`, in order; returns the nanoseconds spent inside
/// shoal_peer_update_at, summed, or -1 when a call failed (shoal_last_error says why).
SHOAL_BENCH_EXPORT std::int64_t shoal_bench_update_peers(shoal_peer* const* peers, std::int32_t count, std::int64_t now_us) {
  using Clock = std::chrono::steady_clock;
  std::int64_t total_ns = 0;
  for (std::int32_t p = 0; p < count; ++p) {
    const Clock::time_point start = Clock::now();
    const int status = shoal_peer_update_at(peers[p], now_us);
    total_ns += std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count();
    if (status != SHOAL_OK) return -1;
  }
  return total_ns;
}
