// SPDX-License-Identifier: MIT
// The auditor (shoal/audit.hpp). It decodes every snapshot exactly as its receiver would: one
// mirror of the receiver's baselines per (sender, receiver) link, so a delta finds the same
// baseline it finds on the receiver (a record whose baseline the mirror lacks is skipped, as
// the receiver skips it). Decoded owner frames are kept per sender and object in a small ring;
// a sampled frame F is checked against the sender's earlier frame N (F - horizon <= N < F) by
// re-simulating the object alone in a fresh world, quantised after each step as the peers do.
#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <stdexcept>
#include <unordered_map>

#include <fmt/format.h>

#include "core/random.hpp"
#include "shoal/audit.hpp"
#include "sync/quantize_filter.hpp"
#include "sync/snapshot_baselines.hpp"
#include "wire/packet_header.hpp"
#include "wire/quantize.hpp"
#include "wire/snapshot_codec.hpp"
#include "world/user_bytes.hpp"

namespace shoal {
namespace {

constexpr std::size_t kFramesKept = 16;  // owner frames per sender and object (> horizon)
constexpr std::size_t kInputsKept = 64;  // inputs per sender, by frame
constexpr int kMaxHorizon = 16;

void validate(const AuditConfig& c) {
  const auto bad = [](const char* field, auto value, const char* expected) {
    throw std::invalid_argument(fmt::format("AuditConfig::{} is {}: expected {}", field, value, expected));
  };
  if (!c.world) throw std::invalid_argument("AuditConfig::world is empty: expected a world factory");
  if (!(c.frame_seconds > 0 && c.frame_seconds <= 1)) bad("frame_seconds", c.frame_seconds, "(0, 1]");
  if (!(c.sample_probability > 0 && c.sample_probability <= 1)) bad("sample_probability", c.sample_probability, "(0, 1]");
  if (c.horizon_frames < 1 || c.horizon_frames > kMaxHorizon) bad("horizon_frames", c.horizon_frames, "1..16");
  if (!(c.position_tolerance_m > 0)) bad("position_tolerance_m", c.position_tolerance_m, "> 0");
  if (!(c.reach_margin_m >= 0)) bad("reach_margin_m", c.reach_margin_m, ">= 0");
  if (!(c.max_acceleration_mps2 >= 0 && std::isfinite(c.max_acceleration_mps2))) {
    bad("max_acceleration_mps2", c.max_acceleration_mps2, "a finite value >= 0");
  }
  if (c.window_samples < 1) bad("window_samples", c.window_samples, ">= 1");
  if (!(c.suspect_ratio >= 0 && c.suspect_ratio < 1)) bad("suspect_ratio", c.suspect_ratio, "[0, 1)");
}

std::uint32_t link_key(std::uint16_t from, std::uint16_t to) { return (std::uint32_t{from} << 16) | to; }

struct Timed {
  Frame frame = kNoFrame;
  ObjectState state;
};

}  // namespace

struct Auditor::Impl {
  struct Sender {
    AuditPeerStats stats;
    std::vector<Timed> frames;  // body * kFramesKept + frame % kFramesKept
    std::array<Frame, kInputsKept> input_frames{};
    std::array<Input, kInputsKept> inputs{};
    std::optional<BodyIndex> controlled;
    std::vector<std::uint8_t> window;  // recent sample results, 1 = mismatch
    std::size_t window_next = 0;
  };

  explicit Impl(const AuditConfig& c) : config((validate(c), c)), quantizer(c.snapshots), random(c.seed) {
    std::unique_ptr<Simulation> world = config.world();
    if (!world) throw std::invalid_argument("AuditConfig::world returned no world: expected a Simulation");
    body_count = world->body_count();
    user_bytes_sizes = world::user_bytes_layout(*world).size;  // records carry them: to parse
    latest.resize(body_count);
    radius.resize(body_count);
    for (BodyIndex b = 0; b < body_count; ++b) {
      latest[b].state = world->read(b);  // nobody sent it yet: where the world starts it
      radius[b] = world->bounding_radius(b);
      ids.emplace(world->body_id(b), b);
      max_radius = std::max(max_radius, radius[b]);
    }
  }

  Sender& sender(std::uint16_t slot) {
    auto found = senders.find(slot);
    if (found == senders.end()) {
      Sender s;
      s.stats.slot = slot;
      s.frames.resize(body_count * kFramesKept);
      s.input_frames.fill(kNoFrame);
      found = senders.emplace(slot, std::move(s)).first;
    }
    return found->second;
  }

  void observe(std::uint16_t from, std::uint16_t to, std::span<const std::uint8_t> bytes) {
    wire::MessageKind kind{};
    if (!wire::read_header(bytes, kind) || kind != wire::MessageKind::snapshot) return;
    if (!wire::decode(bytes, quantizer.limits(), snapshot, user_bytes_sizes)) return;
    if (snapshot.quantized != config.snapshots.quantize || snapshot.frame < 0) return;
    Sender& s = sender(from);
    s.stats.peer = snapshot.sender;
    note_inputs(s);
    auto link = links.find(link_key(from, to));
    if (link == links.end()) link = links.emplace(link_key(from, to), sync::ReceivedSnapshots(body_count)).first;
    for (const wire::ObjectRecord& record : snapshot.objects) {
      if (record.index >= body_count) continue;
      ObjectState state = record.raw;
      if (snapshot.quantized) {
        const wire::QuantizedState* baseline =
            record.baseline_age > 0
                ? link->second.find(record.index, snapshot.frame - static_cast<Frame>(record.baseline_age))
                : nullptr;
        if (record.baseline_age > 0 && baseline == nullptr) continue;
        const std::optional<wire::QuantizedState> q = wire::apply_record(record, baseline, quantizer);
        if (!q) continue;
        link->second.store(record.index, snapshot.frame, *q);
        state = quantizer.dequantize(*q);
      }
      on_owner_frame(s, record.index, snapshot.frame, state);
    }
  }

  void note_inputs(Sender& s) {
    s.controlled.reset();
    if (snapshot.controlled == wire::kNoObject) return;
    const auto body = ids.find(snapshot.controlled);
    if (body == ids.end()) return;
    s.controlled = body->second;
    for (const wire::InputRecord& r : snapshot.inputs) {
      if (r.frame < 0) continue;
      const std::size_t at = static_cast<std::size_t>(r.frame) % kInputsKept;
      s.input_frames[at] = r.frame;
      s.inputs[at] = r.input;
    }
  }

  const Input* input(const Sender& s, Frame frame) const {
    const std::size_t at = static_cast<std::size_t>(frame) % kInputsKept;
    return s.input_frames[at] == frame ? &s.inputs[at] : nullptr;
  }

  void on_owner_frame(Sender& s, BodyIndex body, Frame frame, const ObjectState& state) {
    Timed& slot = s.frames[body * kFramesKept + static_cast<std::size_t>(frame) % kFramesKept];
    if (slot.frame == frame) return;  // the same frame, sent to another receiver too
    slot = {frame, state};
    ++s.stats.owner_frames;
    if (frame > latest[body].frame) latest[body] = {frame, state};
    if (state.at_rest || !random.chance(config.sample_probability)) return;
    check(s, body, frame, state);
  }

  // The earliest frame the sender sent of body within the horizon before `frame`, moving.
  const Timed* start_of(const Sender& s, BodyIndex body, Frame frame) const {
    for (Frame n = frame - config.horizon_frames; n < frame; ++n) {
      if (n < 0) continue;
      const Timed& t = s.frames[body * kFramesKept + static_cast<std::size_t>(n) % kFramesKept];
      if (t.frame == n && !t.state.at_rest) return &t;
    }
    return nullptr;
  }

  // Whether any other object could touch body between `from` and `from + frames`.
  bool crowded(BodyIndex body, const ObjectState& start, Frame from, int frames) const {
    const float dt = config.frame_seconds;
    const float own = radius[body] + length(start.linear_velocity) * static_cast<float>(frames) * dt +
                      config.reach_margin_m;
    for (BodyIndex other = 0; other < body_count; ++other) {
      if (other == body) continue;
      const Timed& t = latest[other];
      // Its newest known state may be older or newer than `from`: it moves at most this far,
      // speeding up as fast as anything can (it may be long unsent: falling, pushed). One at
      // rest stays put until something that moves reaches it, or its owner sends it moving.
      const float t_apart =
          static_cast<float>(std::abs(t.frame == kNoFrame ? from : t.frame - from) + frames) * dt;
      const float theirs =
          radius[other] + (t.state.at_rest ? 0.0f
                                           : (length(t.state.linear_velocity) +
                                              0.5f * config.max_acceleration_mps2 * t_apart) * t_apart);
      if (distance(start.position, t.state.position) < own + theirs) return true;
    }
    return false;
  }

  void check(Sender& s, BodyIndex body, Frame frame, const ObjectState& owner) {
    const Timed* start = start_of(s, body, frame);
    const int frames = start == nullptr ? 0 : frame - start->frame;
    bool checkable = start != nullptr && !crowded(body, start->state, start->frame, frames);
    const bool controlled = s.controlled == body;
    for (Frame f = frame - frames + 1; checkable && controlled && f <= frame; ++f) {
      checkable = input(s, f) != nullptr;
    }
    if (!checkable) {
      ++s.stats.skipped;
      return;
    }
    const float error = distance(resimulate(s, body, *start, frame, controlled).position, owner.position);
    const bool mismatch = error > config.position_tolerance_m;
    ++s.stats.samples;
    s.stats.mismatches += mismatch ? 1 : 0;
    s.stats.max_error_m = std::max(s.stats.max_error_m, error);
    const auto window = static_cast<std::size_t>(config.window_samples);
    if (s.window.size() < window) {
      s.window.push_back(mismatch ? 1 : 0);
    } else {
      s.window[s.window_next] = mismatch ? 1 : 0;
      s.window_next = (s.window_next + 1) % window;
    }
    const auto bad = std::count(s.window.begin(), s.window.end(), std::uint8_t{1});
    s.stats.suspect = s.window.size() == window &&
                      static_cast<float>(bad) > config.suspect_ratio * static_cast<float>(window);
  }

  // Body alone in a fresh world from `start` to `frame`; every other body parked asleep far
  // above the arena, where nothing reaches it.
  ObjectState resimulate(const Sender& s, BodyIndex body, const Timed& start, Frame frame, bool controlled) const {
    std::unique_ptr<Simulation> world = config.world();
    if (!world || world->body_count() != body_count) {
      throw std::logic_error("AuditConfig::world built a different world than at construction");
    }
    const float spacing = 2 * max_radius + 1;
    for (BodyIndex b = 0; b < body_count; ++b) {
      if (b == body) continue;
      ObjectState parked;
      parked.position = {0, kParkHeight + spacing * static_cast<float>(b), 0};
      parked.at_rest = true;
      world->write(b, parked);
    }
    world->write(body, start.state);
    world->restore(start.frame);
    sync::QuantizeFilter filter(quantizer, body_count);
    std::vector<BodyInput> inputs;
    ObjectState state = start.state;
    for (Frame f = start.frame + 1; f <= frame; ++f) {
      inputs.clear();
      if (controlled) inputs.push_back({body, *input(s, f)});
      world->step(f, inputs);
      state = world->read(body);
      if (config.snapshots.quantize && filter.apply(body, f, state)) world->write(body, state);
    }
    return state;
  }

  static constexpr float kParkHeight = 10000;

  AuditConfig config;
  wire::Quantizer quantizer;
  core::Random random;
  std::size_t body_count = 0;
  std::vector<std::uint8_t> user_bytes_sizes;  // per body
  std::vector<Timed> latest;  // newest owner frame of every body, from any sender
  std::vector<float> radius;
  float max_radius = 0;
  std::unordered_map<ObjectId, BodyIndex> ids;
  std::unordered_map<std::uint32_t, sync::ReceivedSnapshots> links;
  std::unordered_map<std::uint16_t, Sender> senders;
  wire::Snapshot snapshot;  // decode buffer, reused
};

Auditor::Auditor(const AuditConfig& config) : impl_(std::make_unique<Impl>(config)) {}
Auditor::~Auditor() = default;

void Auditor::observe(std::uint16_t from, std::uint16_t to, Channel, std::span<const std::uint8_t> bytes) {
  impl_->observe(from, to, bytes);
}

std::vector<std::uint16_t> Auditor::suspects() const {
  std::vector<std::uint16_t> out;
  for (const auto& [slot, s] : impl_->senders) {
    if (s.stats.suspect) out.push_back(slot);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<AuditPeerStats> Auditor::stats() const {
  std::vector<AuditPeerStats> out;
  for (const auto& [slot, s] : impl_->senders) out.push_back(s.stats);
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.slot < b.slot; });
  return out;
}

}  // namespace shoal
