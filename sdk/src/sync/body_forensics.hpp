// SPDX-License-Identifier: MIT
// Per body, what a peer keeps only to explain itself when peers disagree (shoal/diagnosis.hpp):
// the newest owner frame it took in and when, how often its owner overrode it, and its last few
// owner changes. A few stores per received record; nothing reads it in the tick.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "shoal/diagnosis.hpp"
#include "shoal/simulation.hpp"

namespace shoal::sync {

class BodyForensics {
 public:
  explicit BodyForensics(std::size_t bodies)
      : owner_frame_(bodies, kNoFrame), owner_frame_at_(bodies, kNoFrame), overrides_(bodies, 0), changes_(bodies) {}

  void took_owner_frame(BodyIndex body, Frame frame, Frame newest) {
    if (frame < owner_frame_[body]) return;
    owner_frame_[body] = frame;
    owner_frame_at_[body] = newest;
  }
  void overridden(BodyIndex body) { ++overrides_[body]; }
  void owner_changed(BodyIndex body, const OwnershipHistoryEntry& change) {
    Changes& c = changes_[body];
    c.ring[c.next % kOwnershipHistory] = change;
    ++c.next;
  }

  /// Fills the diagnosis fields this part holds.
  void describe(BodyIndex body, ObjectDiagnosis& out) const {
    out.last_owner_frame = owner_frame_[body];
    out.last_owner_frame_at = owner_frame_at_[body];
    out.overrides = overrides_[body];
    const Changes& c = changes_[body];
    const std::uint32_t kept = std::min<std::uint32_t>(c.next, kOwnershipHistory);
    out.ownership.clear();
    for (std::uint32_t i = c.next - kept; i < c.next; ++i) out.ownership.push_back(c.ring[i % kOwnershipHistory]);
  }

 private:
  struct Changes {
    std::array<OwnershipHistoryEntry, kOwnershipHistory> ring{};
    std::uint32_t next = 0;
  };
  std::vector<Frame> owner_frame_, owner_frame_at_;
  std::vector<std::uint64_t> overrides_;
  std::vector<Changes> changes_;
};

}  // namespace shoal::sync
