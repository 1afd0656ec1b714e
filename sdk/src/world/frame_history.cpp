// SPDX-License-Identifier: MIT
#include "world/frame_history.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <string>

#include "core/bitwise_equal.hpp"

namespace shoal::world {
namespace {

constexpr std::size_t kNone = static_cast<std::size_t>(-1);

// The highest set bit of `words` in [lo, hi], or kNone.
std::size_t highest_set(const std::uint64_t* words, std::size_t lo, std::size_t hi) {
  for (std::size_t w = hi / 64 + 1; w-- > lo / 64;) {
    std::uint64_t word = words[w];
    if (w == hi / 64 && hi % 64 != 63) word &= (std::uint64_t{1} << (hi % 64 + 1)) - 1;
    if (w == lo / 64) word &= ~std::uint64_t{0} << (lo % 64);
    if (word != 0) return w * 64 + 63 - static_cast<std::size_t>(std::countl_zero(word));
  }
  return kNone;
}

}  // namespace

FrameHistory::FrameHistory(std::size_t body_count, int depth, std::size_t user_bytes_per_body)
    : body_count_(body_count), depth_(depth), user_bytes_per_body_(user_bytes_per_body) {
  if (depth < 1) {
    throw std::invalid_argument("FrameHistory: depth must be at least 1 frame, got " +
                                std::to_string(depth));
  }
  const auto frames = static_cast<std::size_t>(depth);
  words_ = (frames + 63) / 64;
  changes_.resize(body_count * frames);
  changed_.resize(body_count * words_);
  listed_.resize(body_count * words_);
  listed_bodies_.resize(frames);
  before_.resize(body_count);
  newest_row_.resize(body_count);
  previous_row_.resize(body_count);
  confirmed_.resize(frames * body_count);
  frozen_.resize(frames * body_count);
  user_bytes_.resize(frames * body_count * user_bytes_per_body);
}

bool FrameHistory::has(Frame f) const {
  return newest_ != kNoFrame && f >= oldest_ && f <= newest_;
}

bool FrameHistory::marked(BodyIndex body, std::size_t s) const {
  return (bits(changed_, body)[s / 64] >> (s % 64) & 1) != 0;
}

Frame FrameHistory::latest_change(BodyIndex body, Frame f) const {
  const std::uint64_t* set = bits(changed_, body);
  const std::size_t first = slot(oldest_), last = slot(f);
  if (marked(body, last)) return f;  // a moving body changes every frame
  const auto depth = static_cast<std::size_t>(depth_);
  // The window's frames oldest..f sit in slots first..last, wrapping past the ring's end.
  std::size_t s = highest_set(set, first <= last ? first : 0, last);
  if (s != kNone) return f - static_cast<Frame>(last - s);
  if (first <= last) return kNoFrame;
  s = highest_set(set, first, depth - 1);
  return s == kNone ? kNoFrame : f - static_cast<Frame>(last + depth - s);
}

const ObjectState& FrameHistory::state(Frame f, BodyIndex body) const {
  if (f == newest_) return newest_row_[body];
  if (f == newest_ - 1) return previous_row_[body];
  return change_or_before(body, latest_change(body, f));
}

void FrameHistory::mark(BodyIndex body, Frame f, const ObjectState& state) {
  const std::size_t s = slot(f);
  changes_[body * static_cast<std::size_t>(depth_) + s] = state;
  const std::uint64_t bit = std::uint64_t{1} << (s % 64);
  bits(changed_, body)[s / 64] |= bit;
  std::uint64_t& listed = bits(listed_, body)[s / 64];
  if ((listed & bit) == 0) {
    listed |= bit;
    listed_bodies_[s].push_back(body);
  }
}

void FrameHistory::unmark(BodyIndex body, Frame f) {
  const std::size_t s = slot(f);
  bits(changed_, body)[s / 64] &= ~(std::uint64_t{1} << (s % 64));
}

void FrameHistory::carry(Frame f, BodyIndex body) {
  if (!marked(body, slot(f))) return;
  unmark(body, f);
  follow_rows(body, f);
}

void FrameHistory::set(Frame f, BodyIndex body, const ObjectState& state) {
  if (core::bitwise_equal(this->state(f, body), state)) return;
  mark(body, f, state);
  // No later frame can hide a change of the newest frame (a step's): only its row follows.
  if (f == newest_) {
    newest_row_[body] = state;
  } else {
    follow_rows(body, f);
  }
}

const ObjectState& FrameHistory::change_or_before(BodyIndex body, Frame change) const {
  return change == kNoFrame ? before_[body] : changes_[body * static_cast<std::size_t>(depth_) + slot(change)];
}

void FrameHistory::follow_rows(BodyIndex body, Frame f) {
  // A row changes only when no later change hides f's (a moving body's next frames usually
  // hold some).
  const Frame last = latest_change(body, newest_);
  const Frame last_before_newest = f < newest_ && last == newest_ ? latest_change(body, newest_ - 1) : last;
  const bool newest_follows = last <= f;
  const bool previous_follows = f < newest_ && last_before_newest <= f;
  if (!newest_follows && !previous_follows) return;
  const ObjectState& now = change_or_before(body, latest_change(body, f));
  if (newest_follows) newest_row_[body] = now;
  if (previous_follows) previous_row_[body] = now;
}

std::span<const ObjectState> FrameHistory::newest_states() const {
  if (empty()) return {};
  return newest_row_;
}

std::span<const ObjectState> FrameHistory::previous_states() const {
  if (empty()) return {};
  return has(newest_ - 1) ? previous_row_ : newest_row_;
}

std::span<const BodyIndex> FrameHistory::changed_at(Frame f) const {
  if (!has(f)) return {};
  return listed_bodies_[slot(f)];
}

void FrameHistory::copy_states(Frame f, std::span<ObjectState> out) const {
  if (!has(f) || out.size() != body_count_) {
    throw std::invalid_argument("FrameHistory::copy_states: frame " + std::to_string(f) + " into " +
                                std::to_string(out.size()) + " states; expected a held frame and one per body (" +
                                std::to_string(body_count_) + ")");
  }
  for (BodyIndex b = 0; b < body_count_; ++b) out[b] = state(f, b);
}

void FrameHistory::prefetch(Frame f, BodyIndex body) const {
  if (!holds(f, body)) return;
  if (f >= newest_ - 1) {
    __builtin_prefetch(f == newest_ ? &newest_row_[body] : &previous_row_[body]);
    return;
  }
  __builtin_prefetch(bits(changed_, body));
  // A moving body changes every frame: its change at f is the likely answer.
  __builtin_prefetch(&changes_[body * static_cast<std::size_t>(depth_) + slot(f)]);
}

void FrameHistory::prefetch_advance() const {
  if (empty() || newest_ + 1 - oldest_ < depth_) return;
  const std::size_t s = slot(oldest_);
  for (BodyIndex body : listed_bodies_[s]) {
    __builtin_prefetch(&bits(changed_, body)[s / 64]);
    __builtin_prefetch(&changes_[body * static_cast<std::size_t>(depth_) + s]);
    __builtin_prefetch(&before_[body], 1);
  }
}

void FrameHistory::start_frame(Frame f, bool first) {
  // Bodies exist until removed: a new frame's slots start as the frame before left them.
  const std::size_t to = slot(f) * slot_count_;
  const auto rows = static_cast<std::ptrdiff_t>(slot_count_);
  if (first) {
    std::fill_n(slot_exists_.begin() + static_cast<std::ptrdiff_t>(to), rows, 0);
    std::fill_n(slot_types_.begin() + static_cast<std::ptrdiff_t>(to), rows, 0);
    std::fill_n(slot_bytes_.begin() + static_cast<std::ptrdiff_t>(to * slot_stride_), rows * static_cast<std::ptrdiff_t>(slot_stride_), 0);
  } else if (slot(f - 1) != slot(f)) {
    const auto from = static_cast<std::ptrdiff_t>(slot(f - 1) * slot_count_);
    std::copy_n(slot_exists_.begin() + from, rows, slot_exists_.begin() + static_cast<std::ptrdiff_t>(to));
    std::copy_n(slot_types_.begin() + from, rows, slot_types_.begin() + static_cast<std::ptrdiff_t>(to));
    const auto stride = static_cast<std::ptrdiff_t>(slot_stride_);
    std::copy_n(slot_bytes_.begin() + from * stride, rows * stride,
                slot_bytes_.begin() + static_cast<std::ptrdiff_t>(to) * stride);
  }
  const std::size_t base = slot(f) * body_count_;
  std::fill_n(confirmed_.begin() + static_cast<std::ptrdiff_t>(base), body_count_, 0);
  std::fill_n(frozen_.begin() + static_cast<std::ptrdiff_t>(base), body_count_, 0);
  std::fill_n(user_bytes_.begin() + static_cast<std::ptrdiff_t>(base * user_bytes_per_body_),
              body_count_ * user_bytes_per_body_, 0);
}

void FrameHistory::drop_oldest() {
  // Whatever the oldest frame changed becomes the state before the window.
  const std::size_t s = slot(oldest_);
  const std::uint64_t bit = std::uint64_t{1} << (s % 64);
  for (BodyIndex body : listed_bodies_[s]) {
    std::uint64_t& changed = bits(changed_, body)[s / 64];
    if ((changed & bit) != 0) before_[body] = changes_[body * static_cast<std::size_t>(depth_) + s];
    changed &= ~bit;
    bits(listed_, body)[s / 64] &= ~bit;
  }
  listed_bodies_[s].clear();
  ++oldest_;
}

void FrameHistory::advance() {
  if (empty()) throw std::logic_error("FrameHistory::advance: the history is empty; record a first frame");
  const Frame f = newest_ + 1;
  if (f - oldest_ >= depth_) drop_oldest();
  // The frame before the new one is the old newest: only what changed at it differs from the
  // row before.
  const std::size_t last = slot(newest_);
  const std::uint64_t bit = std::uint64_t{1} << (last % 64);
  if (has(newest_ - 1)) {
    for (BodyIndex body : listed_bodies_[last]) {
      if ((bits(changed_, body)[last / 64] & bit) != 0) previous_row_[body] = newest_row_[body];
    }
  } else {
    previous_row_ = newest_row_;
  }
  newest_ = f;
  start_frame(f, false);
}

void FrameHistory::record(Frame f, std::span<const ObjectState> states) {
  if (states.size() != body_count_) {
    throw std::invalid_argument("FrameHistory::record: got " + std::to_string(states.size()) +
                                " states for frame " + std::to_string(f) + ", expected one per body (" +
                                std::to_string(body_count_) + ")");
  }
  if (empty()) {
    if (f < 0) {
      throw std::invalid_argument("FrameHistory::record: frame " + std::to_string(f) +
                                  " is negative; a history starts at a frame >= 0");
    }
    std::fill(changed_.begin(), changed_.end(), 0);
    std::fill(listed_.begin(), listed_.end(), 0);
    for (auto& list : listed_bodies_) list.clear();
    std::copy(states.begin(), states.end(), before_.begin());
    std::copy(states.begin(), states.end(), newest_row_.begin());
    oldest_ = newest_ = f;
    start_frame(f, true);
    return;
  }
  if (f == newest_ + 1) {
    advance();
  } else if (!has(f)) {
    throw std::invalid_argument(
        "FrameHistory::record: frame " + std::to_string(f) + " is neither the next frame (" +
        std::to_string(newest_ + 1) + ") nor a held frame (" + std::to_string(oldest_) + ".." +
        std::to_string(newest_) + ")");
  }
  for (BodyIndex b = 0; b < body_count_; ++b) set(f, b, states[b]);
}

bool FrameHistory::confirmed(Frame f, BodyIndex body) const {
  return holds(f, body) && confirmed_[slot(f) * body_count_ + body] != 0;
}

void FrameHistory::set_confirmed(Frame f, BodyIndex body, bool value) {
  if (holds(f, body)) confirmed_[slot(f) * body_count_ + body] = value ? 1 : 0;
}

std::span<std::uint8_t> FrameHistory::confirmed_flags(Frame f) {
  if (!has(f)) return {};
  return {confirmed_.data() + slot(f) * body_count_, body_count_};
}

std::span<std::uint8_t> FrameHistory::frozen_flags(Frame f) {
  if (!has(f)) return {};
  return {frozen_.data() + slot(f) * body_count_, body_count_};
}

std::span<std::uint8_t> FrameHistory::user_bytes(Frame f, BodyIndex body) {
  if (!holds(f, body) || user_bytes_per_body_ == 0) return {};
  return {user_bytes_.data() + (slot(f) * body_count_ + body) * user_bytes_per_body_,
          user_bytes_per_body_};
}

std::span<const std::uint8_t> FrameHistory::user_bytes(Frame f, BodyIndex body) const {
  if (!holds(f, body) || user_bytes_per_body_ == 0) return {};
  return {user_bytes_.data() + (slot(f) * body_count_ + body) * user_bytes_per_body_,
          user_bytes_per_body_};
}

void FrameHistory::set_spawn_slots(BodyIndex first, std::size_t count, std::size_t max_spawn_bytes) {
  if (first + count > body_count_) {
    throw std::invalid_argument("FrameHistory::set_spawn_slots: slots " + std::to_string(first) + ".." +
                                std::to_string(first + count) + " beyond the " + std::to_string(body_count_) +
                                " bodies");
  }
  first_slot_ = first;
  slot_count_ = count;
  slot_exists_.assign(static_cast<std::size_t>(depth_) * count, 0);
  slot_types_.assign(static_cast<std::size_t>(depth_) * count, 0);
  slot_stride_ = max_spawn_bytes > 0 && count > 0 ? 1 + max_spawn_bytes : 0;
  slot_bytes_.assign(static_cast<std::size_t>(depth_) * count * slot_stride_, 0);
}

std::span<std::uint8_t> FrameHistory::slot_bytes(Frame f, std::size_t k) {
  if (!has(f) || slot_stride_ == 0 || k >= slot_count_) return {};
  return {slot_bytes_.data() + (slot(f) * slot_count_ + k) * slot_stride_, slot_stride_};
}

std::span<const std::uint8_t> FrameHistory::slot_bytes(Frame f, std::size_t k) const {
  if (!has(f) || slot_stride_ == 0 || k >= slot_count_) return {};
  return {slot_bytes_.data() + (slot(f) * slot_count_ + k) * slot_stride_, slot_stride_};
}

std::span<std::uint8_t> FrameHistory::slot_exists(Frame f) {
  if (!has(f)) return {};
  return {slot_exists_.data() + slot(f) * slot_count_, slot_count_};
}

std::span<const std::uint8_t> FrameHistory::slot_exists(Frame f) const {
  if (!has(f)) return {};
  return {slot_exists_.data() + slot(f) * slot_count_, slot_count_};
}

std::span<std::uint16_t> FrameHistory::slot_types(Frame f) {
  if (!has(f)) return {};
  return {slot_types_.data() + slot(f) * slot_count_, slot_count_};
}

std::span<const std::uint16_t> FrameHistory::slot_types(Frame f) const {
  if (!has(f)) return {};
  return {slot_types_.data() + slot(f) * slot_count_, slot_count_};
}

void FrameHistory::clear() {
  newest_ = kNoFrame;
  oldest_ = kNoFrame;
}

}  // namespace shoal::world
