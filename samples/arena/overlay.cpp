// SPDX-License-Identifier: MIT
#include "overlay.hpp"

#include <imgui.h>
#include <backends/imgui_impl_sdl.h>

#include <algorithm>
#include <cfloat>
#include <cstdio>

#include "palette.hpp"

namespace arena {

void StatsHistory::sample(const shoal::PeerStats& stats, double now_s) {
  const double dt = last_s_ < 0 ? kIntervalS : now_s - last_s_;
  float rtt = 0, loss = 0, out = 0, in = 0;
  // The worst link is what the player feels; bandwidth adds up over links.
  for (const shoal::RemotePeerStats& r : stats.remotes) {
    rtt = std::max(rtt, r.link.rtt_ms);
    loss = std::max(loss, r.link.packet_loss * 100);
    out += r.link.bytes_out_per_s * 8 / 1000;
    in += r.link.bytes_in_per_s * 8 / 1000;
  }
  const auto per_second = [dt](std::uint64_t now, std::uint64_t before) {
    return static_cast<float>(static_cast<double>(now - before) / dt);
  };
  const std::array<float, kMetrics> sample{rtt, loss, out, in,
                                           per_second(stats.overrides, last_overrides_),
                                           per_second(stats.catchup_frames, last_catchup_)};
  for (int m = 0; m < kMetrics; ++m) values_[m][next_] = sample[m];
  next_ = (next_ + 1) % kSamples;
  last_s_ = now_s;
  last_overrides_ = stats.overrides;
  last_catchup_ = stats.catchup_frames;
}

shoal::ConditionerConfig conditions_of(const Controls& controls) {
  shoal::LinkConditions link;
  link.loss = controls.loss;
  link.latency_ms = controls.latency_ms;
  link.jitter_ms = controls.jitter_ms;
  shoal::ConditionerConfig config;
  config.outbound = link;
  config.inbound = link;
  config.seed = controls.seed;
  return config;
}

Overlay::Overlay(SDL_Window* window, SDL_Renderer* renderer) {
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // a sample should not leave imgui.ini behind
  ImGui::StyleColorsDark();
  ImGui_ImplSDL2_InitForSDLRenderer(window);
  renderer_ = std::make_unique<ImGuiSdlRenderer>(renderer);
}

Overlay::~Overlay() {
  renderer_.reset();
  ImGui_ImplSDL2_Shutdown();
  ImGui::DestroyContext();
}

void Overlay::process(const SDL_Event& event) { ImGui_ImplSDL2_ProcessEvent(&event); }
bool Overlay::wants_keyboard() const { return ImGui::GetIO().WantCaptureKeyboard; }
bool Overlay::wants_mouse() const { return ImGui::GetIO().WantCaptureMouse; }

namespace {

void graph(const char* label, const StatsHistory& history, StatsHistory::Metric metric, const char* unit) {
  char now[48];
  std::snprintf(now, sizeof now, "%.1f %s", static_cast<double>(history.latest(metric)), unit);
  const auto& ring = history.ring(metric);
  const float top = std::max(1.0f, *std::max_element(ring.begin(), ring.end()) * 1.2f);
  ImGui::PlotLines(label, ring.data(), StatsHistory::kSamples, history.oldest(), now, 0, top,
                   ImVec2(0, 38));
}

void section(const char* title) {
  ImGui::Separator();
  ImGui::TextUnformatted(title);
}

ImVec4 colour_of(shoal::PeerId peer) {
  const Rgb c = owner_colour(peer);
  return ImVec4(c.r / 255.0f, c.g / 255.0f, c.b / 255.0f, 1);
}

}  // namespace

void Overlay::build(Player& player, const StatsHistory& history, const std::string& where,
                    Controls& controls) {
  ImGui_ImplSDL2_NewFrame();
  ImGui::NewFrame();
  ImGui::SetNextWindowPos(ImVec2(10, 10), ImGuiCond_FirstUseEver);
  // Fixed width, height fitted to the contents as they grow (more peers, longer figures).
  ImGui::SetNextWindowSizeConstraints(ImVec2(kWidth - 20, 0), ImVec2(kWidth - 20, FLT_MAX));
  ImGui::Begin("Shoal arena", nullptr, ImGuiWindowFlags_AlwaysAutoResize);
  const shoal::Peer& peer = *player.peer;
  const shoal::PeerStats stats = peer.stats();
  if (peer.in_match()) {
    ImGui::Text("peer %u  frame %d  %zu peers", static_cast<unsigned>(peer.id()), stats.frame,
                peer.peers().size());
  } else {
    ImGui::TextUnformatted("joining...");
  }
  ImGui::TextUnformatted(where.c_str());
  ImGui::Text("owned %zu  ownership changes %llu  desyncs %llu", stats.owned_objects,
              static_cast<unsigned long long>(stats.ownership_changes),
              static_cast<unsigned long long>(player.desyncs));
  ImGui::Text("overrides %llu  catch-up frames %llu  snaps %llu",
              static_cast<unsigned long long>(stats.overrides),
              static_cast<unsigned long long>(stats.catchup_frames),
              static_cast<unsigned long long>(stats.snaps));

  section("network (worst link)");
  graph("RTT", history, StatsHistory::rtt_ms, "ms");
  // ENet's figure (reliable resends per datagram sent, averaged over 10 s periods) reads far
  // below the conditioner's loss when most traffic is unreliable snapshots.
  graph("loss", history, StatsHistory::loss_percent, "%");
  graph("out", history, StatsHistory::kbps_out, "kbit/s");
  graph("in", history, StatsHistory::kbps_in, "kbit/s");
  graph("overrides", history, StatsHistory::overrides_per_s, "/s");
  graph("catch-up", history, StatsHistory::catchup_per_s, "frames/s");

  section("link conditioner (each direction)");
  bool changed = ImGui::SliderFloat("loss", &controls.loss, 0, 0.5f, "%.2f");
  changed |= ImGui::SliderFloat("latency ms", &controls.latency_ms, 0, 300, "%.0f");
  changed |= ImGui::SliderFloat("jitter ms", &controls.jitter_ms, 0, 100, "%.0f");
  if (changed) player.peer->set_conditions(conditions_of(controls));

  section("view");
  ImGui::Checkbox("raw simulation state (white outlines)", &controls.scene.raw_state);
  ImGui::TextUnformatted("owners:");
  for (shoal::PeerId p : peer.peers()) {
    ImGui::SameLine();
    char label[16];
    std::snprintf(label, sizeof label, "%u", static_cast<unsigned>(p));
    ImGui::ColorButton(label, colour_of(p), ImGuiColorEditFlags_NoTooltip, ImVec2(14, 14));
    ImGui::SameLine();
    ImGui::TextUnformatted(label);
  }
  ImGui::TextUnformatted("WASD / arrows: drive the ringed ball  Esc: quit");
  ImGui::TextUnformatted("F / space / left button: fire (reference physics)");
  ImGui::End();
  ImGui::Render();
}

void Overlay::render() { renderer_->render(*ImGui::GetDrawData()); }

}  // namespace arena
