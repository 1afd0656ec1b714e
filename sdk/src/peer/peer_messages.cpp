// Routing what the transport delivers: membership, time sync, ownership, checksums and
// snapshots. Every message is checked before it touches state; a bad one is dropped and
// counted with its reason (PeerStats::dropped).
#include <algorithm>

#include "peer/peer_impl.hpp"
#include "sync/checksum.hpp"
#include "sync/state_compare.hpp"

namespace shoal {

void Peer::Impl::drain_transport(std::int64_t now_us) {
  TransportEvent event;
  // Bounded, so a flood cannot stall the game's frame; the rest waits for the next update.
  constexpr int kMaxEventsPerUpdate = 4096;
  for (int i = 0; i < kMaxEventsPerUpdate && transport->poll(event); ++i) {
    switch (event.kind) {
      case TransportEventKind::connected: on_connected(event.connection); break;
      case TransportEventKind::disconnected:
      case TransportEventKind::timed_out: on_disconnected(event.connection); break;
      case TransportEventKind::message:
        on_message(event.connection, event.channel, event.payload, now_us);
        break;
    }
  }
}

void Peer::Impl::on_connected(ConnectionId connection) {
  if (phase == Phase::left) return;
  if (connection == host_connection && phase == Phase::joining) {
    wire::JoinRequest request{config.session, transport->local_address().port};
    send_to(connection, request);
    return;
  }
  auto pending = std::find_if(pending_mesh.begin(), pending_mesh.end(),
                              [&](auto& p) { return p.first == connection; });
  if (pending != pending_mesh.end()) {
    const PeerId id = pending->second;
    pending_mesh.erase(pending);
    members.add({id, connection, transport->remote_address(connection)});
    if (ownership) ownership->peer_joined(id);
    reset_regions(id);
    send_to(connection, wire::Hello{members.self(), config.session});
    send_owned_records(connection);
    emit(make_event(EventKind::peer_joined, id));
  }
  // Otherwise an incoming connection: it introduces itself with JoinRequest or Hello.
}

void Peer::Impl::on_disconnected(ConnectionId connection) {
  std::erase_if(pending_mesh, [&](auto& p) { return p.first == connection; });
  if (auto id = members.remove_connection(connection)) peer_gone(*id);
}

void Peer::Impl::peer_gone(PeerId peer) {
  time_sync.forget(peer);
  std::erase_if(remote_controlled, [&](auto& rc) {
    if (rc.first != peer) return false;
    inputs.untrack(rc.second);
    control_modes[rc.second] = ControlMode::uncontrolled;
    return true;
  });
  // Every peer applies the same hand-over, so the leaver's objects get one owner everywhere.
  std::erase_if(peer_regions, [&](auto& r) { return r.peer == peer; });
  std::erase_if(snapshot_links, [&](auto& l) { return l->peer == peer; });
  if (ownership) {
    ownership->peer_left(peer);
    note_owner_changes();
  }
  emit(make_event(EventKind::peer_left, peer));
}

void Peer::Impl::on_message(ConnectionId connection, Channel, std::span<const std::uint8_t> bytes,
                            std::int64_t now_us) {
  wire::MessageKind kind{};
  if (auto status = wire::read_header(bytes, kind); !status) return drop(status.reason());
  const PeerId from = members.peer_of(connection);

  // Before a peer has introduced itself, only introductions are accepted from it.
  if (from == kNoPeer) {
    if (kind == wire::MessageKind::join_request) {
      wire::JoinRequest m;
      if (auto s = wire::decode(bytes, m); !s) return drop(s.reason());
      return on_join_request(connection, m);
    }
    if (kind == wire::MessageKind::welcome && connection == host_connection) {
      wire::Welcome m;
      if (auto s = wire::decode(bytes, m); !s) return drop(s.reason());
      return on_welcome(connection, m);
    }
    if (kind == wire::MessageKind::hello) {
      wire::Hello m;
      if (auto s = wire::decode(bytes, m); !s) return drop(s.reason());
      return on_hello(connection, m);
    }
    return drop(DropReason::not_owner);
  }

  switch (kind) {
    case wire::MessageKind::ping: {
      wire::Ping m;
      if (auto s = wire::decode(bytes, m); !s) return drop(s.reason());
      // Only a peer on the match timeline may answer (anyone else's time says nothing), and
      // only after this update has advanced its clock, so the time it reports is now's.
      if (phase != Phase::in_match) return send_to(connection, wire::Pong{m.sent_us, -1.0});
      constexpr std::size_t kMaxPendingPongs = 256;  // bounded: a ping flood answers less
      if (pending_pongs.size() < kMaxPendingPongs) pending_pongs.push_back({connection, m.sent_us});
      return;
    }
    case wire::MessageKind::pong: {
      wire::Pong m;
      if (auto s = wire::decode(bytes, m); !s) return drop(s.reason());
      if (m.match_frame < 0) return;  // the responder is not synchronised yet
      ++pongs_received;
      if (!time_sync.add_sample(from, m.echoed_sent_us, m.match_frame, now_us)) drop(DropReason::malformed);
      return;
    }
    case wire::MessageKind::ownership: {
      wire::Ownership m;
      if (auto s = wire::decode(bytes, m); !s) return drop(s.reason());
      return on_ownership(from, m);
    }
    case wire::MessageKind::checksum: {
      wire::Checksum m;
      if (auto s = wire::decode(bytes, m); !s) return drop(s.reason());
      return on_checksum(from, m);
    }
    case wire::MessageKind::snapshot: {
      if (auto s = wire::decode(bytes, quantizer.limits(), snapshot_in); !s) return drop(s.reason());
      return on_snapshot(from, snapshot_in);
    }
    case wire::MessageKind::snapshot_ack: {
      if (auto s = wire::decode(bytes, ack_in); !s) return drop(s.reason());
      return on_snapshot_ack(from, ack_in);
    }
    case wire::MessageKind::peer_left: {
      wire::PeerLeft m;
      if (auto s = wire::decode(bytes, m); !s) return drop(s.reason());
      if (m.id != from) return drop(DropReason::not_owner);  // only a peer can say it leaves
      if (const session::Member* member = members.find(from)) transport->disconnect(member->connection);
      members.remove(from);
      return peer_gone(from);
    }
    default:
      return drop(DropReason::unknown_kind);  // known kind, but not from an introduced peer
  }
}

void Peer::Impl::on_join_request(ConnectionId connection, const wire::JoinRequest& request) {
  if (phase != Phase::in_match || members.self() != 0 || request.session != config.session) {
    drop(DropReason::malformed);
    transport->disconnect(connection);
    return;
  }
  Address joiner = transport->remote_address(connection);
  joiner.port = request.listen_port;
  wire::Welcome welcome;
  welcome.your_id = members.allocate_id();
  welcome.host_frame = history.newest();
  welcome.default_owner = ownership->default_owner();
  const Address self_address = transport->local_address();
  welcome.members.push_back({members.self(), self_address.host, self_address.port});
  for (const session::Member& m : members.remotes()) {
    welcome.members.push_back({m.id, m.address.host, m.address.port});
  }
  members.add({welcome.your_id, connection, joiner});
  ownership->peer_joined(welcome.your_id);
  reset_regions(welcome.your_id);
  send_to(connection, welcome);
  send_owned_records(connection);
  emit(make_event(EventKind::peer_joined, welcome.your_id));
}

void Peer::Impl::on_welcome(ConnectionId connection, const wire::Welcome& welcome) {
  if (phase != Phase::joining || welcome.members.empty() || welcome.your_id == kNoPeer) {
    return drop(DropReason::malformed);
  }
  members.set_self(welcome.your_id);
  // By convention the first member is the host that sent the welcome.
  const wire::Member& host = welcome.members.front();
  members.add({host.id, connection, transport->remote_address(connection)});
  for (std::size_t i = 1; i < welcome.members.size(); ++i) {
    const wire::Member& m = welcome.members[i];
    if (m.id == welcome.your_id || members.find(m.id) != nullptr) continue;
    pending_mesh.emplace_back(transport->connect({m.host, m.port}), m.id);
  }
  phase = Phase::syncing;
}

void Peer::Impl::on_hello(ConnectionId connection, const wire::Hello& hello) {
  if (hello.session != config.session || hello.id == kNoPeer || hello.id == members.self() ||
      members.find(hello.id) != nullptr) {
    drop(DropReason::malformed);
    return;
  }
  members.add({hello.id, connection, transport->remote_address(connection)});
  if (ownership) ownership->peer_joined(hello.id);
  reset_regions(hello.id);
  send_owned_records(connection);
  emit(make_event(EventKind::peer_joined, hello.id));
}

void Peer::Impl::on_ownership(PeerId from, const wire::Ownership& message) {
  for (const wire::OwnershipChange& change : message.changes) {
    if (!objects.contains(change.object)) {
      drop(DropReason::malformed);
      continue;
    }
    // A peer speaks for itself: its own claims and releases, or (to a newcomer) the records
    // of the objects it owns now.
    if (message.records ? change.new_owner != from : change.author != from) {
      drop(DropReason::not_owner);
      continue;
    }
    if (!ownership) {
      early_ownership.push_back({change, message.records});  // applied when the match starts here
      continue;
    }
    apply_ownership(change, message.records);
  }
}

void Peer::Impl::on_checksum(PeerId from, const wire::Checksum& message) {
  if (!history.has(message.frame)) return;  // too old or too new to compare: not a desync
  Event event = make_event(EventKind::desync, from);
  event.frame = message.frame;
  const std::span<const ObjectState> states = history.states(message.frame);
  for (const wire::ObjectHash& h : message.objects) {
    const auto body = objects.find(h.object);
    if (!body) {
      drop(DropReason::malformed);
      continue;
    }
    // Only frames this peer holds as the owner's own data can be compared.
    if (history.confirmed(message.frame, *body) && sync::state_hash(states[*body]) != h.hash) {
      event.objects.push_back(h.object);
    }
  }
  if (!event.objects.empty()) {
    ++stats.desyncs;
    emit(std::move(event));
  }
}

}  // namespace shoal
