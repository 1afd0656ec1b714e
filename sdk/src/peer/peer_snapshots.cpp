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
  for (const session::Member& m : session.members.remotes()) regions_of(m.id);
  view.regions = authority.peer_regions;
  return view;
}

void Peer::Impl::send_snapshots(Frame frame) {
  const SendView view = send_view(frame);
  // Receivers must get the owner's exact state: what quantising settles is taken here first,
  // in this peer's newest frame, before anyone has seen that frame.
  for (const SnapshotSender::Settled& s : sender.settle_owned(view)) {
    history.set(frame, s.body, s.state);
    sim.write(s.body, s.state);
    touch(std::span(&s.body, 1));
  }
  sender.send(view);
}

}  // namespace shoal
