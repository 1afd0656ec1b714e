#include "world/frame_history.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace shoal::world {

FrameHistory::FrameHistory(std::size_t body_count, int depth, std::size_t user_bytes_per_body)
    : body_count_(body_count), depth_(depth), user_bytes_per_body_(user_bytes_per_body) {
  if (depth < 1) {
    throw std::invalid_argument("FrameHistory: depth must be at least 1 frame, got " +
                                std::to_string(depth));
  }
  const auto frames = static_cast<std::size_t>(depth);
  states_.resize(frames * body_count);
  confirmed_.resize(frames * body_count);
  frozen_.resize(frames * body_count);
  user_bytes_.resize(frames * body_count * user_bytes_per_body);
}

std::size_t FrameHistory::slot(Frame f) const {
  return static_cast<std::size_t>(f % depth_);  // held frames are never negative
}

bool FrameHistory::has(Frame f) const {
  return newest_ != kNoFrame && f >= oldest_ && f <= newest_;
}

void FrameHistory::record(Frame f, std::span<const ObjectState> states) {
  if (states.size() != body_count_) {
    throw std::invalid_argument("FrameHistory::record: got " + std::to_string(states.size()) +
                                " states for frame " + std::to_string(f) + ", expected one per body (" +
                                std::to_string(body_count_) + ")");
  }
  const bool next = empty() ? f >= 0 : f == newest_ + 1;
  if (!next && !has(f)) {
    throw std::invalid_argument(
        "FrameHistory::record: frame " + std::to_string(f) + " is neither the next frame (" +
        std::to_string(newest_ + 1) + ") nor a held frame (" + std::to_string(oldest_) + ".." +
        std::to_string(newest_) + ")");
  }
  const std::size_t base = slot(f) * body_count_;
  std::copy(states.begin(), states.end(), states_.begin() + static_cast<std::ptrdiff_t>(base));
  if (!next) return;
  std::fill_n(confirmed_.begin() + static_cast<std::ptrdiff_t>(base), body_count_, 0);
  std::fill_n(frozen_.begin() + static_cast<std::ptrdiff_t>(base), body_count_, 0);
  std::fill_n(user_bytes_.begin() + static_cast<std::ptrdiff_t>(base * user_bytes_per_body_),
              body_count_ * user_bytes_per_body_, 0);
  if (empty()) oldest_ = f;
  newest_ = f;
  if (newest_ - oldest_ >= depth_) oldest_ = newest_ - depth_ + 1;
}

std::span<ObjectState> FrameHistory::states(Frame f) {
  if (!has(f)) return {};
  return {states_.data() + slot(f) * body_count_, body_count_};
}

std::span<const ObjectState> FrameHistory::states(Frame f) const {
  if (!has(f)) return {};
  return {states_.data() + slot(f) * body_count_, body_count_};
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

void FrameHistory::clear() {
  newest_ = kNoFrame;
  oldest_ = kNoFrame;
}

}  // namespace shoal::world
