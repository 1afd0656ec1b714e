// SPDX-License-Identifier: MIT
// What one peer knows of one object, for finding out why peers disagree on it
// (Peer::diagnose, and every desync event): its state at a frame, who owns it and since when,
// whether this peer simulates it, and what its owner last said of it.
#pragma once

#include <cstdint>
#include <vector>

#include "shoal/state.hpp"
#include "shoal/types.hpp"

namespace shoal {

/// One change of an object's owner, as this peer applied it.
struct OwnershipHistoryEntry {
  Frame frame = kNoFrame;      ///< the frame from which the new owner's state counts
  PeerId owner = kNoPeer;  ///< the new owner
  std::uint32_t sequence = 0;  ///< the object's change counter (the higher wins a race)
  PeerId author = kNoPeer;     ///< who made the change (the claimant, or the one handing over)
  Frame applied_at = kNoFrame; ///< this peer's newest frame when it applied the change

  bool operator==(const OwnershipHistoryEntry&) const = default;  ///< compares every field
};

/// What one peer knows of one object at one frame (Peer::diagnose), for finding out why peers
/// disagree.
struct ObjectDiagnosis {
  ObjectId object = 0;  ///< the object asked about
  Frame frame = kNoFrame;      ///< the frame asked about
  bool held = false;           ///< that frame is still in this peer's history
  ObjectState state;           ///< at `frame`, when held
  bool confirmed = false;      ///< ... and it is its owner's own state (not this peer's guess)
  PeerId owner = kNoPeer;      ///< now
  /// The last changes of its owner seen here, oldest first (at most kOwnershipHistory).
  std::vector<OwnershipHistoryEntry> ownership;
  bool frozen = false;         ///< left out of this peer's last step (outside its simulated region)
  /// The newest frame of it its owner sent that this peer took in, and this peer's newest
  /// frame at the time (kNoFrame: none yet; always kNoFrame for what this peer owns).
  Frame last_owner_frame = kNoFrame;
  Frame last_owner_frame_at = kNoFrame;  ///< this peer's newest frame when last_owner_frame arrived
  std::uint64_t overrides = 0; ///< owner frames of it that differed from this peer's own
  /// What the owner last said of it in a snapshot, as received (quantised, the newest held).
  bool owner_said = false;
  Frame owner_said_frame = kNoFrame;  ///< the frame of owner_said_state
  ObjectState owner_said_state;  ///< the owner's last state of it, as received
};

inline constexpr std::size_t kOwnershipHistory = 4;

}  // namespace shoal
