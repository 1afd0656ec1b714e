// The snapshot: one peer's frame of owned-object states plus its recent inputs, sent on the
// state channel. Hand-written little-endian layout (SPEC.md); raw floats for now.
// Steady state allocates nothing: encode reuses the output vector, decode reuses the vectors
// of the caller's Snapshot.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "shoal/state.hpp"
#include "shoal/types.hpp"
#include "wire/packet_header.hpp"
#include "wire/state_checks.hpp"

namespace shoal::wire {

inline constexpr ObjectId kNoObject = 0xFFFFFFFF;


struct InputRecord {
  Frame frame = kNoFrame;
  Input input;

  bool operator==(const InputRecord&) const = default;
};

struct ObjectRecord {
  ObjectId id = 0;
  ObjectState state;

  bool operator==(const ObjectRecord&) const = default;
};

struct Snapshot {
  PeerId sender = kNoPeer;
  Frame frame = kNoFrame;
  ObjectId controlled = kNoObject;  ///< the sender's controlled object, kNoObject if none
  std::vector<InputRecord> inputs;
  std::vector<ObjectRecord> objects;

  bool operator==(const Snapshot&) const = default;
};

/// Encoded sizes, for callers that fill a snapshot up to the datagram limit.
inline constexpr std::size_t kSnapshotFixedBytes = kHeaderSize + 2 + 4 + 4 + 2 + 2;
inline constexpr std::size_t kInputRecordBytes = 4 + 3 * 4 + 4;
inline constexpr std::size_t kObjectRecordBytes = 4 + 13 * 4 + 1;
std::size_t encoded_size(const Snapshot& snapshot);

/// Writes header + body into `out` (replacing its contents, keeping its capacity). Returns
/// false, leaving `out` empty, when the snapshot exceeds kMaxUnreliableDatagram.
[[nodiscard]] bool encode(const Snapshot& snapshot, std::vector<std::uint8_t>& out);

/// Decodes a whole snapshot datagram into `snapshot`, reusing its vectors' capacity. Never
/// throws; on failure `snapshot` holds unspecified but valid values.
DecodeStatus decode(std::span<const std::uint8_t> datagram, Snapshot& snapshot);

}  // namespace shoal::wire
