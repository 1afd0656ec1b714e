// Snapshots: what this peer sends of the objects it owns, and what it does with the owner
// frames it receives (compare with its own frame of the same number; a difference is an
// override, corrected by catch-up in the next update).
#include <algorithm>

#include "peer/peer_impl.hpp"
#include "sync/state_compare.hpp"

namespace shoal {

void Peer::Impl::send_snapshots(Frame frame) {
  if (members.remotes().empty()) return;
  const std::span<const ObjectState> states = history.states(frame);
  snapshot_out.sender = members.self();
  snapshot_out.frame = frame;
  snapshot_out.controlled = controlled ? objects.id(*controlled) : wire::kNoObject;
  snapshot_out.inputs.clear();
  if (controlled) {
    for (int k = 0; k < config.input_redundancy && frame - k >= 0; ++k) {
      snapshot_out.inputs.push_back({frame - k, inputs.input(*controlled, frame - k)});
    }
  }
  const std::size_t per_datagram =
      (wire::kMaxUnreliableDatagram - wire::kSnapshotFixedBytes -
       snapshot_out.inputs.size() * wire::kInputRecordBytes) / wire::kObjectRecordBytes;
  const bool moving_due = frame % config.snapshot_interval_frames == 0;

  for (const session::Member& m : members.remotes()) {
    // Interest: only what the receiver's simulated region holds, as this peer sees it; a peer
    // that controls nothing (yet) gets everything.
    const authority::PeerRegions& interest = regions_of(m.id);
    const bool everything = std::none_of(remote_controlled.begin(), remote_controlled.end(),
                                         [&](auto& p) { return p.first == m.id; });
    snapshot_out.objects.clear();
    bool sent = false;
    for (BodyIndex b = 0; b < body_count; ++b) {
      if (!owned_by_me[b]) continue;
      // Outside the receiver's simulated region only resting objects go, and rarely: enough
      // for every peer to agree on the whole world once it settles, at almost no cost.
      const bool relevant = everything || authority::is_member(interest.simulated, b);
      const Frame rest_interval = config.rest_snapshot_interval_frames * (relevant ? 1 : 4);
      const bool due = states[b].at_rest ? (frame + static_cast<Frame>(b)) % rest_interval == 0
                                         : relevant && moving_due;
      if (!due) continue;
      snapshot_out.objects.push_back({objects.id(b), states[b]});
      if (snapshot_out.objects.size() == per_datagram) {
        send_to(m.connection, snapshot_out);
        snapshot_out.objects.clear();
        sent = true;
      }
    }
    // Inputs travel even when nothing owned is due, so remote prediction keeps up.
    if (!snapshot_out.objects.empty() || (!sent && controlled && moving_due)) {
      send_to(m.connection, snapshot_out);
      sent = true;
    }
    if (sent) ++stats.snapshots_sent;
  }
}

void Peer::Impl::on_snapshot(PeerId from, const wire::Snapshot& snapshot) {
  if (snapshot.sender != from) return drop(DropReason::not_owner);
  if (phase != Phase::in_match) return;  // nothing to compare with yet
  // A frame far outside the window cannot be placed in the rings: drop it.
  const Frame newest = history.newest();
  if (snapshot.frame > newest + config.history_frames / 4) return drop(DropReason::malformed);
  ++stats.snapshots_received;

  if (snapshot.controlled != wire::kNoObject) {
    const auto body = objects.find(snapshot.controlled);
    if (!body) return drop(DropReason::malformed);
    auto rc = std::find_if(remote_controlled.begin(), remote_controlled.end(),
                           [&](auto& p) { return p.first == from; });
    if (rc == remote_controlled.end()) {
      remote_controlled.emplace_back(from, *body);
    } else if (rc->second != *body) {
      inputs.untrack(rc->second);
      control_modes[rc->second] = ControlMode::uncontrolled;
      rc->second = *body;
    }
    inputs.track(*body);
    control_modes[*body] = ControlMode::controlled;
    for (const wire::InputRecord& r : snapshot.inputs) {
      if (r.frame > newest - config.history_frames && r.frame <= newest + config.history_frames / 4) {
        inputs.record(*body, r.frame, r.input);
      }
    }
  }
  for (const wire::ObjectRecord& record : snapshot.objects) {
    const auto body = objects.find(record.id);
    if (!body) {
      drop(DropReason::malformed);
      continue;
    }
    if (owner_of(*body) != from) {  // nobody moves an object they do not own
      drop(DropReason::not_owner);
      continue;
    }
    on_owner_frame(snapshot.frame, *body, record.state);
  }
}

void Peer::Impl::on_owner_frame(Frame frame, BodyIndex body, const ObjectState& state) {
  const Frame newest = history.newest();
  if (frame > newest) {  // the owner is ahead: injected when this peer reaches that frame
    owner_frames.store(frame, body, state);
    return;
  }
  if (frame < history.oldest()) {  // too old to re-simulate from
    if (frame > owner_frames.newest(body) || owner_frames.newest(body) < history.oldest()) {
      snap_to(body, frame, state);  // nothing newer from the owner: snap to this
    }
    drop(DropReason::stale);
    return;
  }
  if (const ObjectState* known = owner_frames.find(frame, body); known && sync::bitwise_equal(*known, state)) {
    return;  // a duplicate
  }
  owner_frames.store(frame, body, state);
  const ObjectState& own = history.states(frame)[body];
  if (sync::states_agree(state, own, config.compare)) {
    // Confirmed means "holds the owner's data": within tolerance is not the same bits, and
    // desync checksums compare bits.
    if (sync::bitwise_equal(state, own)) history.set_confirmed(frame, body, true);
    return;
  }
  ++stats.overrides;
  if (earliest_mismatch == kNoFrame || frame < earliest_mismatch) earliest_mismatch = frame;
  if (!mismatched[body]) {
    mismatched[body] = 1;
    mismatched_bodies.push_back(body);
  }
}

}  // namespace shoal
