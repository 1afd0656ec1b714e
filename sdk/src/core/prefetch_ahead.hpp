// SPDX-License-Identifier: MIT
// Visiting items scattered over tables larger than the caches: each visit first asks for the
// memory of the visit `ahead` places on, so that the misses overlap instead of following one
// another.
#pragma once

#include <algorithm>
#include <cstddef>

namespace shoal::core {

/// Calls visit(k) for k = 0..count-1 in order, asking for the memory `lines_of(j)` names (a
/// range of addresses; null ones are skipped) `ahead` visits before visit(j), where there are
/// that many.
///
/// The prefetch instructions are issued here, not by a callback: GCC takes a function that only
/// prefetches for one without effects, and drops the calls to it when it does not inline it
/// (which left the smoother's prefetches out of the build).
template <class LinesOf, class Visit>
void visit_prefetching_ahead(std::size_t count, std::size_t ahead, LinesOf&& lines_of, Visit&& visit) {
  for (std::size_t k = 0; k < std::min(ahead, count); ++k) {
    for (const void* line : lines_of(k)) {
      if (line != nullptr) __builtin_prefetch(line);
    }
  }
  for (std::size_t k = 0; k < count; ++k) {
    if (k + ahead < count) {
      for (const void* line : lines_of(k + ahead)) {
        if (line != nullptr) __builtin_prefetch(line);
      }
    }
    visit(k);
  }
}

}  // namespace shoal::core
