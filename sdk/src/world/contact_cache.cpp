// SPDX-License-Identifier: MIT
#include "world/contact_cache.hpp"

#include <algorithm>

namespace shoal::world {
namespace {

// A contact point that moved further than this since the last step is a new contact.
constexpr float kMatchDistance = 0.05f;  // m

bool pair_less(const CachedImpulse& x, const CachedImpulse& y) {
  return x.a != y.a ? x.a < y.a : x.b < y.b;
}

bool pair_then_order_less(const CachedImpulse& x, const CachedImpulse& y) {
  return x.a != y.a ? x.a < y.a : x.b != y.b ? x.b < y.b : x.order < y.order;
}

}  // namespace

ContactCache::ContactCache(std::size_t frames) : buffers_(frames + 1), slots_(frames) {
  for (std::size_t i = 0; i < frames; ++i) slots_[i] = i + 1;
}

void ContactCache::save(std::size_t slot) {
  std::size_t& saved = slots_.at(slot);
  if (current_ == spare_) {  // stepped since the last save or restore: the buffer changes hands
    std::swap(saved, spare_);
  } else if (current_ != saved) {  // restored another frame and saved it unstepped (rare)
    buffers_[saved] = buffers_[current_];
  }
  current_ = saved;
}

void ContactCache::restore(std::size_t slot) { current_ = slots_.at(slot); }

void ContactCache::clear() {
  buffers_[spare_].clear();
  current_ = spare_;
}

void ContactCache::store(std::span<const SolverContact> contacts, std::span<const Pose> poses) {
  // Into the spare buffer: the current one may be a saved frame's. (Two steps without a save
  // between write the spare twice: warm() has read it before.)
  std::vector<CachedImpulse>& entries = buffers_[spare_];
  current_ = spare_;
  entries.resize(contacts.size());
  for (std::size_t i = 0; i < contacts.size(); ++i) {
    const SolverContact& c = contacts[i];
    const Pose& pose = poses[c.a];
    entries[i] = {c.a, c.b, pose.to_local_direction(c.point - pose.position), c.normal_impulse,
                  c.tangent1_impulse, c.tangent2_impulse, static_cast<std::uint32_t>(i)};
  }
  // A total order (std::sort needs no buffer, unlike stable_sort): the result depends only on
  // the contacts.
  std::sort(entries.begin(), entries.end(), pair_then_order_less);
}

void ContactCache::warm(std::span<SolverContact> contacts, std::span<const Pose> poses) const {
  const std::vector<CachedImpulse>& entries = buffers_[current_];
  for (SolverContact& c : contacts) {
    const CachedImpulse key{c.a, c.b, {}, 0, 0, 0, 0};
    const auto [first, last] = std::equal_range(entries.begin(), entries.end(), key, pair_less);
    const CachedImpulse* best = nullptr;
    float best_distance_sq = kMatchDistance * kMatchDistance;
    for (auto it = first; it != last; ++it) {
      const float d = length_squared(poses[c.a].to_world(it->local_point) - c.point);
      if (d < best_distance_sq) {
        best_distance_sq = d;
        best = &*it;
      }
    }
    if (best != nullptr) {
      c.normal_impulse = best->normal;
      c.tangent1_impulse = best->tangent1;
      c.tangent2_impulse = best->tangent2;
    }
  }
}

}  // namespace shoal::world
