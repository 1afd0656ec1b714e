// SPDX-License-Identifier: MIT
// One update of a peer: receive, correct, step the due frames, decide ownership, send,
// smooth. Receiving comes first so that corrections use every owner frame that has arrived;
// sending comes after the step so that snapshots carry the newest frame.
#include <algorithm>
#include <limits>
#include <cmath>

#include "peer/peer_impl.hpp"
#include "sync/checksum.hpp"
#include "sync/state_compare.hpp"

namespace shoal {
namespace {

// The bodies the next step leaves out; none when the game does not freeze. Outside this
// peer's simulated region (as of the last frame), bodies that no player controls are left out
// of the step, unless this peer owns them and they move: an owner's frames are final for
// everyone (a resting one stays put either way, and whoever hits it claims it first). Other
// players' balls out there are frozen too: their owners send them to every peer, and those
// frames are written in without re-simulating (apply_corrections).
std::span<const std::uint8_t> frozen_for_next_step(const PeerConfig& config, std::optional<BodyIndex> controlled,
                                                   const world::FrameHistory& history, AuthorityState& authority,
                                                   PeerId self, FrameScratch& scratch) {
  scratch.freezing = false;
  if (!config.freeze_outside_simulated_region || !controlled) return {};
  scratch.freezing = true;
  const std::span<const ObjectState> states = history.newest_states();
  // Over plain pointers: byte vectors may alias anything, which would keep this whole-world
  // pass from being vectorised.
  const std::uint8_t* __restrict simulated = authority.regions_of(self).simulated.data();
  std::uint8_t* __restrict frozen = scratch.frozen_next.data();
  for (BodyIndex b = 0; b < history.body_count(); ++b) frozen[b] = static_cast<std::uint8_t>(simulated[b] == 0);
  for (BodyIndex b : authority.owned_bodies) {
    if (!states[b].at_rest) frozen[b] = 0;
  }
  frozen[*controlled] = 0;
  return scratch.frozen_next;
}

void refresh_visuals(Presentation& visuals, const world::FrameHistory& history, const session::FrameClock& clock,
                     std::int64_t last_update_us, std::int64_t now_us) {
  const float dt = last_update_us < 0 ? 0.0f : static_cast<float>(now_us - last_update_us) * 1e-6f;
  // previous_states: the newest's when only one frame is held.
  visuals.refresh(dt, history.previous_states(), history.newest_states(), static_cast<float>(clock.fraction()));
}

// Pongs leave once this update has advanced the clock, so the time they report is now's.
void answer_pings(Peer::Impl& m, std::int64_t now_us) {
  SessionState& session = m.session;
  const std::optional<double> wall = session.wall_frame(now_us);
  const wire::Pong pong{0, wall.value_or(-1.0), session.pace.wall, session.pace.match, session.pace.rate,
                        static_cast<std::uint8_t>(std::clamp(session.recent_lag(), 0, 255))};
  for (const SessionState::PendingPong& p : session.pending_pongs) {
    wire::Pong answer = pong;
    answer.echoed_sent_us = p.ping_sent_us;
    m.send_to(p.connection, answer);
  }
  session.pending_pongs.clear();
}

void send_pings(Peer::Impl& m, std::int64_t now_us) {
  SessionState& session = m.session;
  // A young estimate rests on few samples, and each is off by half the difference of its two
  // legs' queueing: under heavy jitter the first seconds' estimate can be most of a frame off.
  // So a joiner pings four times as often until the host's samples fill half the window.
  const bool young = !session.is_host && session.time_sync.reference_samples() < session.kQuickPingSamples;
  const int interval_ms = young ? std::max(10, m.config.ping_interval_ms / 4) : m.config.ping_interval_ms;
  if (session.last_ping_us >= 0 && now_us - session.last_ping_us < std::int64_t{interval_ms} * 1000) return;
  session.last_ping_us = now_us;
  if (session.phase == SessionState::Phase::joining) {
    return m.send_to(session.host_connection, wire::Ping{now_us});  // not a member yet
  }
  for (const session::Member& member : session.members.remotes()) m.send_to(member.connection, wire::Ping{now_us});
}

void run_sync_test(Peer::Impl& m, Frame frame) {
  const PeerConfig& config = m.config;
  const world::FrameHistory& history = m.history;
  const world::UserBytesLayout& user_bytes = m.user_bytes;
  FrameScratch& scratch = m.scratch;
  const Frame from = frame - config.sync_test_frames;
  if (!history.has(from)) return;
  const std::span<const ObjectState> straight = history.newest_states();  // of `frame`
  std::copy(straight.begin(), straight.end(), scratch.before.begin());
  for (BodyIndex b : user_bytes.bodies) {
    std::ranges::copy(m.held_user_bytes(frame, b), scratch.user_bytes_before.begin() + b * user_bytes.max);
  }
  m.resimulator.resimulate(from, {}, sync::Injection::none);
  m.touch(m.resimulator.last_changes());
  Event event = make_event(EventKind::desync, m.session.members.self(), 0, frame, config.sync_test_frames);
  const std::span<const ObjectState> again = history.newest_states();
  for (BodyIndex b = 0; b < m.body_count; ++b) {
    if (!sync::bitwise_equal(scratch.before[b], again[b])) event.objects.push_back(m.objects.id(b));
  }
  // And the bodies whose user bytes the re-simulation did not reproduce (and whose state it did).
  for (BodyIndex b : user_bytes.bodies) {
    const std::span<const std::uint8_t> straight_bytes =
        std::span(scratch.user_bytes_before).subspan(b * user_bytes.max, user_bytes.size[b]);
    if (sync::bitwise_equal(scratch.before[b], again[b]) && !sync::user_bytes_equal(m.held_user_bytes(frame, b), straight_bytes)) {
      event.objects.push_back(m.objects.id(b));
    }
  }
  if (!event.objects.empty()) {
    ++m.stats.desyncs;
    m.emit(std::move(event));
  }
}

void send_checksum(Peer::Impl& m, Frame frame) {
  const world::FrameHistory& history = m.history;
  const AuthorityState& authority = m.authority;
  // Frames older than the deepest catch-up are final on their owner.
  const Frame checked = frame - m.config.max_resimulated_frames - 4;
  if (!history.has(checked) || m.session.members.remotes().empty()) return;
  wire::Checksum& message = m.scratch.checksum_out;
  message.frame = checked;
  message.objects.clear();
  for (BodyIndex b : authority.owned_bodies) {
    const Frame since = authority.ownership->record(b).frame;
    if (since == kNoFrame || since <= checked) {
      message.objects.push_back({m.objects.id(b), sync::state_hash(history.state(checked, b), m.held_user_bytes(checked, b))});
    }
  }
  if (!message.objects.empty()) m.broadcast(message);
}

void start_match(Peer::Impl& m, std::int64_t now_us, Frame frame) {
  const PeerConfig& config = m.config;
  SessionState& session = m.session;
  AuthorityState& authority = m.authority;
  session::FrameClockConfig clock_config;
  clock_config.tick_hz = config.tick_hz;
  clock_config.max_catchup_frames_per_update = config.max_clock_catchup_frames;
  session.clock.emplace(clock_config, now_us, frame);
  if (session.is_host) session.pace = {static_cast<double>(now_us) / session.tick_us, static_cast<double>(frame), 1.0f};
  m.resimulator.start(frame);
  m.rest_checks.clear();
  m.corrections.tolerated.clear();
  m.touch_all();
  const std::vector<PeerId> live = session.members.live();
  authority.ownership.emplace(config.authority, config.tick_hz, session.members.self(), live, m.body_count);
  for (PeerId peer : live) authority.reset_regions(peer);
  for (const AuthorityState::EarlyChange& early : authority.early_ownership) m.apply_ownership(early.change, early.record);
  authority.early_ownership.clear();
  m.note_owner_changes();
  session.phase = SessionState::Phase::in_match;
  m.emit(make_event(EventKind::joined_match, session.members.self(), 0, frame));
  if (!session.baselines_requested) m.request_baselines();
  m.apply_early_changes();  // before the baselines, which may name spawned objects
  for (const auto& [from, baseline] : session.early_baselines) m.on_baseline(from, baseline);
  session.early_baselines.clear();
}

void step_frame(Peer::Impl& m) {
  const PeerConfig& config = m.config;
  const Frame frame = m.history.newest() + 1;
  // The input set now is this player's for a frame input_delay_frames ahead (that frame's
  // snapshot already carries it to the others). The frames before a new controlled object's
  // first delayed input get none.
  if (m.controlled) m.inputs.record(*m.controlled, frame + config.input_delay_frames, m.current_input);
  m.spawning_frame();
  m.resimulator.step_forward(
      {}, frozen_for_next_step(config, m.controlled, m.history, m.authority, m.session.members.self(), m.scratch));
  // The new frame differs from the one before only for the bodies the step changed and those
  // given their owner's state; every other body was carried over.
  m.touch(m.resimulator.last_changes());
  if (config.sync_test_frames > 0) run_sync_test(m, frame);
  m.check_resting_copies();
  m.cost_clock.lap(&UpdateCost::step_ns);
  m.update_regions_and_ownership(frame);
  m.cost_clock.lap(&UpdateCost::authority_ns);
  const SendView view = m.send_view(frame);
  m.settle_owned(view);
  m.cost_clock.lap(&UpdateCost::step_ns);
  m.sender.send(view);  // changes nothing but the sender's own columns and the links
  if (config.checksum_interval_frames > 0 && frame % config.checksum_interval_frames == 0) {
    send_checksum(m, frame);
  }
  m.cost_clock.lap(&UpdateCost::send_ns);
#ifdef SHOAL_VALIDATE_PARTS
  m.validate_parts();
#endif
}

}  // namespace

void Peer::Impl::update(std::int64_t now_us) {
  cost_clock.begin();
  if (recorder) recorder->update(now_us);
  if (last_update_us >= 0 && now_us < last_update_us) now_us = last_update_us;  // never backwards
  const Frame newest_before = history.empty() ? kNoFrame : history.newest();
  const std::uint64_t corrections_before = stats.catchup_frames + stats.snaps;
  session.joining.tick(now_us);
  drain_transport(now_us);
  if (config.log.callback) {  // what the transport dropped itself (forged, replayed...), told once
    const DropCounters below = transport->drops();
    for (std::size_t i = 0; i < kDropReasonCount; ++i) {
      const std::uint64_t more = below.counts[i] - logged_transport_drops.counts[i];
      if (more == 0) continue;
      log_line(config.log, LogLevel::warn, [&] {
        return "the transport dropped " + std::to_string(more) + " incoming datagram(s): " +
               std::string(to_string(static_cast<DropReason>(i)));
      });
    }
    logged_transport_drops = below;
  }
  cost_clock.lap(&UpdateCost::receive_ns);
  expire_absent(now_us);
  switch (session.phase) {
    case Phase::hosting:
      start_match(*this, now_us, 0);
      break;
    case Phase::joining:
      if (session.host_link_up) send_pings(*this, now_us);
      break;
    case Phase::syncing:
      send_pings(*this, now_us);
      // Only once linked to every member: its snapshots and claims must reach them all.
      if (session.joining.meshed() && session.pongs_received >= session.kPongsBeforeStart) {
        // The host's timeline as the pongs tell it: a frame no match can be at (a hostile or
        // broken pong) starts nothing, and the next samples may.
        constexpr double kLatestStart = std::numeric_limits<Frame>::max() / 2;
        if (auto target = session.target_match_time(now_us); target && *target >= 0 && *target < kLatestStart) {
          start_match(*this, now_us, static_cast<Frame>(std::floor(*target)));
        }
      }
      break;
    default:
      break;
  }
  advance_join(now_us);
  if (session.phase == Phase::in_match) {
    cost_clock.lap(&UpdateCost::session_ns);
    apply_corrections();
    cost_clock.lap(&UpdateCost::correct_ns);
    // The host defines the timeline; everyone else follows the estimate from its pings.
    std::optional<double> target;
    if (!session.is_host) target = session.target_match_time(now_us);
    const int due = session.clock->advance(now_us, target, session.pace.rate);
    for (int i = 0; i < due; ++i) step_frame(*this);
    session.note_lag(session.clock->backlog(), now_us);
    if (session.is_host) session.pace_the_match(now_us);
    answer_pings(*this, now_us);
    send_pings(*this, now_us);
    cost_clock.lap(&UpdateCost::session_ns);
    refresh_visuals(visuals, history, *session.clock, last_update_us, now_us);
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

void Peer::Impl::validate_parts() const {
  visuals.validate();
  sender.validate(authority.owned_bodies);
  corrections.validate();
  authority.validate(session.members.self());
  session.validate();
  spawning.validate();
}

// Bodies whose newest frame changed: the smoothing and the regions redo them (and, when
// quantising, the rest checks look at them again).
void Peer::Impl::touch(std::span<const BodyIndex> bodies) {
  visuals.touched(bodies);
  authority.region_touched.add(bodies);
  if (config.snapshots.quantize) rest_checks.changed(bodies, history.newest());
}

void Peer::Impl::touch_all() {
  visuals.touch_all();
  authority.region_touched.all = true;
}

}  // namespace shoal
