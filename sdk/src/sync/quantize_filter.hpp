// SPDX-License-Identifier: MIT
// Quantisation on both sides: installed on the Resimulator, it rounds every body's state to
// what a snapshot can carry after every step, on the owner and on every receiver, so owner
// frames and own frames are the same values and exact compare is meaningful.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "sync/resimulator.hpp"
#include "sync/state_compare.hpp"
#include "wire/quantize.hpp"

namespace shoal::sync {

class QuantizeFilter final : public StateFilter {
 public:
  /// `memo_frames` > 0 keeps, per body, what each of that many recent frames settled (a peer
  /// re-simulates those frames when it catches up); 0 keeps only the last value.
  QuantizeFilter(const wire::Quantizer& quantizer, std::size_t bodies, std::size_t memo_frames = 0)
      : quantizer_(quantizer), last_(bodies), memo_(memo_frames), memo_index_(bodies * memo_frames) {
    for (MemoRow& row : memo_) row.entries.reserve(bodies);  // at most one entry per body
    pending_.reserve(bodies);
    raw_.resize(bodies);
    settled_.resize(bodies);
  }

  void apply_all(std::span<const BodyIndex> bodies, Frame frame, std::span<ObjectState> states,
                 std::span<std::uint8_t> changed) const override {
    // First the caches, whose per-body tables are large and visited in the engine's order: all
    // their entries are asked for before the first is needed, so that the misses overlap. A
    // frame newer than any filtered before cannot be in the memo.
    const bool memo_may_hold = !memo_.empty() && frame <= newest_frame_;
    newest_frame_ = std::max(newest_frame_, frame);
    for (BodyIndex b : bodies) {
      __builtin_prefetch(&last_[b]);
      if (!memo_.empty()) __builtin_prefetch(&memo_index_[index_of(b, frame)]);
    }
    pending_.clear();
    for (std::size_t k = 0; k < bodies.size(); ++k) {
      if (const ObjectState* result = looked_up(bodies[k], frame, states[k], memo_may_hold)) {
        changed[k] = take(*result, states[k]) ? 1 : 0;
      } else {
        pending_.push_back(static_cast<std::uint32_t>(k));
      }
    }
    // Then the states no cache held, all together: the quantiser settles several at a time.
    for (std::size_t i = 0; i < pending_.size(); ++i) raw_[i] = states[pending_[i]];
    quantizer_.settle_states(std::span(raw_).first(pending_.size()), settled_, &clamped_);
    settled_count_ += pending_.size();
    for (std::size_t i = 0; i < pending_.size(); ++i) {
      const std::size_t k = pending_[i];
      Last& last = last_[bodies[k]];
      remember(last, settled_[i]);
      if (!memo_.empty()) memorize(bodies[k], frame, states[k], last);
      changed[k] = take(last.state, states[k]) ? 1 : 0;
    }
  }
  /// The code an owner sends for the state it holds, whose dequantisation is exactly that
  /// state, so that receivers hold what the owner holds. A state this filter set last has it
  /// remembered (exact even where quantising the state again would pick another encoding). Any
  /// other state (one that came from the previous owner, or a snap) is settled first, like a
  /// stepped state, because some dequantised orientations quantise to another code that
  /// dequantises elsewhere: `state` is replaced then, and true returned.
  bool encode(BodyIndex body, ObjectState& state, wire::QuantizedState& code) const {
    Last& last = last_[body];
    if (!bitwise_equal(last.state, state)) settle_into(last, state);
    code = last.quantized;
    return take(last.state, state);
  }
  /// quantizer.dequantize(code), looked up when this peer settled that code itself in one of
  /// the recent frames (so an owner's frame that agrees with the peer's own is not
  /// dequantised again).
  ObjectState dequantize(BodyIndex body, Frame frame, const wire::QuantizedState& code) const {
    if (const Memo* memo = find_memo(body, frame); memo != nullptr && memo->quantized == code) {
      return memo->settled;
    }
    return quantizer_.dequantize(code);
  }
  /// Hints that dequantize(body, frame, ...) follows, in two stages, each for many bodies
  /// before the next: the first asks for where the memo keeps the body's entry, the second
  /// (which reads that) for the entry.
  void prefetch_code(BodyIndex body, Frame frame) const {
    if (!memo_.empty() && body < last_.size() && frame >= 0) __builtin_prefetch(&memo_index_[index_of(body, frame)]);
  }
  void prefetch_code_entry(BodyIndex body, Frame frame) const {
    if (const Memo* entry = candidate(body, frame)) __builtin_prefetch(entry);
  }
  /// Fields clamped to the world bounds or speed limits so far (once per state settled).
  std::uint64_t clamped() const { return clamped_; }
  /// States settled so far (not found in a cache).
  std::uint64_t settled() const { return settled_count_; }

 private:
  struct Last;
  // The filtered `state` of (body, frame) when a cache holds it, else nullptr.
  const ObjectState* looked_up(BodyIndex body, Frame frame, const ObjectState& state, bool memo_may_hold) const {
    // A body the step did not move (asleep: most of a large world) still holds a value this
    // filter produced and knows to be a fixed point: quantising it again would change nothing,
    // so the work and the write-back are skipped.
    const Last& last = last_[body];
    if (last.fixed && bitwise_equal(state, last.state)) return &last.state;
    // A catch-up re-steps every body of the region, and most (those the correction does not
    // reach) come out of the step bit for bit as the first time: that frame's settling is
    // looked up instead of done again. Both caches hold results of one pure function of the
    // state, so the result is the same whatever was filtered before (catch-up depends on it).
    // last_ keeps what it held: only encode() needs it to match the newest state, and settles
    // again when it does not. That is rare: encode() is for the bodies this peer owns, which a
    // catch-up replays rather than re-steps (only sync-test mode re-steps them).
    if (!memo_may_hold) return nullptr;
    const Memo* memo = find_memo(body, frame);
    if (memo == nullptr || !bitwise_equal(memo->raw, state)) return nullptr;
    return &memo->settled;
  }
  void settle_into(Last& last, const ObjectState& state) const {
    ++settled_count_;
    remember(last, quantizer_.settle_state(state, &clamped_));
  }
  static void remember(Last& last, const wire::SettledState& result) {
    last.quantized = result.quantized;
    last.state = result.state;
    // Only a resting body comes back with the same state next step, so only its value is worth
    // remembering as a fixed point; a moving body would never hit the cache anyway.
    last.fixed = result.state.at_rest && result.stable;
  }
  /// Gives `state` the filtered value; whether that changed it.
  static bool take(const ObjectState& filtered, ObjectState& state) {
    if (bitwise_equal(filtered, state)) return false;
    state = filtered;
    return true;
  }

  const wire::Quantizer& quantizer_;
  // Per body, the last value settled, together: two cache lines per filtered body, the state
  // and its flag in the first (all that the check for a fixed point reads).
  struct alignas(64) Last {
    ObjectState state;   // dequantize(quantized)
    bool fixed = false;  // state quantises to itself
    wire::QuantizedState quantized;
  };
  // What settling gave, for the recent frames: per frame, an entry for each body settled
  // there, in the order they were (the engine's, which a catch-up re-steps them in), so that
  // a frame's entries lie together and the lookups of a catch-up walk a few dense rows rather
  // than one scattered line per body. memo_index_ tells where in its frame's row a body is.
  // An entry starts with what a lookup checks (the state it was settled from, whose entry it
  // is), then the result; the code, which only dequantize() reads, comes last.
  struct Memo {
    ObjectState raw;
    BodyIndex body = 0;
    ObjectState settled;
    wire::QuantizedState quantized;
  };
  struct MemoRow {
    Frame frame = kNoFrame;
    std::vector<Memo> entries;  // capacity: one per body, reserved up front
  };
  std::size_t index_of(BodyIndex body, Frame frame) const {
    return body * memo_.size() + static_cast<std::size_t>(frame) % memo_.size();
  }
  MemoRow& row_of(Frame frame) const { return memo_[static_cast<std::size_t>(frame) % memo_.size()]; }
  // The entry memo_index_ points at for (body, frame), unchecked: it may be another body's, or
  // of the frame the row held before.
  Memo* candidate(BodyIndex body, Frame frame) const {
    if (memo_.empty() || body >= last_.size() || frame < 0) return nullptr;
    MemoRow& row = row_of(frame);
    const std::uint32_t i = memo_index_[index_of(body, frame)];
    return i < row.entries.size() ? &row.entries[i] : nullptr;
  }
  Memo* find_memo(BodyIndex body, Frame frame) const {
    Memo* entry = candidate(body, frame);
    return entry != nullptr && row_of(frame).frame == frame && entry->body == body ? entry : nullptr;
  }
  void memorize(BodyIndex body, Frame frame, const ObjectState& raw, const Last& last) const {
    MemoRow& row = row_of(frame);
    if (row.frame != frame) {
      row.frame = frame;
      row.entries.clear();
    }
    const Memo entry{raw, body, last.state, last.quantized};
    if (Memo* held = find_memo(body, frame)) {
      *held = entry;  // settled again in a catch-up that stepped it elsewhere
      return;
    }
    memo_index_[index_of(body, frame)] = static_cast<std::uint32_t>(row.entries.size());
    row.entries.push_back(entry);
  }

  // apply() is const in the interface; these are caches and a statistic.
  mutable std::vector<Last> last_;
  mutable std::vector<MemoRow> memo_;              // one row per frame slot (memo_frames)
  mutable std::vector<std::uint32_t> memo_index_;  // per body and frame slot
  mutable std::uint64_t clamped_ = 0, settled_count_ = 0;
  mutable Frame newest_frame_ = kNoFrame;
  // apply_all()'s scratch: which states no cache held, those states, and what settling them gave.
  mutable std::vector<std::uint32_t> pending_;
  mutable std::vector<ObjectState> raw_;
  mutable std::vector<wire::SettledState> settled_;
};

}  // namespace shoal::sync
