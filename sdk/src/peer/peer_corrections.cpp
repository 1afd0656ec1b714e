// SPDX-License-Identifier: MIT
// Correcting this peer's frames towards their owners', at the start of each update: the
// tolerated differences that stood too long become mismatches; the bodies frozen here take
// their owners' frames as they are; the rest are caught up from their earliest mismatch, or
// snapped to their owners' newest frame when that is deeper than a catch-up may go.
#include <algorithm>

#include "peer/peer_impl.hpp"
#include "sync/state_compare.hpp"

namespace shoal {
namespace {

std::span<const std::uint8_t> replay_outside_reach(Frame from, const world::FrameHistory& history,
                                                   const AuthorityState& authority, const sync::Mismatches& mismatched,
                                                   float tick_hz, FrameScratch& scratch) {
  // Per-object catch-up: re-simulate the overridden bodies and whatever they can reach before
  // the present; everything else replays its recorded frames.
  history.copy_states(from, scratch.past_states);
  const std::span<const ObjectState> states = scratch.past_states;
  const float horizon = static_cast<float>(history.newest() - from) / tick_hz;
  std::fill(scratch.replay.begin(), scratch.replay.end(), std::uint8_t{1});
  for (BodyIndex m : mismatched.bodies()) {
    const float reach = authority.radii[m] + length(states[m].linear_velocity) * horizon;
    for (BodyIndex b = 0; b < history.body_count(); ++b) {
      const float own_reach = authority.radii[b] + length(states[b].linear_velocity) * horizon;
      if (distance(states[b].position, states[m].position) <= reach + own_reach && !authority.owned_by_me[b]) {
        scratch.replay[b] = 0;
      }
    }
  }
  return scratch.replay;
}

// Differences within tolerance that no catch-up has corrected for tolerated_frames become
// overrides of the newest frame that showed them (a shallow catch-up). One whose newest frame
// is too old for that waits for a newer owner frame; one of a body this peer now owns is moot.
void correct_tolerated(Peer::Impl& m) {
  const Frame newest = m.history.newest();
  const Frame oldest_allowed = std::max(m.history.oldest(), newest - m.config.max_resimulated_frames);
  m.corrections.tolerated.take_overdue(newest - m.config.compare.tolerated_frames, oldest_allowed, [&](BodyIndex b, Frame f) {
    if (m.authority.owned_by_me[b] == 0) m.note_mismatch(b, f);
  });
}

// Re-simulates from the overridden frame; every body the catch-up changed gets its correction
// and is touched (all of them when the engine cannot say which: rows before the newest were
// rewritten too).
void catch_up(Peer::Impl& m, Frame from) {
  const world::FrameHistory& history = m.history;
  const AuthorityState& authority = m.authority;
  sync::Resimulator& resimulator = m.resimulator;
  const Frame newest = history.newest();
  const std::span<const ObjectState> now_states = history.newest_states();
  const std::span<const std::uint8_t> replay =
      m.config.catchup == CatchupScope::object
          ? replay_outside_reach(from, history, authority, m.corrections.mismatched, m.config.tick_hz, m.scratch)
          : authority.owned_by_me;
  m.stats.catchup_frames += static_cast<std::uint64_t>(resimulator.resimulate(from, replay));
  for (BodyIndex b : m.corrections.mismatched.bodies()) {
    m.emit(make_event(EventKind::override_applied, authority.owner_of(b), m.objects.id(b), from, newest - from));
  }
  auto correct = [&](BodyIndex b) {
    const ObjectState& was = resimulator.newest_before(b);
    if (!sync::bitwise_equal(was, now_states[b])) m.visuals.corrected(b, was, now_states[b]);
  };
  const std::span<const BodyIndex> changed = resimulator.last_changes();
  for (BodyIndex b : changed) correct(b);
  m.touch(changed);
}

// Owners' frames of bodies frozen here since their mismatch (other players' balls far away,
// mostly): written in, nothing re-simulated, and only those bodies' smoothing and regions are
// redone. The others' catch-up then starts at their own earliest mismatch: a frozen body is
// out of this peer's simulated region, where nothing it simulates could have touched it.
void correct_frozen_bodies(Peer::Impl& m) {
  const Frame newest = m.history.newest();
  const std::span<const ObjectState> now_states = m.history.newest_states();
  m.corrections.mismatched.correct_each([&](BodyIndex b, Frame from) {
    const ObjectState was = now_states[b];
    const std::span<const BodyIndex> body(&b, 1);
    if (!m.resimulator.correct_frozen(from, body)) return false;
    if (!sync::bitwise_equal(was, now_states[b])) m.visuals.corrected(b, was, now_states[b]);
    m.emit(make_event(EventKind::override_applied, m.authority.owner_of(b), m.objects.id(b), from, newest - from));
    m.touch(body);
    return true;
  });
}

}  // namespace

void Peer::Impl::note_mismatch(BodyIndex body, Frame frame) {
  ++stats.overrides;
  corrections.forensics.overridden(body);
  corrections.mismatched.note(body, frame);
}

void Peer::Impl::apply_corrections() {
  if (!corrections.tolerated.empty()) correct_tolerated(*this);
  correct_frozen_bodies(*this);
  // Spawns and removals heard late: their frames are re-simulated like an owner frame's.
  const Frame existence_from = spawning.take_resimulate_from();
  if (corrections.mismatched.empty() && existence_from == kNoFrame) return;
  Frame from = existence_from;
  if (!corrections.mismatched.empty()) {
    from = from == kNoFrame ? corrections.mismatched.earliest() : std::min(from, corrections.mismatched.earliest());
  }
  const int depth = history.newest() - from;
  // A peer behind the timeline re-simulates a quarter as deep and snaps the rest: its catch-ups
  // would put it further behind, and every frame it is late costs the others catch-ups too.
  const int max_depth = session.recent_lag() > 0 ? std::max(1, config.max_resimulated_frames / 4) : config.max_resimulated_frames;
  if (depth <= max_depth && history.has(from)) {
    catch_up(*this, from);
    corrections.tolerated.caught_up(from);
  } else {
    if (existence_from != kNoFrame) catch_up(*this, existence_from);  // checked reachable when heard
    // Too much work for one update: the owner's newest frame, extrapolated, wins at once (a
    // snap hands its correction to the smoother and touches its body itself).
    for (BodyIndex b : corrections.mismatched.bodies()) {
      const Frame latest = owner_frames.newest(b);
      if (const ObjectState* s = owner_frames.find(latest, b)) {
        snap_to(b, latest, *s, owner_frames.user_bytes(latest, b).first(user_bytes.size[b]));
      }
    }
  }
  corrections.mismatched.clear();
}

void Peer::Impl::snap_to(BodyIndex body, Frame frame, const ObjectState& owner_state,
                         std::span<const std::uint8_t> owner_user_bytes) {
  const Frame newest = history.newest();
  const ObjectState s = newest > frame
                            ? corrections.interpolator.extrapolate(owner_state, static_cast<float>(newest - frame) / config.tick_hz)
                            : owner_state;
  // The frames in between held this peer's stale guesses; a later catch-up that restores one
  // of them should start from the owner's path instead: interpolate it.
  const FrameData from{frame, owner_state}, to{newest, s};
  for (Frame f = std::max(frame + 1, history.oldest()); f < newest; ++f) {
    history.set(f, body, corrections.interpolator.interpolate(from, to, f));
  }
  visuals.corrected(body, history.state(newest, body), s);
  history.set(newest, body, s);
  sim.write(body, s);
  touch(std::span(&body, 1));
  if (!owner_user_bytes.empty()) {
    // Game state cannot be extrapolated: the owner's bytes of that frame hold until it sends more.
    for (Frame f = std::max(frame + 1, history.oldest()); f <= newest; ++f) {
      std::ranges::copy(owner_user_bytes, held_user_bytes(f, body).begin());
    }
    sim.write_user_bytes(body, owner_user_bytes);
  }
  ++stats.snaps;
  log_line(config.log, LogLevel::info, [&] {
    return "snapped object " + std::to_string(objects.id(body)) + " to its owner's frame " + std::to_string(frame) + ", " +
           std::to_string(newest - frame) + " frames back: too far to re-simulate";
  });
  emit(make_event(EventKind::snapped, authority.owner_of(body), objects.id(body), frame, newest - frame));
}

}  // namespace shoal
