// Visiting items scattered over tables larger than the caches: each visit first asks for the
// memory of the visit `ahead` places on, so that the misses overlap instead of following one
// another.
#pragma once

#include <algorithm>
#include <cstddef>

namespace shoal::core {

/// Calls visit(k) for k = 0..count-1 in order, with prefetch(j) called for every j before
/// visit(j), `ahead` visits earlier where there are that many.
template <class Prefetch, class Visit>
void visit_prefetching_ahead(std::size_t count, std::size_t ahead, Prefetch&& prefetch, Visit&& visit) {
  for (std::size_t k = 0; k < std::min(ahead, count); ++k) prefetch(k);
  for (std::size_t k = 0; k < count; ++k) {
    if (k + ahead < count) prefetch(k + ahead);
    visit(k);
  }
}

}  // namespace shoal::core
