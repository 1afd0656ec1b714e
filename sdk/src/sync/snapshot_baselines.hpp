// SPDX-License-Identifier: MIT
// Acks and delta baselines, one pair of books per remote peer.
//
// Sender side (SentSnapshots): what went out in each snapshot packet, by sequence; when the
// receiver acks a packet (on receipt, not at playout), each object in it that is newer than
// the object's baseline becomes the baseline. Deltas are taken against the baseline only.
//
// Receiver side (ReceivedSnapshots): which sequences arrived (for the acks it sends back), and
// the last few states received of every object, so a delta can find its baseline. A delta
// whose baseline is not held is rejected; the object is then named in the next acks' resets,
// and the sender forgets its baseline and sends the object whole. An ack names at most
// kMaxAckResets objects: when more wait, the acks take turns over all of them, so that no
// request is lost however many a burst of late packets makes.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <span>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "shoal/simulation.hpp"
#include "wire/quantize.hpp"
#include "wire/snapshot_codec.hpp"

namespace shoal::sync {

/// Wrapping 16-bit sequence order: true when a is after b (within half the range).
constexpr bool sequence_after(std::uint16_t a, std::uint16_t b) {
  return a != b && static_cast<std::uint16_t>(a - b) < 0x8000;
}

// A receiver searches a body's frame slots several times per record it takes in: each search
// compares all of them at once, four per SSE2 instruction where the target has it.
template <std::size_t N>
std::uint32_t slots_holding(const std::array<Frame, N>& frames, Frame frame) {
  static_assert(N % 4 == 0 && N <= 32);
  std::uint32_t hits = 0;
#if defined(__SSE2__)
  const __m128i key = _mm_set1_epi32(frame);
  for (std::size_t i = 0; i < N; i += 4) {
    const __m128i held = _mm_loadu_si128(reinterpret_cast<const __m128i*>(frames.data() + i));
    const int equal = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(held, key)));
    hits |= static_cast<std::uint32_t>(equal) << i;
  }
#else
  for (std::size_t i = 0; i < N; ++i) hits |= static_cast<std::uint32_t>(frames[i] == frame) << i;
#endif
  return hits;
}

template <std::size_t N>
Frame oldest_of(const std::array<Frame, N>& frames) {
  static_assert(N % 4 == 0 && N >= 4);
#if defined(__SSE2__)
  auto min4 = [](__m128i a, __m128i b) {  // SSE2 has no 32-bit min: select by a compare
    const __m128i a_greater = _mm_cmpgt_epi32(a, b);
    return _mm_or_si128(_mm_and_si128(a_greater, b), _mm_andnot_si128(a_greater, a));
  };
  __m128i least = _mm_loadu_si128(reinterpret_cast<const __m128i*>(frames.data()));
  for (std::size_t i = 4; i < N; i += 4) {
    least = min4(least, _mm_loadu_si128(reinterpret_cast<const __m128i*>(frames.data() + i)));
  }
  least = min4(least, _mm_shuffle_epi32(least, _MM_SHUFFLE(1, 0, 3, 2)));
  least = min4(least, _mm_shuffle_epi32(least, _MM_SHUFFLE(2, 3, 0, 1)));
  return _mm_cvtsi128_si32(least);
#else
  return *std::ranges::min_element(frames);
#endif
}

// Both sides keep user bytes beside the states, `user_bytes_stride` per object (the largest
// size of any body; 0 = no body has any, and nothing is kept).

class SentSnapshots {
 public:
  explicit SentSnapshots(std::size_t bodies, std::size_t user_bytes_stride = 0)
      : user_bytes_stride_(user_bytes_stride), baselines_(bodies),
        baseline_user_bytes_(bodies * user_bytes_stride) {}

  /// Starts the log of a packet about to be sent; returns its sequence.
  std::uint16_t begin_packet(Frame frame) {
    const std::uint16_t sequence = next_sequence_++;
    Packet& p = packets_[sequence % kPackets];
    p.frame = frame;
    pending_[sequence % kPackets] = pending_mark(sequence);
    p.objects.clear();
    p.user_bytes.clear();
    // Each of the log's slots sees a packet only every kPackets: grown one push at a time,
    // they would go on allocating long after the link's packet sizes have settled. Room for
    // the largest packet so far (at least kFirstRoom), rounded up to a power of two so that a
    // slightly larger one does not send every slot to the allocator again, makes logging
    // allocate nothing once every slot has it.
    constexpr std::size_t kFirstRoom = 16;
    const std::size_t room = std::bit_ceil(std::max(most_objects_, kFirstRoom));
    p.objects.reserve(room);
    p.user_bytes.reserve(room * user_bytes_stride_);
    return sequence;
  }
  /// Logs an object of the packet begun last (with its user bytes, when bodies have any).
  void add(BodyIndex body, const wire::QuantizedState& state, std::span<const std::uint8_t> user_bytes = {}) {
    Packet& p = packets_[static_cast<std::uint16_t>(next_sequence_ - 1) % kPackets];
    p.objects.push_back({body, state});
    most_objects_ = std::max(most_objects_, p.objects.size());
    baselines_[body].sent = p.frame;
    if (user_bytes_stride_ > 0) {
      p.user_bytes.resize(p.objects.size() * user_bytes_stride_);
      std::copy(user_bytes.begin(), user_bytes.end(), p.user_bytes.end() - static_cast<std::ptrdiff_t>(user_bytes_stride_));
    }
  }

  /// Applies an ack: every acked packet still in the log advances its objects' baselines.
  /// Acks of sequences never sent (or long gone) are ignored.
  void on_ack(const wire::SnapshotAck& ack) {
    const auto since_sent = static_cast<std::uint16_t>(next_sequence_ - 1 - ack.newest);
    if (since_sent >= kPackets || next_sequence_ == 0) return;
    if (pending_[ack.newest % kPackets] == pending_mark(ack.newest)) note_round_trip(ack.newest);
    acknowledge(ack.newest);
    for (std::uint16_t i = 0; i < 32; ++i) {
      if ((ack.previous >> i) & 1u) acknowledge(static_cast<std::uint16_t>(ack.newest - 1 - i));
    }
    for (BodyIndex body : ack.resets) {
      if (body < baselines_.size()) baselines_[body].frame = kNoFrame;
    }
  }

  /// The baseline of body for a record at `frame`, or nullptr when there is none within
  /// max_age frames; `age` is set to frame - baseline frame.
  const wire::QuantizedState* baseline(BodyIndex body, Frame frame, int max_age, std::uint32_t& age) const {
    const Frame from = baselines_[body].frame;
    if (from == kNoFrame || from >= frame || frame - from > max_age) return nullptr;
    age = static_cast<std::uint32_t>(frame - from);
    return &baselines_[body].state;
  }
  /// The user bytes of the baseline baseline() returned (the whole stride, the body's size first).
  std::span<const std::uint8_t> baseline_user_bytes(BodyIndex body) const {
    return {baseline_user_bytes_.data() + body * user_bytes_stride_, user_bytes_stride_};
  }
  /// The acknowledged state of body regardless of age (for priorities), or nullptr.
  const wire::QuantizedState* acknowledged(BodyIndex body) const {
    return baselines_[body].frame == kNoFrame ? nullptr : &baselines_[body].state;
  }
  /// The frame of acknowledged(body), or kNoFrame.
  Frame acknowledged_frame(BodyIndex body) const { return baselines_[body].frame; }
  /// Whether a record of body from frame `since` or later went out recently enough that its
  /// ack may still come (within the acks' usual round trip, in frames, with a margin): sending
  /// the same again before then would most likely be wasted.
  bool in_flight(BodyIndex body, Frame since, Frame now) const {
    const Frame sent = baselines_[body].sent;
    return sent != kNoFrame && sent >= since && now - sent <= round_trip_frames_ + round_trip_frames_ / 4 + 2;
  }

 private:
  static constexpr std::uint16_t kPackets = 256;  // a divisor of 65536: slots follow wrap-around
  struct Entry {
    BodyIndex body;
    wire::QuantizedState state;
  };
  struct Packet {
    Frame frame = kNoFrame;
    std::vector<Entry> objects;
    std::vector<std::uint8_t> user_bytes;  // objects.size() x stride
  };

  // What pending_ holds for a sequence still waiting for its ack (0 = none waits in that slot).
  static constexpr std::uint32_t pending_mark(std::uint16_t sequence) { return 0x10000u | sequence; }

  // From each newest-acked packet: how many frames passed between sending it and the newest
  // packet sent since (its ack arrived before that one went).
  void note_round_trip(std::uint16_t sequence) {
    const Frame newest_sent = packets_[static_cast<std::uint16_t>(next_sequence_ - 1) % kPackets].frame;
    const Frame took = newest_sent - packets_[sequence % kPackets].frame;
    if (took < 0 || took > kMaxRoundTripFrames) return;
    // Up at once, down slowly: a record presumed in flight too long is repaired that much later.
    round_trip_frames_ = took >= round_trip_frames_ ? took : round_trip_frames_ - (round_trip_frames_ - took + 7) / 8;
  }

  void acknowledge(std::uint16_t sequence) {
    std::uint32_t& pending = pending_[sequence % kPackets];
    if (pending != pending_mark(sequence)) return;  // acked before, or never sent
    pending = 0;
    const Packet& p = packets_[sequence % kPackets];
    for (std::size_t i = 0; i < p.objects.size(); ++i) {
      const Entry& e = p.objects[i];
      if (e.body >= baselines_.size()) continue;
      Baseline& baseline = baselines_[e.body];
      if (baseline.frame == kNoFrame || p.frame > baseline.frame) {
        baseline.frame = p.frame;
        baseline.state = e.state;
        if (user_bytes_stride_ > 0) {
          const auto from = p.user_bytes.begin() + static_cast<std::ptrdiff_t>(i * user_bytes_stride_);
          std::copy_n(from, user_bytes_stride_,
                      baseline_user_bytes_.begin() + static_cast<std::ptrdiff_t>(e.body * user_bytes_stride_));
        }
      }
    }
  }

  std::size_t user_bytes_stride_;
  std::uint16_t next_sequence_ = 0;
  std::size_t most_objects_ = 0;  // the most objects a logged packet has held
  // Every ack names 33 sequences, nearly all acked before: their pending marks sit together,
  // a few cache lines, so that only the packets an ack really advances are visited.
  std::array<std::uint32_t, kPackets> pending_{};
  std::array<Packet, kPackets> packets_;
  // A body's acknowledged state with its frame: one cache line per lookup.
  struct alignas(64) Baseline {
    Frame frame = kNoFrame;
    wire::QuantizedState state;
    Frame sent = kNoFrame;  // the frame of the newest packet with a record of the body
  };
  static_assert(sizeof(Baseline) == 64);
  static constexpr Frame kMaxRoundTripFrames = 120;
  Frame round_trip_frames_ = 8;  // until acks say otherwise
  std::vector<Baseline> baselines_;
  std::vector<std::uint8_t> baseline_user_bytes_;  // bodies x stride
};

class ReceivedSnapshots {
 public:
  /// Keeps the states of the newest kDepth frames received of each object.
  static constexpr std::size_t kDepth = 16;

  explicit ReceivedSnapshots(std::size_t bodies, std::size_t user_bytes_stride = 0)
      : user_bytes_stride_(user_bytes_stride), frames_(bodies), states_(bodies * kDepth),
        user_bytes_(bodies * kDepth * user_bytes_stride), reset_wanted_(bodies, 0) {
    resets_.reserve(bodies);  // every body at most once: requesting never allocates
  }

  /// Notes the arrival of a packet, for the acks.
  void on_packet(std::uint16_t sequence) {
    ++received_;
    if (!any_) {
      any_ = true;
      newest_ = sequence;
      previous_ = 0;
      ++expected_;
    } else if (sequence_after(sequence, newest_)) {
      const auto shift = static_cast<std::uint16_t>(sequence - newest_);
      expected_ += shift;  // the gap is what the link lost (or has yet to deliver, late)
      previous_ = shift > 32 ? 0
                             : static_cast<std::uint32_t>((std::uint64_t{previous_} << shift) |
                                                          (std::uint64_t{1} << (shift - 1)));
      newest_ = sequence;
    } else if (sequence != newest_) {
      const auto back = static_cast<std::uint16_t>(newest_ - sequence);
      if (back <= 32) previous_ |= 1u << (back - 1);
    }
    ack_due_ = true;
    close_loss_window();
  }

  /// Fraction of the sender's packets that did not arrive, over the last completed window of
  /// kLossWindow packets the sender sent (about 2 s at 60 Hz): the link's real loss, whatever
  /// ENet's reliable-only estimate says, and the same however often it is read.
  float loss() const { return loss_; }

  /// Whether packets arrived since the last ack was taken.
  bool ack_due() const { return ack_due_; }
  bool has_received() const { return any_; }
  /// The ack to send now (with pending resets: all of them, or the next kMaxAckResets in
  /// turn when more wait); clears ack_due.
  void take_ack(wire::SnapshotAck& ack) {
    ack.newest = newest_;
    ack.previous = previous_;
    ack.resets.clear();
    const std::size_t count = std::min(resets_.size(), wire::kMaxAckResets);
    if (reset_turn_ >= resets_.size()) reset_turn_ = 0;
    for (std::size_t i = 0; i < count; ++i) ack.resets.push_back(resets_[(reset_turn_ + i) % resets_.size()]);
    reset_turn_ += count;
    ack_due_ = false;
  }
  /// Stops asking for body (its sender no longer owns it, and will not send it again).
  void forget_reset(BodyIndex body) {
    if (body >= reset_wanted_.size() || reset_wanted_[body] == 0) return;
    reset_wanted_[body] = 0;
    std::erase(resets_, body);
  }
  /// Objects named in acks until a state of them arrives.
  std::size_t pending_resets() const { return resets_.size(); }

  void store(BodyIndex body, Frame frame, const wire::QuantizedState& state,
             std::span<const std::uint8_t> user_bytes = {}) {
    const std::size_t base = body * kDepth;
    std::size_t i = slot_of(body, frame);
    if (i == kDepth) {  // not a duplicate or a resend of the same frame: a new slot
      i = oldest_slot(body);
      // Older than every frame held (a late packet): no sender takes it as a baseline any more
      // (baselines only advance), and it would push out a state that may be one.
      const Frame oldest = frames_[body].frames[i];
      if (oldest != kNoFrame && frame < oldest) return;
      if (reset_wanted_[body] != 0) {
        reset_wanted_[body] = 0;
        std::erase(resets_, body);
      }
    }
    frames_[body].frames[i] = frame;
    states_[base + i] = state;
    std::copy(user_bytes.begin(), user_bytes.end(),
              user_bytes_.begin() + static_cast<std::ptrdiff_t>((base + i) * user_bytes_stride_));
  }
  const wire::QuantizedState* find(BodyIndex body, Frame frame) const {
    const std::size_t i = slot_of(body, frame);
    return i == kDepth ? nullptr : &states_[body * kDepth + i];
  }
  /// The newest state held of body with its frame, or nullptr (frame untouched).
  const wire::QuantizedState* newest(BodyIndex body, Frame& frame) const {
    const std::array<Frame, kDepth>& frames = frames_[body].frames;
    const auto it = std::max_element(frames.begin(), frames.end());
    if (*it == kNoFrame) return nullptr;
    frame = *it;
    return &states_[body * kDepth + static_cast<std::size_t>(it - frames.begin())];
  }

  /// The user bytes stored with find(body, frame) (the whole stride), empty when not held.
  std::span<const std::uint8_t> user_bytes(BodyIndex body, Frame frame) const {
    const std::size_t i = slot_of(body, frame);
    if (i == kDepth) return {};
    return {user_bytes_.data() + (body * kDepth + i) * user_bytes_stride_, user_bytes_stride_};
  }

  /// Starts loading what find() and store() of body will touch first: its frames. Only a
  /// hint: nothing is read or changed.
  void prefetch(BodyIndex body) const {
    if (body < frames_.size()) __builtin_prefetch(&frames_[body]);
  }
  /// Once the frames are loaded, the rest: the state find(body, frame) returns and the slot
  /// store() would take.
  void prefetch_states(BodyIndex body, Frame frame) const {
    if (body >= frames_.size()) return;
    if (const std::size_t i = slot_of(body, frame); i != kDepth) __builtin_prefetch(&states_[body * kDepth + i]);
    __builtin_prefetch(&states_[body * kDepth + oldest_slot(body)], 1);
  }

  /// Asks the sender (in the following acks) to forget its baseline of body.
  void request_reset(BodyIndex body) {
    if (body >= reset_wanted_.size()) return;
    if (reset_wanted_[body] == 0) {
      reset_wanted_[body] = 1;
      resets_.push_back(body);
    }
    ack_due_ = true;
  }

 private:
  static constexpr std::uint64_t kLossWindow = 120;
  // A late packet of a closed window counts in the next one: over many windows it evens out.
  void close_loss_window() {
    const std::uint64_t expected = expected_ - window_expected_;
    if (expected < kLossWindow) return;
    const std::uint64_t received = std::min(received_ - window_received_, expected);
    loss_ = 1.0f - static_cast<float>(received) / static_cast<float>(expected);
    window_expected_ = expected_;
    window_received_ = received_;
  }

  // The slot of body holding frame, or kDepth. The frames are kept apart from the states so
  // this search reads one cache line, not one per slot.
  std::size_t slot_of(BodyIndex body, Frame frame) const {
    const std::uint32_t hits = slots_holding(frames_[body].frames, frame);
    return hits == 0 ? kDepth : static_cast<std::size_t>(std::countr_zero(hits));
  }
  // The slot a new frame takes: the oldest frame's (an empty slot holds kNoFrame, older than
  // any), so the newest kDepth frames received are kept whatever order they came in.
  std::size_t oldest_slot(BodyIndex body) const {
    const std::array<Frame, kDepth>& frames = frames_[body].frames;
    return static_cast<std::size_t>(std::countr_zero(slots_holding(frames, oldest_of(frames))));
  }
  std::size_t user_bytes_stride_;
  // The frames of a body's slots: one cache line.
  struct alignas(64) Slots {
    std::array<Frame, kDepth> frames;
    Slots() { frames.fill(kNoFrame); }
  };
  std::vector<Slots> frames_;                 // bodies
  std::vector<wire::QuantizedState> states_;  // bodies x kDepth
  std::vector<std::uint8_t> user_bytes_;  // bodies x kDepth x stride
  std::uint64_t received_ = 0, expected_ = 0;             // packets, since the first
  std::uint64_t window_received_ = 0, window_expected_ = 0;
  float loss_ = 0;
  std::vector<BodyIndex> resets_;           // waiting for a state, in request order
  std::vector<std::uint8_t> reset_wanted_;  // per body: in resets_
  std::size_t reset_turn_ = 0;              // where the next ack's resets start in resets_
  bool any_ = false;
  bool ack_due_ = false;
  std::uint16_t newest_ = 0;
  std::uint32_t previous_ = 0;
};

}  // namespace shoal::sync
