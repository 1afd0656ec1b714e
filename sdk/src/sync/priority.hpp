// SPDX-License-Identifier: MIT
// What to send to one receiver when not everything fits: a priority accumulator per object
// (Fiedler's scheme: every frame each candidate's accumulator grows by its priority; the
// highest go first and start again from zero), and a byte budget per second refilled every
// frame, whose unused part carries over up to one packet's worth.
#pragma once

#include <algorithm>
#include <vector>

#include "shoal/simulation.hpp"
#include "shoal/snapshot_config.hpp"

namespace shoal::sync {

/// ENet's command and protocol headers (12 bytes for one unreliable command) plus IPv4 and UDP
/// (28): what a snapshot datagram costs on the wire beyond its payload.
inline constexpr int kPacketOverheadBytes = 40;

struct PriorityFacts {
  bool at_rest = false;
  bool controlled = false;      ///< some peer's controlled object
  bool came_to_rest = false;    ///< at rest, and the receiver has not acknowledged it at rest
  float distance_m = -1;        ///< from the receiver's controlled object; < 0 = unknown
};

/// The object's priority for one receiver this frame.
inline float object_priority(const SnapshotConfig& c, const PriorityFacts& f) {
  float p = f.at_rest ? c.rest_priority : 1.0f;
  if (f.came_to_rest) p = std::max(p, c.came_to_rest_priority);
  if (f.controlled) p = std::max(p, c.controlled_priority);
  if (f.distance_m > c.lod_near_m && !f.controlled) {
    const float t = std::min(1.0f, (f.distance_m - c.lod_near_m) / (c.lod_far_m - c.lod_near_m));
    p *= 1.0f + (c.lod_far_factor - 1.0f) * t;
  }
  return p;
}

class PriorityAccumulator {
 public:
  explicit PriorityAccumulator(std::size_t bodies) : accumulated_(bodies, 0.0f) {}

  void add(BodyIndex body, float priority) { accumulated_[body] += priority; }
  void sent(BodyIndex body) { accumulated_[body] = 0; }
  float value(BodyIndex body) const { return accumulated_[body]; }

  /// Orders bodies by accumulated priority, highest first (ties: lower index first).
  /// Puts the `best` most important bodies first, in order (the rest follow in no order:
  /// fewer than `best` ever fit in one packet, so sorting them all would be wasted work).
  void order(std::vector<BodyIndex>& bodies, std::size_t best) const {
    auto more_important = [&](BodyIndex a, BodyIndex b) {
      return accumulated_[a] != accumulated_[b] ? accumulated_[a] > accumulated_[b] : a < b;
    };
    const auto end = bodies.begin() + static_cast<std::ptrdiff_t>(std::min(best, bodies.size()));
    if (end != bodies.end()) std::nth_element(bodies.begin(), end, bodies.end(), more_important);
    std::sort(bodies.begin(), end, more_important);
  }

 private:
  std::vector<float> accumulated_;
};

class ByteBudget {
 public:
  /// Adds one frame's share; what is left over carries up to `cap` bytes.
  void refill(double per_frame, double cap) { available_ = std::min(available_ + per_frame, cap); }
  double available() const { return available_; }
  /// Spending may go below zero (mandatory packets); the debt is paid from later frames.
  void spend(double bytes) { available_ -= bytes; }

 private:
  double available_ = 0;
};

}  // namespace shoal::sync
