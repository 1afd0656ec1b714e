// SPDX-License-Identifier: MIT
// The Resimulator's two ways of recording a step: reading every body, or (when the engine
// lists the bodies a step changed) carrying the previous frame over and reading only those.
// Both must record the same frames, bit for bit, through straight steps, injected owner frames,
// replayed bodies and catch-ups from any held frame, the newest included; and a whole match
// (whose visual smoothing then also visits only what changed) must play out the same.
#include <doctest/doctest.h>

#include "core/random.hpp"
#include "match_harness.hpp"
#include "shoal/forwarding_simulation.hpp"
#include "sync/quantize_filter.hpp"
#include "sync/resimulator.hpp"
#include "sync/state_compare.hpp"
#include "wire/quantize.hpp"

using namespace shoal;
using namespace shoal::test;

namespace {

// Forwards to the reference physics and counts reads; `list_changed` = false hides the
// engine's changed-body list, as an engine that cannot tell would.
class CountingPhysics final : public ForwardingSimulation {
 public:
  CountingPhysics(Simulation& inner, bool list_changed) : ForwardingSimulation(inner), list_changed_(list_changed) {}
  ObjectState read(BodyIndex b) const override {
    ++reads;
    return inner().read(b);
  }
  std::optional<std::span<const BodyIndex>> changed_bodies() const override {
    return list_changed_ ? inner().changed_bodies() : std::nullopt;
  }

  mutable std::int64_t reads = 0;

 private:
  bool list_changed_;
};

constexpr int kDepth = 32;

struct Rig {
  Rig(const ArenaSpec& spec, bool list_changed)
      : physics(arena_physics(spec)),
        counted((build_arena(physics, spec), physics), list_changed),
        history(counted.body_count(), kDepth),
        owner_frames(counted.body_count(), kDepth + kDepth / 4 + 1),
        inputs(kDepth),
        quantizer(SnapshotConfig{}),
        filter(quantizer, counted.body_count()),
        resimulator(counted, history, owner_frames, inputs) {
    resimulator.set_state_filter(&filter);
  }
  ReferencePhysics physics;
  CountingPhysics counted;
  world::FrameHistory history;
  sync::OwnerFrames owner_frames;
  sync::InputLog inputs;
  wire::Quantizer quantizer;
  sync::QuantizeFilter filter;
  sync::Resimulator resimulator;
};

// Every held frame of both histories, states and confirmed flags, bit for bit.
bool same_history(const Rig& a, const Rig& b) {
  if (a.history.oldest() != b.history.oldest() || a.history.newest() != b.history.newest()) return false;
  for (Frame f = a.history.oldest(); f <= a.history.newest(); ++f) {
    for (BodyIndex body = 0; body < a.history.body_count(); ++body) {
      if (!sync::bitwise_equal(a.history.state(f, body), b.history.state(f, body))) return false;
      if (a.history.confirmed(f, body) != b.history.confirmed(f, body)) return false;
    }
  }
  return true;
}

}  // namespace

TEST_CASE("recording only the bodies a step changed gives the frames a full read gives") {
  const ArenaSpec spec{3, 150, 15};
  Rig every(spec, false), changed(spec, true);
  Rig* rigs[] = {&every, &changed};
  const auto bodies = static_cast<BodyIndex>(every.counted.body_count());
  for (Rig* r : rigs) {
    for (BodyIndex ball = 0; ball < static_cast<BodyIndex>(spec.balls); ++ball) r->inputs.track(ball);
    r->resimulator.start(0);
  }
  core::Random random(2024);
  std::vector<std::uint8_t> replay(bodies, 0);
  int catchups = 0, newest_overrides = 0;
  std::size_t changed_by_catchups = 0, named_total = 0, changed_by_steps = 0;
  for (Frame frame = 1; frame <= 600; ++frame) {
    // The balls' players change their minds now and then.
    Input in;
    in.axis = {static_cast<float>(random.next_u64() % 3) - 1, 0, static_cast<float>(random.next_u64() % 3) - 1};
    const auto ball = static_cast<BodyIndex>(random.next_u64() % static_cast<std::uint64_t>(spec.balls));
    for (Rig* r : rigs) {
      r->inputs.record(ball, frame, in);
      r->resimulator.step_forward({});
    }
    // A straight step names every body whose state it changed, whether the engine lists them
    // or every body is read.
    for (const Rig* r : rigs) {
      if (!r->history.has(frame - 1)) continue;
      const auto named = r->resimulator.last_changes();
      for (BodyIndex b = 0; b < bodies; ++b) {
        if (!sync::bitwise_equal(r->history.state(frame, b), r->history.state(frame - 1, b))) {
          ++changed_by_steps;
          CHECK(std::ranges::find(named, b) != named.end());
        }
      }
    }
    if (frame % 3 != 0 || frame < 10) continue;
    // An owner's frames arrive for a few bodies, some for the newest frame, some older: a
    // nudge on the quantised grid, as a real owner's state would be.
    const Frame newest = every.history.newest();
    const Frame from = newest - static_cast<Frame>(random.next_u64() % 8);
    for (int k = 0; k < 3; ++k) {
      const auto body = static_cast<BodyIndex>(random.next_u64() % bodies);
      const Frame last = newest + static_cast<Frame>(random.next_u64() % 2);  // the owner may be ahead
      for (Frame f = from; f <= last; ++f) {
        const Frame known = std::min(f, newest);
        ObjectState owner = every.history.state(known, body);
        owner.position.y += 0.25f;
        owner.at_rest = false;
        owner = every.quantizer.round_trip(owner);
        for (Rig* r : rigs) r->owner_frames.store(f, body, owner);
      }
    }
    // This peer's own bodies replay their recorded frames in about half of the catch-ups.
    const bool replaying = random.next_u64() % 2 == 0;
    for (BodyIndex b = 0; b < bodies; ++b) replay[b] = replaying && random.next_u64() % 4 == 0 ? 1 : 0;
    // The catch-up names every body whose newest two frames it changed (smoothing and regions
    // then visit only those), with or without the engine's list: the history says what it set.
    const std::vector<ObjectState> newest_before(changed.history.newest_states().begin(), changed.history.newest_states().end());
    const std::vector<ObjectState> previous_before(changed.history.previous_states().begin(), changed.history.previous_states().end());
    for (Rig* r : rigs) r->resimulator.resimulate(from, replay);
    for (const Rig* r : rigs) {
      const auto named = r->resimulator.last_changes();
      for (BodyIndex b = 0; b < bodies; ++b) {
        const bool moved = !sync::bitwise_equal(newest_before[b], r->history.newest_states()[b]) ||
                           !sync::bitwise_equal(previous_before[b], r->history.previous_states()[b]);
        if (moved) {
          ++changed_by_catchups;
          CHECK(std::ranges::find(named, b) != named.end());
        }
      }
      named_total += named.size();
    }
    ++catchups;
    if (from == newest) ++newest_overrides;
    REQUIRE_MESSAGE(same_history(every, changed), "frames differ after the catch-up from " << from
                                                      << " at frame " << newest);
  }
  CHECK(same_history(every, changed));
  CHECK(catchups > 150);
  CHECK(newest_overrides > 10);
  CHECK(changed_by_catchups > 100);
  CHECK(changed_by_steps > 1000);
  // A catch-up names a part of the world, not all of it (here a third: the nudges wake bodies);
  // the total is of both rigs.
  CHECK(named_total < static_cast<std::size_t>(catchups) * bodies);
  // The point of the list: most of a world at rest is not read at all.
  CHECK(changed.counted.reads * 2 < every.counted.reads);
}

TEST_CASE("a match plays out the same, visuals included, whether or not the engine lists its changed bodies") {
  const ArenaSpec spec{3, 12};
  PeerConfig config;
  config.checksum_interval_frames = 30;
  auto hide_list = [](ReferencePhysics& physics) { return std::make_unique<CountingPhysics>(physics, false); };
  FakeMatch listed(3, spec, config, 131), every(3, spec, config, 131, -1, {}, hide_list);
  listed.network().set_conditions(link(40, 0.1f));
  every.network().set_conditions(link(40, 0.1f));
  REQUIRE(listed.connect(5));
  REQUIRE(every.connect(5));
  // One player drives, faster than the tick: the others' updates then mostly visit only what
  // the step changed and what the owner sent, between the catch-ups its inputs cause.
  for (FakeMatch* m : {&listed, &every}) {
    m->players[0].bot.emplace(41, spec.objects);
    m->render_us = 7'000;
  }
  const std::vector<ObjectId> ids = all_ids(spec);
  int compared = 0, moving_visuals = 0;
  constexpr int kFrames = 1000;  // 7 s
  for (int i = 0; i < kFrames; ++i) {
    if (i == kFrames * 3 / 4) {
      listed.disable_bots();
      every.disable_bots();
    }
    listed.run(0.007);
    every.run(0.007);
    for (std::size_t p = 0; p < listed.players.size(); ++p) {
      const Peer& a = *listed.players[p].peer;
      const Peer& b = *every.players[p].peer;
      REQUIRE(a.frame() == b.frame());
      for (ObjectId id : ids) {
        CAPTURE(i);
        CAPTURE(p);
        CAPTURE(id);
        REQUIRE(a.owner(id) == b.owner(id));
        REQUIRE(a.state(id) == b.state(id));
        REQUIRE(a.visual(id) == b.visual(id));
        ++compared;
        moving_visuals += a.visual(id).position == a.state(id).position ? 0 : 1;
      }
    }
  }
  CHECK(compared == kFrames * 3 * static_cast<int>(ids.size()));
  CHECK(moving_visuals > 1000);  // interpolation and offsets were exercised, not just resting poses
  CHECK(listed.players[1].peer->stats().catchup_frames > 0);
  CHECK(listed.players[1].peer->stats().overrides == every.players[1].peer->stats().overrides);
}
