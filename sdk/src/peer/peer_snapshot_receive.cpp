// SPDX-License-Identifier: MIT
// Snapshots received: acks, the records' states against their baselines, and each owner frame
// compared with this peer's own frame of the same number (a difference is an override,
// corrected by catch-up in the next update).
#include <algorithm>

#include "peer/peer_impl.hpp"
#include "sync/state_compare.hpp"

namespace shoal {
namespace {

// A snapshot's records name bodies scattered over large per-body tables (the link's baselines,
// the owner frames, the history's changes): asking for all their cache lines first overlaps the
// misses instead of waiting on each in turn. Hints only: nothing is read or changed.
void prefetch_rows(const wire::Snapshot& snapshot, const SnapshotLink& link, const sync::OwnerFrames& owner_frames,
                   const world::FrameHistory& history, const sync::QuantizeFilter& quantize_filter) {
  for (const wire::ObjectRecord& record : snapshot.objects) {
    link.received.prefetch(record.index);
    owner_frames.prefetch(snapshot.frame, record.index);
    history.prefetch(snapshot.frame, record.index);
    if (snapshot.quantized) quantize_filter.prefetch_code(record.index, snapshot.frame);
  }
  for (const wire::ObjectRecord& record : snapshot.objects) {
    link.received.prefetch_states(record.index, snapshot.frame - static_cast<Frame>(record.baseline_age));
    if (snapshot.quantized) quantize_filter.prefetch_code_entry(record.index, snapshot.frame);
  }
}

// The bytes a received record describes, into `out`; false when they are its
// baseline's and that is not held.
bool receive_user_bytes(const SnapshotLink& link, const wire::ObjectRecord& record, Frame frame, std::span<std::uint8_t> out) {
  const std::span<const std::uint8_t> baseline =
      record.user_bytes_unchanged
          ? link.received.user_bytes(record.index, frame - static_cast<Frame>(record.baseline_age))
          : std::span<const std::uint8_t>{};
  return wire::apply_user_bytes(record, baseline,
                                out.first(record.user_bytes.size));
}

}  // namespace

void Peer::Impl::on_snapshot_ack(PeerId from, const wire::SnapshotAckMessage& message) {
  if (message.sender != from) return drop(DropReason::not_owner);
  links.get(from).sent.on_ack(message.ack);
}

void Peer::Impl::on_snapshot(PeerId from, const wire::Snapshot& snapshot, std::int64_t now_us) {
  if (snapshot.sender != from) return drop(DropReason::not_owner);
  if (session.phase != Phase::in_match) return;  // nothing to compare with yet
  // Peers of one match must encode alike (SnapshotConfig's encoding fields).
  if (snapshot.quantized != config.snapshots.quantize) return drop(DropReason::malformed);
  // A frame far outside the window cannot be placed in the rings: drop it.
  const Frame newest = history.newest();
  if (snapshot.frame > newest + config.history_frames / 4) return drop(DropReason::malformed);
  ++stats.snapshots_received;
  // Its owner sent it once it had stepped its frame: how long ago that was on the match
  // timeline (at the timeline's pace, in wall time) is how late this peer takes it in.
  const double late_frames = std::max(0.0, session.clock->match_time_at(now_us) - static_cast<double>(snapshot.frame));
  stats.correction_latency_ms.add(static_cast<float>(late_frames * session.tick_us * 1e-3 / std::max(session.pace.rate, 0.01f)));
  SnapshotLink& link = links.get(from);
  if (snapshot.has_ack) link.sent.on_ack(snapshot.ack);
  link.received.on_packet(snapshot.sequence);  // acked on receipt

  if (snapshot.controlled != wire::kNoObject) {
    const auto body = objects.find(snapshot.controlled);
    if (!body) return drop(DropReason::malformed);
    auto rc = std::find_if(remote_controlled.begin(), remote_controlled.end(),
                           [&](auto& p) { return p.first == from; });
    if (rc == remote_controlled.end()) {
      remote_controlled.emplace_back(from, *body);
    } else if (rc->second != *body) {
      inputs.untrack(rc->second);
      visuals.set_control(rc->second, ControlMode::uncontrolled);
      rc->second = *body;
    }
    inputs.track(*body);
    visuals.set_control(*body, ControlMode::controlled);
    for (const wire::InputRecord& r : snapshot.inputs) {
      if (r.frame > newest - config.history_frames && r.frame <= newest + input_frames_ahead(config)) {
        inputs.record(*body, r.frame, r.input);
      }
    }
  }
  prefetch_rows(snapshot, link, owner_frames, history, quantize_filter);
  for (const wire::ObjectRecord& record : snapshot.objects) {
    if (record.index >= body_count) {
      drop(DropReason::malformed);
      continue;
    }
    const BodyIndex body = record.index;
    ObjectState state = record.raw;
    std::span<const std::uint8_t> bytes;
    if (user_bytes.any()) {
      if (!receive_user_bytes(link, record, snapshot.frame, scratch.received_user_bytes)) {
        drop(DropReason::malformed);
        link.received.request_reset(body);
        continue;
      }
      bytes = std::span(scratch.received_user_bytes).first(record.user_bytes.size);
    }
    if (snapshot.quantized) {
      const wire::QuantizedState* baseline =
          record.baseline_age > 0
              ? link.received.find(body, snapshot.frame - static_cast<Frame>(record.baseline_age))
              : nullptr;
      if (record.baseline_age > 0 && baseline == nullptr) {
        // The sender's baseline is not held here: skip this object, ask for it whole.
        ++stats.baseline_misses;
        drop(DropReason::stale);
        link.received.request_reset(body);
        continue;
      }
      const std::optional<wire::QuantizedState> q = wire::apply_record(record, baseline, quantizer);
      if (!q) {
        drop(DropReason::malformed);
        link.received.request_reset(body);
        continue;
      }
      link.received.store(body, snapshot.frame, *q, bytes);
      state = quantize_filter.dequantize(body, snapshot.frame, *q);
    }
    if (authority.owner_of(body) != from) {  // nobody moves an object they do not own
      drop(DropReason::not_owner);  // still held with the link's baselines: take_held_record()
      continue;
    }
    // A spawn slot's frames count only while this peer knows its object: an empty slot's
    // frames from its holder would otherwise overwrite a spawn heard later for those frames.
    if (spawning.is_slot(body) && !spawning.holds(body, snapshot.frame)) continue;
    on_owner_frame(snapshot.frame, body, state, bytes);
  }
}


void Peer::Impl::on_owner_frame(Frame frame, BodyIndex body, const ObjectState& state,
                                std::span<const std::uint8_t> bytes) {
  const Frame newest = history.newest();
  corrections.forensics.took_owner_frame(body, frame, newest);
  if (frame > newest) {  // the owner is ahead: injected when this peer reaches that frame
    owner_frames.store(frame, body, state, bytes);
    return;
  }
  if (frame < history.oldest()) {  // too old to re-simulate from
    if (frame > owner_frames.newest(body) || owner_frames.newest(body) < history.oldest()) {
      snap_to(body, frame, state, bytes);  // nothing newer from the owner: snap to this
    }
    drop(DropReason::stale);
    return;
  }
  if (const ObjectState* known = owner_frames.find(frame, body);
      known && sync::bitwise_equal(*known, state) &&
      (bytes.empty() || sync::user_bytes_equal(owner_frames.user_bytes(frame, body), bytes))) {
    return;  // a duplicate
  }
  owner_frames.store(frame, body, state, bytes);
  const ObjectState& own = history.state(frame, body);
  // User bytes are game state: they agree only when equal, whatever the tolerance.
  const bool bytes_agree = bytes.empty() || sync::user_bytes_equal(held_user_bytes(frame, body), bytes);
  if (bytes_agree && sync::bitwise_equal(state, own)) {
    history.set_confirmed(frame, body, true);  // holds the owner's data: desync checksums compare it
    corrections.tolerated.confirmed(body, frame);
    return;
  }
  if (bytes_agree && sync::states_agree(state, own, config.compare)) {
    corrections.tolerated.note(body, frame);  // not the same bits: corrected by a later catch-up
    ++stats.tolerated;
    return;
  }
  note_mismatch(body, frame);
}

// A record its sender sent as the body's new owner, before this peer heard of the change, was
// dropped as not the sender's, and acknowledged all the same with its packet: the owner counts
// it delivered and would not send a resting object again. The newest such record is still held
// with the link's baselines, and is taken now, as if it had just arrived.
void Peer::Impl::take_held_record(BodyIndex body, PeerId owner, Frame since) {
  if (!config.snapshots.quantize || owner == session.members.self() || history.empty()) return;
  SnapshotLink* link = links.find(owner);
  if (link == nullptr) return;
  Frame frame = kNoFrame;
  const wire::QuantizedState* held = link->received.newest(body, frame);
  if (held == nullptr || frame < since) return;
  const ObjectState state = quantize_filter.dequantize(body, frame, *held);
  on_owner_frame(frame, body, state, link->received.user_bytes(body, frame).first(user_bytes.size[body]));
}

// Copies of other peers' bodies that changed here, against what their owners last said
// (rest_checks.hpp): where they differ, the owner is asked for its state (the link's next ack
// drops its baseline of the body, which makes it send the body whole, soon).
void Peer::Impl::check_resting_copies() {
  if (!config.snapshots.quantize) return;
  rest_checks.run(history.newest(), [this](BodyIndex b, bool still, Frame since) { return check_copy(b, still, since); });
}

bool Peer::Impl::check_copy(BodyIndex body, bool still, Frame changing_since) {
  if (authority.owned_by_me[body] != 0) return true;
  const ObjectState& own = history.newest_states()[body];
  SnapshotLink* link = links.find(authority.owner_of(body));
  if (link == nullptr) return true;
  Frame frame = kNoFrame;
  const wire::QuantizedState* said = link->received.newest(body, frame);
  if (!still) {
    // Moving here for a while. An owner whose copy moves sends it; one that has said nothing
    // since this copy began to change, or last said it rests, sees it still: this peer's
    // physics went its own way (a collision a snap left standing), and asks for its state.
    if (own.at_rest || (said != nullptr && (frame >= changing_since || !said->at_rest))) return true;
    link->received.request_reset(body);
    ++stats.rest_repairs_requested;
    return true;
  }
  // A copy that kept still while moving is frozen here (outside the simulated region). Where
  // the owner's copy moves too, the owner sends it once it rests; where the owner last said it
  // rests, the owner has nothing new to send, and this copy is repaired like a resting one.
  const bool owner_moves = said != nullptr && !said->at_rest;
  if (!own.at_rest && (said == nullptr || owner_moves)) return true;
  if (owner_moves) return false;  // its record of coming to rest is due
  if (said != nullptr && sync::bitwise_equal(quantize_filter.dequantize(body, frame, *said), own)) return true;
  link->received.request_reset(body);
  ++stats.rest_repairs_requested;
  // Checked again until the copy agrees: the owner asked may hand the body over before it
  // answers, and then only a request to the next owner repairs it.
  return false;
}

}  // namespace shoal
