// SPDX-License-Identifier: MIT
// The Dear ImGui overlay: the player's network figures now and over the last half minute
// (after GGPO's performance monitor), link-conditioner sliders and drawing toggles.
#pragma once

#include <SDL.h>

#include <array>
#include <memory>
#include <string>

#include "imgui_sdl_renderer.hpp"
#include "scene.hpp"

namespace arena {

/// Figures sampled ten times a second into rings, for the graphs.
class StatsHistory {
 public:
  enum Metric { rtt_ms, loss_percent, kbps_out, kbps_in, overrides_per_s, catchup_per_s, kMetrics };
  static constexpr int kSamples = 300;
  static constexpr double kIntervalS = 0.1;

  bool due(double now_s) const { return last_s_ < 0 || now_s - last_s_ >= kIntervalS; }
  void sample(const shoal::PeerStats& stats, double now_s);
  float latest(Metric m) const { return values_[m][(next_ + kSamples - 1) % kSamples]; }
  const std::array<float, kSamples>& ring(Metric m) const { return values_[m]; }
  int oldest() const { return next_; }

 private:
  std::array<std::array<float, kSamples>, kMetrics> values_{};
  int next_ = 0;
  double last_s_ = -1;
  std::uint64_t last_overrides_ = 0, last_catchup_ = 0;
};

/// What the overlay lets the player change.
struct Controls {
  SceneOptions scene;
  float loss = 0, latency_ms = 0, jitter_ms = 0;  ///< applied to the player's peer on change
  std::uint64_t seed = 1;                          ///< of the conditioner's random impairments
};

class Overlay {
 public:
  Overlay(SDL_Window* window, SDL_Renderer* renderer);
  ~Overlay();
  Overlay(const Overlay&) = delete;
  Overlay& operator=(const Overlay&) = delete;

  void process(const SDL_Event& event);
  bool wants_keyboard() const;
  bool wants_mouse() const;  ///< the mouse is over the overlay (ImGui's WantCaptureMouse)
  /// Builds this frame's overlay; changed sliders go straight to the player's peer.
  void build(Player& player, const StatsHistory& history, const std::string& where, Controls& controls);
  void render();

  static constexpr int kWidth = 380;  ///< the scene is laid out to the right of it

 private:
  std::unique_ptr<ImGuiSdlRenderer> renderer_;
};

/// Both directions of every link of the peer get the same impairments.
shoal::ConditionerConfig conditions_of(const Controls& controls);

}  // namespace arena
