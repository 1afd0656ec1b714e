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

void ContactCache::store(std::span<const SolverContact> contacts, std::span<const Pose> poses) {
  entries_.resize(contacts.size());
  for (std::size_t i = 0; i < contacts.size(); ++i) {
    const SolverContact& c = contacts[i];
    const Pose& pose = poses[c.a];
    entries_[i] = {c.a, c.b, pose.to_local_direction(c.point - pose.position), c.normal_impulse,
                   c.tangent1_impulse, c.tangent2_impulse, static_cast<std::uint32_t>(i)};
  }
  // A total order (std::sort needs no buffer, unlike stable_sort): the result depends only on
  // the contacts.
  std::sort(entries_.begin(), entries_.end(), pair_then_order_less);
}

void ContactCache::warm(std::span<SolverContact> contacts, std::span<const Pose> poses) const {
  for (SolverContact& c : contacts) {
    const CachedImpulse key{c.a, c.b, {}, 0, 0, 0, 0};
    const auto [first, last] = std::equal_range(entries_.begin(), entries_.end(), key, pair_less);
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
