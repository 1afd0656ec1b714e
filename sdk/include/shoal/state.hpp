// SPDX-License-Identifier: MIT
// Object state ("frame data") and player input: the values every layer exchanges.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "shoal/math.hpp"
#include "shoal/types.hpp"

namespace shoal {

/// The state of one object at one frame.
struct ObjectState {
  Vec3 position;  ///< metres, world frame
  Quat orientation;  ///< unit quaternion, body to world
  Vec3 linear_velocity;   ///< m/s
  Vec3 angular_velocity;  ///< rad/s, world frame
  bool at_rest = false;   ///< asleep: velocities are zero and the body does not move on its own

  bool operator==(const ObjectState&) const = default;  ///< compares every field exactly
};

/// An object's state tagged with the frame it belongs to.
struct FrameData {
  Frame frame = kNoFrame;  ///< the frame the state belongs to
  ObjectState state;  ///< the state
};

/// The most bytes of its own a game's input may carry per frame (SnapshotConfig::input_bytes).
inline constexpr std::size_t kMaxInputBytes = 64;

/// One frame of a player's (or bot's) input for the object it controls. Its meaning is the
/// game's; Shoal only stores, sends and replays it. The built-in physics reads `axis` as a
/// push direction scaled to [-1, 1] and ignores `buttons` and `bytes`.
struct Input {
  Vec3 axis;  ///< a push direction or stick, the game's meaning
  std::uint32_t buttons = 0;  ///< button bits, the game's meaning
  /// The game's own input (aim, throttle, a weapon choice), beside or instead of axis and
  /// buttons: its first SnapshotConfig::input_bytes bytes travel with the input; the rest must
  /// stay 0 (Peer::set_input throws otherwise).
  std::array<std::uint8_t, kMaxInputBytes> bytes{};

  bool operator==(const Input&) const = default;  ///< compares every field exactly
};

}  // namespace shoal
