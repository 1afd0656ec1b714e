// SPDX-License-Identifier: MIT
// Inputs by frame for every controlled body: the local player's as applied, remote players'
// as received with their snapshots. A frame whose input is unknown repeats the last known one
// (as GGPO predicts), so a remote ball keeps being pushed instead of coasting.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "shoal/simulation.hpp"

namespace shoal::sync {

class InputLog {
 public:
  explicit InputLog(int depth) : depth_(depth) {}

  /// Starts logging for a controlled body (idempotent).
  void track(BodyIndex body) {
    if (find_track(body) != nullptr) return;
    Track t;
    t.body = body;
    t.tags.assign(static_cast<std::size_t>(depth_), kNoFrame);
    t.inputs.resize(static_cast<std::size_t>(depth_));
    tracks_.push_back(std::move(t));
    std::sort(tracks_.begin(), tracks_.end(), [](const Track& a, const Track& b) { return a.body < b.body; });
  }
  void untrack(BodyIndex body) {
    std::erase_if(tracks_, [body](const Track& t) { return t.body == body; });
  }
  bool tracked(BodyIndex body) const { return find_track(body) != nullptr; }

  /// Records the input of body at frame. Returns true when it differs from what was assumed
  /// for that frame before (a misprediction that calls for re-simulation).
  bool record(BodyIndex body, Frame frame, const Input& input) {
    Track* t = find_track(body);
    if (t == nullptr || frame < 0) return false;
    const Input assumed = at(*t, frame);
    const std::size_t s = static_cast<std::size_t>(frame % depth_);
    t->tags[s] = frame;
    t->inputs[s] = input;
    if (frame >= t->newest) {
      t->newest = frame;
      t->last = input;
    }
    return !(assumed == input);
  }

  /// The inputs of every tracked body for frame, in body order (allocation-free once warm).
  void gather(Frame frame, std::vector<BodyInput>& out) const {
    out.clear();
    for (const Track& t : tracks_) out.push_back({t.body, at(t, frame)});
  }

  Input input(BodyIndex body, Frame frame) const {
    const Track* t = find_track(body);
    return t == nullptr ? Input{} : at(*t, frame);
  }

 private:
  struct Track {
    BodyIndex body = 0;
    std::vector<Frame> tags;
    std::vector<Input> inputs;
    Frame newest = kNoFrame;
    Input last;
  };

  // Known input, else the newest known input at or before frame (repeat-last).
  Input at(const Track& t, Frame frame) const {
    if (frame < 0) return {};
    const std::size_t s = static_cast<std::size_t>(frame % depth_);
    if (t.tags[s] == frame) return t.inputs[s];
    if (frame >= t.newest) return t.last;
    for (Frame f = frame - 1; f >= 0 && f > frame - depth_; --f) {
      const std::size_t p = static_cast<std::size_t>(f % depth_);
      if (t.tags[p] == f) return t.inputs[p];
    }
    return {};
  }
  const Track* find_track(BodyIndex body) const {
    for (const Track& t : tracks_) if (t.body == body) return &t;
    return nullptr;
  }
  Track* find_track(BodyIndex body) {
    for (Track& t : tracks_) if (t.body == body) return &t;
    return nullptr;
  }

  int depth_;
  std::vector<Track> tracks_;
};

}  // namespace shoal::sync
