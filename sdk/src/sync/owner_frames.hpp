// SPDX-License-Identifier: MIT
// Owner frames received for objects this peer does not own, kept per frame for as long as the
// history window, so catch-up can inject them into every re-simulated frame.
#pragma once

#include <algorithm>
#include <cstddef>
#include <span>
#include <vector>

#include "shoal/simulation.hpp"

namespace shoal::sync {

class OwnerFrames {
 public:
  /// `user_bytes_per_body`: the stride of the parallel ring of user bytes (0: none kept).
  OwnerFrames(std::size_t body_count, int depth, std::size_t user_bytes_per_body = 0)
      : bodies_(body_count), depth_(depth), user_bytes_stride_(user_bytes_per_body),
        entries_(body_count * static_cast<std::size_t>(depth)),
        user_bytes_(body_count * static_cast<std::size_t>(depth) * user_bytes_per_body),
        newest_(body_count, kNoFrame),
        stored_up_to_(body_count, kNoFrame),
        listed_frame_(static_cast<std::size_t>(depth), kNoFrame),
        listed_(static_cast<std::size_t>(depth)) {}

  /// `user_bytes`: the body's user bytes of that frame (empty for a body without any).
  void store(Frame frame, BodyIndex body, const ObjectState& state,
             std::span<const std::uint8_t> user_bytes = {}) {
    const std::size_t i = slot(frame, body);
    const auto row = static_cast<std::size_t>(frame % depth_);
    if (listed_frame_[row] != frame) {
      listed_frame_[row] = frame;
      listed_[row].clear();
    }
    if (entries_[i].frame != frame) listed_[row].push_back(body);
    entries_[i].frame = frame;
    entries_[i].state = state;
    if (!user_bytes.empty()) {
      std::copy(user_bytes.begin(), user_bytes.end(), user_bytes_.begin() + static_cast<std::ptrdiff_t>(i * user_bytes_stride_));
    }
    if (frame > newest_[body]) newest_[body] = frame;
    if (frame > stored_up_to_[body]) stored_up_to_[body] = frame;
  }
  /// The owner's state of body at frame, or nullptr when none was received.
  const ObjectState* find(Frame frame, BodyIndex body) const {
    if (frame < 0) return nullptr;
    const std::size_t i = slot(frame, body);
    return entries_[i].frame == frame ? &entries_[i].state : nullptr;
  }
  /// The user bytes stored with find(frame, body) (the whole stride; the body's size first).
  /// Only meaningful when find() returns a state.
  std::span<const std::uint8_t> user_bytes(Frame frame, BodyIndex body) const {
    return {user_bytes_.data() + slot(frame, body) * user_bytes_stride_, user_bytes_stride_};
  }
  Frame newest(BodyIndex body) const { return newest_[body]; }
  /// Starts loading what find() and store() of (frame, body) will touch. Only a hint.
  void prefetch(Frame frame, BodyIndex body) const {
    if (frame < 0 || body >= bodies_) return;
    const std::size_t i = slot(frame, body);
    __builtin_prefetch(&entries_[i]);
  }
  /// The bodies with a state stored for frame, so injecting a frame need not visit every body.
  /// May also list bodies forgotten since: find() is the authority.
  std::span<const BodyIndex> bodies_at(Frame frame) const {
    if (frame < 0) return {};
    const auto row = static_cast<std::size_t>(frame % depth_);
    return listed_frame_[row] == frame ? std::span<const BodyIndex>(listed_[row]) : std::span<const BodyIndex>{};
  }
  /// Forgets a body's frames from `from` on: its owner changed at that frame, and what the old
  /// owner sent for later frames (before it heard of the change) does not bind.
  void forget_from(BodyIndex body, Frame from) {
    // A frame from `from` on can only be in the rows of from..stored_up_to_ (at most the
    // whole ring): each row is a cache line of its own, so the others are not visited.
    const Frame last = stored_up_to_[body];
    for (Frame f = std::max(from, last - depth_ + 1); f <= last; ++f) {
      Frame& tag = entries_[slot(f, body)].frame;
      if (tag >= from) tag = kNoFrame;
    }
    if (newest_[body] >= from) newest_[body] = kNoFrame;
    stored_up_to_[body] = std::min(last, from - 1);
  }

 private:
  std::size_t slot(Frame frame, BodyIndex body) const {
    return static_cast<std::size_t>(frame % depth_) * bodies_ + body;
  }
  std::size_t bodies_;
  int depth_;
  std::size_t user_bytes_stride_;
  // A frame's tag beside its state, one cache line: every lookup reads the tag, and a hit
  // the state.
  struct alignas(64) Entry {
    Frame frame = kNoFrame;
    ObjectState state;
  };
  std::vector<Entry> entries_;
  std::vector<std::uint8_t> user_bytes_;
  std::vector<Frame> newest_;
  std::vector<Frame> stored_up_to_;  // per body: no frame after this one is held
  std::vector<Frame> listed_frame_;             // per ring row: the frame its list is of
  std::vector<std::vector<BodyIndex>> listed_;  // per ring row: bodies stored for that frame
};

}  // namespace shoal::sync
