// SPDX-License-Identifier: MIT
// The snapshot: one peer's frame of owned-object states plus its recent inputs and its acks
// of the peer's snapshots, bit-packed (SPEC.md, "Snapshot"). Objects are quantised
// (wire/quantize.hpp) and, when a baseline is given, encoded relative to it; or raw floats.
// The codec is pure: it carries deltas as they are; make_record and apply_record turn states
// into records and back against a baseline the caller keeps.
// Steady state allocates nothing: encode reuses the output vector, decode reuses the vectors
// of the caller's Snapshot.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "shoal/simulation.hpp"
#include "shoal/state.hpp"
#include "shoal/types.hpp"
#include "wire/packet_header.hpp"
#include "wire/quantize.hpp"
#include "wire/state_checks.hpp"
#include "wire/user_bytes.hpp"

namespace shoal::wire {

inline constexpr ObjectId kNoObject = 0xFFFFFFFF;
/// Body indices on the wire are 20 bits.
inline constexpr std::uint32_t kMaxBodies = 1u << 20;
inline constexpr std::size_t kMaxInputRecords = 16;
/// How far ahead of its snapshot's frame an input may be (a sender's input delay), and behind.
inline constexpr std::int32_t kMaxInputFramesAhead = 16;
inline constexpr std::int32_t kMaxInputFramesBack = 239;
inline constexpr std::size_t kMaxAckResets = 15;
/// Baseline ages the format can express.
inline constexpr std::uint32_t kMaxBaselineAge = 1056;


struct InputRecord {
  Frame frame = kNoFrame;  ///< at most 255 frames before the snapshot's frame
  Input input;

  bool operator==(const InputRecord&) const = default;
};

enum class Coding : std::uint8_t { unchanged, delta, absolute };

/// Three quantised values: absolute, or differences from the baseline's.
struct VectorField {
  Coding coding = Coding::absolute;
  std::array<std::int32_t, 3> value{};

  bool operator==(const VectorField&) const = default;
};

struct ObjectRecord {
  BodyIndex index = 0;             ///< the body's index: bodies are in the same order everywhere
  std::uint32_t baseline_age = 0;  ///< frames back to the baseline; 0 = none, every field absolute
  bool at_rest = false;
  VectorField position;
  std::uint32_t largest = 0;  ///< orientation's dropped component, when it is absolute
  VectorField orientation;    ///< the smallest three
  VectorField linear_velocity, angular_velocity;  ///< unchanged (zero) at rest, unless sent
  ObjectState raw;            ///< the whole state, in raw-float snapshots only
  /// The body's user bytes (size fixed by its type; 0 = none). With a baseline they may be
  /// `user_bytes_unchanged` instead: the baseline's, and `data` is not carried.
  UserBytes user_bytes;
  bool user_bytes_unchanged = false;

  bool operator==(const ObjectRecord&) const = default;
};

/// What a receiver has received of the snapshots of the peer it sends this to.
struct SnapshotAck {
  std::uint16_t newest = 0;       ///< newest snapshot sequence received
  std::uint32_t previous = 0;     ///< bit i set: sequence newest - 1 - i received too
  std::vector<BodyIndex> resets;  ///< objects whose baseline the receiver lacks (<= 15)

  bool operator==(const SnapshotAck&) const = default;
};

struct Snapshot {
  PeerId sender = kNoPeer;
  Frame frame = kNoFrame;
  std::uint16_t sequence = 0;  ///< per sender and receiver, for acks
  bool quantized = true;
  bool velocities_at_rest = false;
  ObjectId controlled = kNoObject;  ///< the sender's controlled object, kNoObject if none
  bool has_ack = false;
  SnapshotAck ack;
  std::vector<InputRecord> inputs;
  std::vector<ObjectRecord> objects;  ///< strictly ascending index

  bool operator==(const Snapshot&) const = default;
};

/// A record's bits after its index code, written once (encode_record) and appended to every
/// packet that carries it: a body that goes to several peers in one frame, against baselines
/// of the same age, is encoded once.
struct EncodedRecord {
  /// The longest record: raw floats (1 + 13 x 32 bits) and user bytes (1 + 8 x kMaxUserBytes).
  static constexpr std::size_t kMaxBits = 1 + 13 * 32 + 1 + 8 * kMaxUserBytes;
  std::array<std::uint64_t, (kMaxBits + 63) / 64> words{};
  std::uint32_t bits = 0;
};

/// A record to write: the body's index and the bits encode_record wrote for it.
struct EncodedRef {
  BodyIndex index = 0;
  const EncodedRecord* encoded = nullptr;
};

/// A standalone ack, for a peer with nothing else to send.
struct SnapshotAckMessage {
  PeerId sender = kNoPeer;
  SnapshotAck ack;

  bool operator==(const SnapshotAckMessage&) const = default;
};

/// The record of `current`, relative to `baseline` (age frames old) when given.
ObjectRecord make_record(BodyIndex index, const QuantizedState& current,
                         const QuantizedState* baseline, std::uint32_t age);
/// The state a record describes; nullopt when a value falls outside the quantiser's limits
/// (corrupt) or the record needs a baseline and none is given.
std::optional<QuantizedState> apply_record(const ObjectRecord& record, const QuantizedState* baseline,
                                           const Quantizer& quantizer);

/// Sets the record's user bytes to `current`, as "unchanged" when the record has a baseline
/// and `baseline` (that baseline's bytes) equals them.
void set_user_bytes(ObjectRecord& record, std::span<const std::uint8_t> current,
                    std::span<const std::uint8_t> baseline);
/// Writes the bytes a record describes into `out` (record.user_bytes.size of them); false when
/// they are the baseline's and `baseline` is shorter (none held).
[[nodiscard]] bool apply_user_bytes(const ObjectRecord& record, std::span<const std::uint8_t> baseline,
                                    std::span<std::uint8_t> out);

/// Bits of everything before the records, and of one record (its index gap counted as
/// `gap`), as encode writes them.
std::size_t header_bits(const Snapshot& snapshot);
std::size_t record_bits(const Snapshot& snapshot, const ObjectRecord& record, BodyIndex gap,
                        const QuantizedLimits& limits);
/// Bits of a record's index code for an index `gap` past the previous record's: a record's
/// other bits do not depend on the gap, so record_bits(r, g) = record_bits(r, 0) - index_bits(0)
/// + index_bits(g), and a packet's exact size follows from its records' sizes at any gap.
std::size_t index_bits(BodyIndex gap);
/// Whole bytes of the datagram for `bits` of body.
constexpr std::size_t datagram_bytes(std::size_t bits) { return kHeaderSize + (bits + 7) / 8; }

/// Writes header + body into `out` (replacing its contents, keeping its capacity). Returns
/// false, leaving `out` empty, when the datagram would exceed kMaxUnreliableDatagram or a
/// field is outside what the format can carry.
[[nodiscard]] bool encode(const Snapshot& snapshot, const QuantizedLimits& limits,
                          std::vector<std::uint8_t>& out);
/// The bits of `record` after its index code, as packets of `snapshot` carry them (they depend
/// on the snapshot only through its `quantized` and `velocities_at_rest`). False when a field
/// is outside what the format can carry.
[[nodiscard]] bool encode_record(const Snapshot& snapshot, const ObjectRecord& record,
                                 const QuantizedLimits& limits, EncodedRecord& out);
/// encode() of records encoded beforehand, `records` in strictly ascending index (the
/// snapshot's `objects` are not read): the same bytes as encode() of those records.
[[nodiscard]] bool encode(const Snapshot& snapshot, std::span<const EncodedRef> records,
                          std::vector<std::uint8_t>& out);
[[nodiscard]] bool encode(const SnapshotAckMessage& message, std::vector<std::uint8_t>& out);

/// Decodes a whole datagram, reusing the vectors' capacity. Never throws; on failure the
/// message holds unspecified but valid values. `user_bytes_sizes[body]` is the number of user
/// bytes records of that body carry (the receiver knows it from the body's type); bodies past
/// its end carry none.
DecodeStatus decode(std::span<const std::uint8_t> datagram, const QuantizedLimits& limits,
                    Snapshot& snapshot, std::span<const std::uint8_t> user_bytes_sizes = {});
DecodeStatus decode(std::span<const std::uint8_t> datagram, SnapshotAckMessage& message);

}  // namespace shoal::wire
