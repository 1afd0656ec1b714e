// SPDX-License-Identifier: MIT
// Snapshots out: the tick's side of SnapshotSender (peer/snapshot_sender.hpp). What the peer
// does with those it receives is in peer_snapshot_receive.cpp.
#include "peer/peer_impl.hpp"

namespace shoal {

SendView Peer::Impl::send_view(Frame frame) {
  SendView view;
  view.frame = frame;
  view.owned = authority.owned_bodies;
  view.controlled = controlled;
  view.controlled_id = controlled ? objects.id(*controlled) : wire::kNoObject;
  view.remote_controlled = remote_controlled;
  view.self = session.members.self();
  view.remotes = session.members.remotes();
  // Every receiver has regions, as this peer sees them (until it says what it controls: all
  // of the world simulated, none of it its core).
  for (const session::Member& m : session.members.remotes()) authority.regions_of(m.id);
  view.regions = authority.peer_regions;
  return view;
}

// Part of the step, before anything is sent: receivers must get the owner's exact state, so
// what quantising settles (a state this peer got from elsewhere: its previous owner, a snap) is
// taken into this peer's newest frame first, before anyone has seen that frame.
void Peer::Impl::settle_owned(const SendView& view) {
  for (const SnapshotSender::Settled& s : sender.settle_owned(view)) {
    history.set(view.frame, s.body, s.state);
    sim.write(s.body, s.state);
    touch(std::span(&s.body, 1));
  }
}

}  // namespace shoal
