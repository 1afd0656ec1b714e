// SPDX-License-Identifier: MIT
// The snapshot codec with its baselines (wire/snapshot_codec.hpp, sync/snapshot_baselines.hpp),
// as a receiver runs it: a sequence of snapshot and snapshot_ack datagrams from one sender,
// each decoded, its acks applied to what this side "sent" back, its records resolved against
// the baselines received before (user bytes included) and stored as baselines in turn.
//
// Input: one byte that sets every body's user-byte count (its value mod 33), then datagrams,
// each a u16 length and that many bytes. Properties: an accepted snapshot re-encodes to the same
// bytes; every state a record resolves to is finite with a unit orientation; acks stay in bounds.
#include <algorithm>
#include <array>
#include <vector>

#include "fuzz_target.hpp"
#include "sync/snapshot_baselines.hpp"
#include "wire/snapshot_codec.hpp"
#include "wire/state_checks.hpp"

using namespace shoal;
using namespace shoal::wire;

namespace {

constexpr std::size_t kBodies = 64;  // records of bodies past these are dropped, as a peer does

struct Receiver {
  explicit Receiver(std::size_t bytes_per_body)
      : user_bytes(bytes_per_body), sizes(kBodies, static_cast<std::uint8_t>(bytes_per_body)),
        received(kBodies, bytes_per_body), sent(kBodies, bytes_per_body) {}

  void on_ack(const SnapshotAck& ack) {
    FUZZ_CHECK(ack.resets.size() <= kMaxAckResets, "an ack names at most kMaxAckResets resets");
    sent.on_ack(ack);
  }

  void on_snapshot(std::span<const std::uint8_t> datagram) {
    const DecodeStatus status = decode(datagram, quantizer.limits(), snapshot, sizes);
    if (!status) {
      FUZZ_CHECK(status.reason() < DropReason::count, "a rejected snapshot names a reason");
      return;
    }
    FUZZ_CHECK(encode(snapshot, quantizer.limits(), again), "an accepted snapshot can be encoded");
    FUZZ_CHECK(std::equal(datagram.begin(), datagram.end(), again.begin(), again.end()),
               "an accepted snapshot re-encodes to the same bytes");
    if (snapshot.has_ack) on_ack(snapshot.ack);
    received.on_packet(snapshot.sequence);
    // What this side sends back: the states it took in, at its own frame (a peer's own frames
    // are never the remote's to choose; the remote only chooses which sequences it acks).
    sent.begin_packet(own_frame++);
    for (const ObjectRecord& record : snapshot.objects) take(record);
    SnapshotAck ack;
    received.take_ack(ack);
    FUZZ_CHECK(ack.resets.size() <= kMaxAckResets, "a receiver asks for at most kMaxAckResets resets");
  }

  void take(const ObjectRecord& record) {
    if (record.index >= kBodies) return;
    // The baseline's frame, in 64 bits: a frame near the 32-bit limit minus an age does not wrap.
    const std::int64_t baseline_wide = std::int64_t{snapshot.frame} - record.baseline_age;
    const bool baseline_frame_valid = baseline_wide >= INT32_MIN;
    const auto baseline_frame = static_cast<Frame>(baseline_frame_valid ? baseline_wide : 0);
    std::span<const std::uint8_t> bytes;
    if (user_bytes > 0) {
      const std::span<const std::uint8_t> base =
          record.user_bytes_unchanged && baseline_frame_valid ? received.user_bytes(record.index, baseline_frame)
                                                              : std::span<const std::uint8_t>{};
      bytes = std::span(held_bytes).first(user_bytes);
      if (!apply_user_bytes(record, base, std::span(held_bytes).first(user_bytes))) {
        received.request_reset(record.index);
        return;
      }
    }
    if (!snapshot.quantized) {
      FUZZ_CHECK(is_plausible(record.raw), "a raw record decodes to a usable state");
      return;
    }
    const QuantizedState* baseline =
        record.baseline_age > 0 && baseline_frame_valid ? received.find(record.index, baseline_frame) : nullptr;
    if (record.baseline_age > 0 && baseline == nullptr) {
      received.request_reset(record.index);
      return;
    }
    const std::optional<QuantizedState> q = apply_record(record, baseline, quantizer);
    if (!q) {
      received.request_reset(record.index);
      return;
    }
    FUZZ_CHECK(quantizer.in_range(*q), "a resolved record is within the quantiser's limits");
    FUZZ_CHECK(is_plausible(quantizer.dequantize(*q)), "a resolved record is a usable state");
    received.store(record.index, snapshot.frame, *q, bytes);
    sent.add(record.index, *q, bytes);
  }

  std::size_t user_bytes;
  std::vector<std::uint8_t> sizes;
  Quantizer quantizer{SnapshotConfig{}};
  sync::ReceivedSnapshots received;
  sync::SentSnapshots sent;
  Snapshot snapshot;
  Frame own_frame = 0;
  std::vector<std::uint8_t> again;
  std::array<std::uint8_t, kMaxUserBytes> held_bytes{};
};

}  // namespace

SHOAL_FUZZ_TARGET(snapshot) {
  fuzz::InputCursor input(data, size);
  Receiver receiver(input.u8() % (kMaxUserBytes + 1));
  while (!input.empty()) {
    const std::span<const std::uint8_t> datagram = input.chunk();
    MessageKind kind{};
    if (!read_header(datagram, kind)) continue;
    if (kind == MessageKind::snapshot) {
      receiver.on_snapshot(datagram);
    } else if (kind == MessageKind::snapshot_ack) {
      SnapshotAckMessage message;
      const DecodeStatus status = decode(datagram, message);
      if (!status) continue;
      std::vector<std::uint8_t> again;
      FUZZ_CHECK(encode(message, again) && std::equal(datagram.begin(), datagram.end(), again.begin(), again.end()),
                 "an accepted snapshot ack re-encodes to the same bytes");
      receiver.on_ack(message.ack);
    }
  }
  return 0;
}
