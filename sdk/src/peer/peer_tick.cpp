// SPDX-License-Identifier: MIT
// One update of a peer: receive, correct, step the due frames, decide ownership, send,
// smooth. The order follows docs/architecture.md ("One tick on one peer").
#include <algorithm>
#include <cmath>

#include "peer/peer_impl.hpp"
#include "sync/checksum.hpp"
#include "sync/state_compare.hpp"

namespace shoal {

void Peer::Impl::update(std::int64_t now_us) {
  cost_clock.begin();
  if (recorder) recorder->update(now_us);
  if (last_update_us >= 0 && now_us < last_update_us) now_us = last_update_us;  // never backwards
  const Frame newest_before = history.empty() ? kNoFrame : history.newest();
  const std::uint64_t corrections_before = stats.catchup_frames + stats.snaps;
  joining.tick(now_us);
  drain_transport(now_us);
  cost_clock.lap(&UpdateCost::receive_ns);
  expire_absent(now_us);
  switch (phase) {
    case Phase::hosting:
      start_match(now_us, 0);
      break;
    case Phase::joining:
      if (host_link_up) send_pings(now_us);
      break;
    case Phase::syncing:
      send_pings(now_us);
      // Only once linked to every member: its snapshots and claims must reach them all.
      if (joining.meshed() && pongs_received >= kPongsBeforeStart) {
        if (auto target = time_sync.target_match_frame(now_us)) {
          start_match(now_us, static_cast<Frame>(std::floor(*target)));
        }
      }
      break;
    default:
      break;
  }
  advance_join(now_us);
  if (phase == Phase::in_match) {
    cost_clock.lap(&UpdateCost::session_ns);
    apply_corrections();
    cost_clock.lap(&UpdateCost::correct_ns);
    // The host defines the timeline; everyone else follows the estimate from its pings.
    std::optional<double> target;
    if (!is_host) target = time_sync.target_match_frame(now_us);
    const int due = clock->advance(now_us, target);
    for (int i = 0; i < due; ++i) step_frame();
    for (const PendingPong& p : pending_pongs) {
      send_to(p.connection, wire::Pong{p.ping_sent_us, clock->match_time()});
    }
    pending_pongs.clear();
    send_pings(now_us);
    cost_clock.lap(&UpdateCost::session_ns);
    refresh_visuals(now_us);
    cost_clock.lap(&UpdateCost::present_ns);
  }
  // What this update sent leaves now: left to the next update's poll, every snapshot and pong
  // would wait a render frame, which receivers would have to catch up and time sync would
  // read as a longer return leg.
  transport->flush();
  last_update_us = now_us;
  if (recorder && !history.empty() &&
      (history.newest() != newest_before || stats.catchup_frames + stats.snaps != corrections_before)) {
    recorder->check(history.newest(), history.newest_states());
  }
  cost_clock.end();
}

void Peer::Impl::start_match(std::int64_t now_us, Frame frame) {
  session::FrameClockConfig clock_config;
  clock_config.tick_hz = config.tick_hz;
  clock_config.max_catchup_frames_per_update = config.max_clock_catchup_frames;
  clock.emplace(clock_config, now_us, frame);
  resimulator.start(frame);
  rest_checks.clear();
  tolerated.clear();
  touch_all();
  const std::vector<PeerId> live = members.live();
  ownership.emplace(config.authority, config.tick_hz, members.self(), live, body_count);
  for (PeerId peer : live) reset_regions(peer);
  for (const EarlyChange& early : early_ownership) apply_ownership(early.change, early.record);
  early_ownership.clear();
  note_owner_changes();
  phase = Phase::in_match;
  emit(make_event(EventKind::joined_match, members.self(), 0, frame));
  if (!baselines_requested) request_baselines();
  for (const auto& [from, baseline] : early_baselines) on_baseline(from, baseline);
  early_baselines.clear();
}

void Peer::Impl::step_frame() {
  const Frame frame = history.newest() + 1;
  // The input set now is this player's for a frame input_delay_frames ahead (that frame's
  // snapshot already carries it to the others). The frames before a new controlled object's
  // first delayed input get none.
  if (controlled) inputs.record(*controlled, frame + config.input_delay_frames, current_input);
  resimulator.step_forward({}, frozen_for_next_step());
  note_step_changes();
  if (config.sync_test_frames > 0) run_sync_test(frame);
  check_resting_copies();
  cost_clock.lap(&UpdateCost::step_ns);
  update_regions_and_ownership(frame);
  cost_clock.lap(&UpdateCost::authority_ns);
  send_snapshots(frame);
  if (config.checksum_interval_frames > 0 && frame % config.checksum_interval_frames == 0) {
    send_checksum(frame);
  }
  cost_clock.lap(&UpdateCost::send_ns);
#ifdef SHOAL_VALIDATE_PARTS
  validate_parts();
#endif
}

void Peer::Impl::validate_parts() const {
  visuals.validate();
  sender.validate(owned_bodies);
}

// Outside this peer's simulated region (as of the last frame), bodies that no player
// controls are left out of the step, unless this peer owns them and they move: an owner's
// frames are final for everyone (a resting one stays put either way, and whoever hits it
// claims it first). Other players' balls out there are frozen too: their owners send them to
// every peer, and those frames are written in without re-simulating (apply_corrections).
std::span<const std::uint8_t> Peer::Impl::frozen_for_next_step() {
  freezing = false;
  if (!config.freeze_outside_simulated_region || !controlled) return {};
  freezing = true;
  const std::span<const ObjectState> states = history.newest_states();
  // Over plain pointers: byte vectors may alias anything, which would keep this whole-world
  // pass from being vectorised.
  const std::uint8_t* __restrict simulated = regions_of(members.self()).simulated.data();
  std::uint8_t* __restrict frozen = frozen_next.data();
  for (BodyIndex b = 0; b < body_count; ++b) frozen[b] = static_cast<std::uint8_t>(simulated[b] == 0);
  for (BodyIndex b : owned_bodies) {
    if (!states[b].at_rest) frozen[b] = 0;
  }
  frozen[*controlled] = 0;
  return frozen_next;
}

void Peer::Impl::apply_corrections() {
  if (!tolerated.empty()) correct_tolerated();
  correct_frozen_bodies();
  if (mismatched_bodies.empty()) return;
  Frame from = mismatched_since[mismatched_bodies.front()];
  for (BodyIndex b : mismatched_bodies) from = std::min(from, mismatched_since[b]);
  const int depth = history.newest() - from;
  if (depth <= config.max_resimulated_frames && history.has(from)) {
    catch_up(from);
    tolerated.caught_up(from);
  } else {
    // Too much work for one update: the owner's newest frame, extrapolated, wins at once (a
    // snap hands its correction to the smoother and touches its body itself).
    for (BodyIndex b : mismatched_bodies) {
      const Frame latest = owner_frames.newest(b);
      if (const ObjectState* s = owner_frames.find(latest, b)) {
        snap_to(b, latest, *s, owner_frames.user_bytes(latest, b).first(user_bytes.size[b]));
      }
    }
  }
  for (BodyIndex b : mismatched_bodies) mismatched_since[b] = kNoFrame;
  mismatched_bodies.clear();
}

// Differences within tolerance that no catch-up has corrected for tolerated_frames become
// overrides of the newest frame that showed them (a shallow catch-up). One whose newest frame
// is too old for that waits for a newer owner frame; one of a body this peer now owns is moot.
void Peer::Impl::correct_tolerated() {
  const Frame newest = history.newest();
  const Frame oldest_allowed = std::max(history.oldest(), newest - config.max_resimulated_frames);
  tolerated.take_overdue(newest - config.compare.tolerated_frames, oldest_allowed, [&](BodyIndex b, Frame f) {
    if (owned_by_me[b] == 0) note_mismatch(b, f);
  });
}

// Re-simulates from the overridden frame; every body the catch-up changed gets its correction
// and is touched (all of them when the engine cannot say which: rows before the newest were
// rewritten too).
void Peer::Impl::catch_up(Frame from) {
  const Frame newest = history.newest();
  const std::span<const ObjectState> now_states = history.newest_states();
  const std::span<const std::uint8_t> replay =
      config.catchup == CatchupScope::object ? replay_outside_reach(from) : owned_by_me;
  stats.catchup_frames += static_cast<std::uint64_t>(resimulator.resimulate(from, replay));
  for (BodyIndex b : mismatched_bodies) {
    emit(make_event(EventKind::override_applied, owner_of(b), objects.id(b), from, newest - from));
  }
  auto correct = [&](BodyIndex b) {
    const ObjectState& was = resimulator.newest_before(b);
    if (!sync::bitwise_equal(was, now_states[b])) visuals.corrected(b, was, now_states[b]);
  };
  const std::span<const BodyIndex> changed = resimulator.last_changes();
  for (BodyIndex b : changed) correct(b);
  touch(changed);
}

// Owners' frames of bodies frozen here since their mismatch (other players' balls far away,
// mostly): written in, nothing re-simulated, and only those bodies' smoothing and regions are
// redone. The others' catch-up then starts at their own earliest mismatch: a frozen body is
// out of this peer's simulated region, where nothing it simulates could have touched it.
void Peer::Impl::correct_frozen_bodies() {
  const Frame newest = history.newest();
  const std::span<const ObjectState> now_states = history.newest_states();
  std::erase_if(mismatched_bodies, [&](BodyIndex b) {
    const Frame from = mismatched_since[b];
    const ObjectState was = now_states[b];
    const std::span<const BodyIndex> body(&b, 1);
    if (!resimulator.correct_frozen(from, body)) return false;
    if (!sync::bitwise_equal(was, now_states[b])) visuals.corrected(b, was, now_states[b]);
    emit(make_event(EventKind::override_applied, owner_of(b), objects.id(b), from, newest - from));
    touch(body);
    mismatched_since[b] = kNoFrame;
    return true;
  });
}

void Peer::Impl::note_step_changes() {
  // The new frame differs from the one before only for the bodies the step changed and those
  // given their owner's state; every other body was carried over.
  touch(resimulator.last_changes());
}

void Peer::Impl::touch(std::span<const BodyIndex> bodies) {
  visuals.touched(bodies);
  region_touched.add(bodies);
  if (config.snapshots.quantize) rest_checks.changed(bodies, history.newest());
}

void Peer::Impl::touch_all() {
  visuals.touch_all();
  region_touched.all = true;
}

std::span<const std::uint8_t> Peer::Impl::replay_outside_reach(Frame from) {
  // Per-object catch-up: re-simulate the overridden bodies and whatever they can reach before
  // the present; everything else replays its recorded frames.
  history.copy_states(from, past_states);
  const std::span<const ObjectState> states = past_states;
  const float horizon = static_cast<float>(history.newest() - from) / config.tick_hz;
  std::fill(replay_scratch.begin(), replay_scratch.end(), std::uint8_t{1});
  for (BodyIndex m : mismatched_bodies) {
    const float reach = radii[m] + length(states[m].linear_velocity) * horizon;
    for (BodyIndex b = 0; b < body_count; ++b) {
      const float own_reach = radii[b] + length(states[b].linear_velocity) * horizon;
      if (distance(states[b].position, states[m].position) <= reach + own_reach && !owned_by_me[b]) {
        replay_scratch[b] = 0;
      }
    }
  }
  return replay_scratch;
}

void Peer::Impl::snap_to(BodyIndex body, Frame frame, const ObjectState& owner_state,
                         std::span<const std::uint8_t> owner_user_bytes) {
  const Frame newest = history.newest();
  const ObjectState s = newest > frame
                            ? interpolator.extrapolate(owner_state, static_cast<float>(newest - frame) / config.tick_hz)
                            : owner_state;
  // The frames in between held this peer's stale guesses; a later catch-up that restores one
  // of them should start from the owner's path instead: interpolate it.
  const FrameData from{frame, owner_state}, to{newest, s};
  for (Frame f = std::max(frame + 1, history.oldest()); f < newest; ++f) {
    history.set(f, body, interpolator.interpolate(from, to, f));
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
  emit(make_event(EventKind::snapped, owner_of(body), objects.id(body), frame, newest - frame));
}

void Peer::Impl::run_sync_test(Frame frame) {
  const Frame from = frame - config.sync_test_frames;
  if (!history.has(from)) return;
  const std::span<const ObjectState> straight = history.newest_states();  // of `frame`
  std::copy(straight.begin(), straight.end(), before.begin());
  for (BodyIndex b : user_bytes.bodies) {
    std::ranges::copy(held_user_bytes(frame, b), user_bytes_before.begin() + b * user_bytes.max);
  }
  resimulator.resimulate(from, {}, false);
  touch(resimulator.last_changes());
  Event event = make_event(EventKind::desync, members.self(), 0, frame, config.sync_test_frames);
  const std::span<const ObjectState> again = history.newest_states();
  for (BodyIndex b = 0; b < body_count; ++b) {
    if (!sync::bitwise_equal(before[b], again[b])) event.objects.push_back(objects.id(b));
  }
  if (user_bytes.any()) sync_test_user_bytes(frame, event.objects);
  if (!event.objects.empty()) {
    ++stats.desyncs;
    emit(std::move(event));
  }
}

// Adds the bodies whose user bytes the re-simulation did not reproduce (and whose state it did).
void Peer::Impl::sync_test_user_bytes(Frame frame, std::vector<ObjectId>& differing) {
  const std::span<const ObjectState> again = history.newest_states();  // of `frame`
  for (BodyIndex b : user_bytes.bodies) {
    const std::span<const std::uint8_t> straight =
        std::span(user_bytes_before).subspan(b * user_bytes.max, user_bytes.size[b]);
    if (sync::bitwise_equal(before[b], again[b]) && !sync::user_bytes_equal(held_user_bytes(frame, b), straight)) {
      differing.push_back(objects.id(b));
    }
  }
}

void Peer::Impl::send_pings(std::int64_t now_us) {
  // A young estimate rests on few samples, and each is off by half the difference of its two
  // legs' queueing: under heavy jitter the first seconds' estimate can be most of a frame off.
  // So a joiner pings four times as often until the host's samples fill half the window.
  const bool young = !is_host && time_sync.reference_samples() < kQuickPingSamples;
  const int interval_ms = young ? std::max(10, config.ping_interval_ms / 4) : config.ping_interval_ms;
  if (last_ping_us >= 0 && now_us - last_ping_us < std::int64_t{interval_ms} * 1000) return;
  last_ping_us = now_us;
  if (phase == Phase::joining) return send_to(host_connection, wire::Ping{now_us});  // not a member yet
  for (const session::Member& m : members.remotes()) send_to(m.connection, wire::Ping{now_us});
}

void Peer::Impl::send_checksum(Frame frame) {
  // Frames older than the deepest catch-up are final on their owner.
  const Frame checked = frame - config.max_resimulated_frames - 4;
  if (!history.has(checked) || members.remotes().empty()) return;
  wire::Checksum& message = checksum_out;
  message.frame = checked;
  message.objects.clear();
  for (BodyIndex b : owned_bodies) {
    const Frame since = ownership->record(b).frame;
    if (since == kNoFrame || since <= checked) {
      message.objects.push_back({objects.id(b), sync::state_hash(history.state(checked, b), held_user_bytes(checked, b))});
    }
  }
  if (!message.objects.empty()) broadcast(message);
}

void Peer::Impl::refresh_visuals(std::int64_t now_us) {
  const float dt = last_update_us < 0 ? 0.0f : static_cast<float>(now_us - last_update_us) * 1e-6f;
  // previous_states: the newest's when only one frame is held.
  visuals.refresh(dt, history.previous_states(), history.newest_states(), static_cast<float>(clock->fraction()));
}

}  // namespace shoal
