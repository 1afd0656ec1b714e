// SPDX-License-Identifier: MIT
// Buffers the peer's per-frame work reuses, sized once for the world, so that no frame
// allocates. They hold nothing from one use to the next, except `frozen_next`/`freezing`,
// which carry the bodies left out of the coming step from the tick that decides them to the
// step that applies them.
#pragma once

#include <cstdint>
#include <vector>

#include "shoal/state.hpp"
#include "wire/control_messages.hpp"
#include "wire/snapshot_codec.hpp"

namespace shoal {

struct FrameScratch {
  FrameScratch(std::size_t body_count, std::size_t user_bytes_max)
      : before(body_count),
        past_states(body_count),
        user_bytes_before(body_count * user_bytes_max),
        received_user_bytes(user_bytes_max),
        replay(body_count, 0),
        frozen_next(body_count) {}

  std::vector<ObjectState> before;               // sync-test mode: the straight run's newest frame
  std::vector<ObjectState> past_states;          // a past frame's, copied whole
  std::vector<std::uint8_t> user_bytes_before;   // sync-test mode: bodies x user_bytes.max
  std::vector<std::uint8_t> received_user_bytes;  // one body's, as a snapshot record carries them
  std::vector<std::uint8_t> replay;              // per body: replays its recorded frames
  std::vector<std::uint8_t> out;                 // an encoded control message
  std::vector<std::uint8_t> frozen_next;         // per body: left out of the next step
  bool freezing = false;                         // the last step was given frozen_next
  // Messages decoded and built here, kept so that their vectors keep their capacity.
  wire::Snapshot snapshot_in;
  wire::SnapshotAckMessage ack_in;
  wire::Checksum checksum_in, checksum_out;
};

}  // namespace shoal
