// SPDX-License-Identifier: MIT
// Membership: joining (JoinRequest, Welcome, Hello on every mesh link), leaving, losing a peer
// and getting it back within the rejoin grace period, and the baseline a newcomer asks for.
#include <algorithm>

#include "peer/peer_impl.hpp"
#include "session/compatibility.hpp"

namespace shoal {

void Peer::Impl::on_connected(ConnectionId connection) {
  if (session.phase == Phase::left) return;
  if (connection == session.host_connection && (session.phase == Phase::joining || session.rejoining)) {
    wire::JoinRequest request{config.session, transport->local_address().port,
                              session.rejoining ? session.members.self() : kNoPeer, session.secret, encoding()};
    send_to(connection, request);
    session.host_link_up = true;
    return;
  }
  std::optional<session::PendingLink> link = session.joining.take_link(connection);
  if (!link) link = take_redial(connection);
  if (!link) return;  // incoming: it introduces itself
  send_to(connection, wire::Hello{session.members.self(), config.session, session.secret, encoding()});
  // Every member the welcome named is older: its baseline is asked for now, on the heels of
  // the introduction (a joiner's own admit() asks only once in the match).
  if (session.phase == Phase::syncing) send_to(connection, wire::BaselineRequest{});
  const bool rejoined = session.members.take_absent(link->peer).has_value();
  admit({link->peer, connection, transport->remote_address(connection), 0}, rejoined);
}

void Peer::Impl::admit(const session::Member& member, bool rejoined) {
  cancel_redials(member.id);  // back by another way (its own dial, a rejoin through the host)
  session.members.add(member);
  if (authority.ownership) authority.ownership->peer_joined(member.id);
  if (!rejoined) reset_regions(member.id);
  send_owned_records(member.connection);
  // The newer of two peers asks the older for what it owns (a late joiner's baseline).
  if (session.phase == Phase::in_match && member.id < session.members.self()) {
    send_to(member.connection, wire::BaselineRequest{});
    session.joining.await_baseline(member.id);
  }
  emit(make_event(rejoined ? EventKind::peer_rejoined : EventKind::peer_joined, member.id));
}

void Peer::Impl::on_disconnected(ConnectionId connection, bool timed_out, std::int64_t now_us) {
  if (session.phase == Phase::joining && connection == session.host_connection) {
    // No welcome yet: ask again shortly, until the join's deadline.
    constexpr std::int64_t kHostRetryUs = 250'000;
    session.host_connection = kNoConnection;
    session.host_link_up = false;
    session.joining.host_attempt_failed(!timed_out);
    session.next_host_attempt_us = now_us + kHostRetryUs;
    return;
  }
  if (const std::optional<session::PendingLink> link = session.joining.take_link(connection)) {
    // A member the host named did not answer this time: try again while the join lasts.
    if (!session.joining.finished()) session.joining.mesh().push_back({transport->connect(link->address), link->peer, link->address});
    return;
  }
  if (const std::optional<session::PendingLink> link = take_redial(connection)) {
    // Still unreachable: try again while its grace period lasts (expire_absent ends it).
    if (session.members.find_absent(link->peer) != nullptr && !session.rejoining) redial(link->peer, link->address);
    return;
  }
  if (connection == session.host_connection) {
    session.host_connection = kNoConnection;
    // Before the match, the host is the one that admitted this peer and keeps its clock.
    if (session.phase == Phase::syncing) return fail_join(now_us, JoinFailure::host_lost);
  }
  // With no grace period a lost peer's objects change hands at once, but only the membership
  // authority decides that it is lost while other members remain: a single link that timed out
  // (both ends most likely alive) would otherwise make the two peers drop each other while the
  // rest keep both, and play on in different worlds. The others wait for its word (PeerLeft),
  // dialling the lost peer again meanwhile, and decide alone only if the word does not come.
  constexpr std::int64_t kVerdictWaitMs = 2000;
  std::int64_t wait_ms = config.rejoin_grace_ms;
  const PeerId lost = session.members.peer_of(connection);
  if (wait_ms == 0 && lost != kNoPeer && session.members.remotes().size() > 1 &&
      membership_authority(lost) != session.members.self()) {
    wait_ms = kVerdictWaitMs;
  }
  if (timed_out && wait_ms > 0 && session.phase == Phase::in_match) {
    const std::int64_t deadline = now_us + wait_ms * 1000;
    if (auto id = session.members.mark_absent(connection, deadline)) {
      session.time_sync.forget(*id);
      session.joining.baseline_done(*id);
      emit(make_event(EventKind::peer_lost, *id));
      // Everyone gone at once: it is this peer that dropped. Ask the host to take it back.
      if (session.members.remotes().empty() && session.members.self() != 0) start_rejoin();
      // One link alone dropped (the others still carry traffic, so both peers are most likely
      // alive): left alone, each would hand the other's objects over when its grace ends, and
      // the two would play on in different worlds. The newer of the two dials the older again,
      // as when it joined; the older takes it back on its Hello (on_hello).
      else if (!session.members.remotes().empty() && *id < session.members.self() && !session.rejoining) {
        if (const session::AbsentMember* gone = session.members.find_absent(*id)) redial(*id, gone->member.address);
      }
    }
    return;
  }
  if (auto id = session.members.remove_connection(connection)) {
    announce_departure(*id);
    peer_gone(*id);
  }
}

PeerId Peer::Impl::membership_authority(PeerId excluded) const {
  // The lowest id among the members this peer hears (remotes are sorted by id).
  for (const session::Member& m : session.members.remotes()) {
    if (m.id != excluded) return std::min(m.id, session.members.self());
  }
  return session.members.self();
}

void Peer::Impl::announce_departure(PeerId peer) {
  if (session.phase == Phase::in_match && membership_authority(peer) == session.members.self()) {
    broadcast(wire::PeerLeft{peer});
  }
}

void Peer::Impl::on_departure_announced(PeerId from, PeerId peer) {
  // Only the membership authority speaks for others. About this peer itself: the authority
  // lost it, and the others will drop their links to it; nothing here can undo that.
  if (peer == session.members.self() || from != membership_authority(peer)) return drop(DropReason::not_owner);
  if (const session::Member* member = session.members.find(peer)) {
    transport->disconnect(member->connection);
    session.members.remove(peer);
  } else if (!session.members.take_absent(peer)) {
    return;  // gone here already
  }
  peer_gone(peer);
}

void Peer::Impl::advance_join(std::int64_t now_us) {
  if (!session.joining.finished() && !session.joining.incompatibility().empty()) {
    return fail_join(now_us, JoinFailure::incompatible);
  }
  if (session.phase == Phase::joining && session.host_connection == kNoConnection && now_us >= session.next_host_attempt_us) {
    session.host_connection = transport->connect(session.joining.host_address());
  }
  if (session.phase == Phase::in_match && !session.joining.finished() && session.joining.baselines_complete()) {
    session.joining.finish(now_us, false);
  }
  if (session.joining.overdue(now_us)) {
    fail_join(now_us, join_step() == JoinStep::connecting && session.joining.refused() ? JoinFailure::refused
                                                                             : JoinFailure::no_answer);
  }
}

JoinStep Peer::Impl::join_step() const {
  if (session.joining.failed()) return JoinStep::failed;
  switch (session.phase) {
    case Phase::idle: return JoinStep::idle;
    case Phase::joining: return JoinStep::connecting;
    case Phase::syncing: return session.joining.meshed() ? JoinStep::syncing : JoinStep::meshing;
    case Phase::hosting: return JoinStep::syncing;
    case Phase::in_match:
    case Phase::left: return session.joining.finished() ? JoinStep::joined : JoinStep::baselines;
  }
  return JoinStep::idle;
}

void Peer::Impl::fail_join(std::int64_t now_us, JoinFailure failure) {
  const JoinStep step = join_step();
  Event event = make_event(EventKind::join_failed, session.joining.blocking_peer(step));
  event.step = step;
  event.failure = failure;
  if (failure == JoinFailure::incompatible) event.reason = session.joining.incompatibility();
  session.joining.finish(now_us, true);
  // Whoever admitted this peer forgets it at once rather than after a timeout.
  if (session.members.self() != kNoPeer) broadcast(wire::PeerLeft{session.members.self()});
  for (const session::Member& m : session.members.remotes()) transport->disconnect(m.connection);
  // After a refusal the link stays open: closing it could drop the refusal still on its way
  // (ENet empties a link's queues at both ends when it closes). The host closes it on reading
  // the refusal or the PeerLeft.
  if (session.host_connection != kNoConnection && failure != JoinFailure::incompatible) {
    transport->disconnect(session.host_connection);
  }
  session.phase = Phase::left;
  emit(std::move(event));
}

void Peer::Impl::start_rejoin() {
  const session::AbsentMember* host = nullptr;
  for (const session::AbsentMember& a : session.members.absent()) {
    if (host == nullptr || a.member.id < host->member.id) host = &a;
  }
  if (host == nullptr || host->member.id != 0) return;  // only the match's host admits peers
  // The host's welcome names every member to link to again: single links being dialled meanwhile
  // would race it.
  for (const session::AbsentMember& a : session.members.absent()) cancel_redials(a.member.id);
  session.rejoining = true;
  session.host_connection = transport->connect(host->member.address);
}

void Peer::Impl::expire_absent(std::int64_t now_us) {
  for (PeerId id : session.members.expire_absent(now_us)) {
    announce_departure(id);
    peer_gone(id);
  }
  if (!session.rejoining) return;
  if (session.members.find_absent(0) == nullptr) {
    session.rejoining = false;  // back, or the host's grace period is over: nobody to rejoin
  } else if (session.host_connection == kNoConnection) {
    start_rejoin();  // the last attempt timed out: try again while the grace period lasts
  }
}

void Peer::Impl::redial(PeerId peer, const Address& address) {
  session.redials.push_back({transport->connect(address), peer, address});
}

std::optional<session::PendingLink> Peer::Impl::take_redial(ConnectionId connection) {
  for (auto it = session.redials.begin(); it != session.redials.end(); ++it) {
    if (it->connection != connection) continue;
    const session::PendingLink link = *it;
    session.redials.erase(it);
    return link;
  }
  return std::nullopt;
}

void Peer::Impl::cancel_redials(PeerId peer) {
  std::erase_if(session.redials, [&](const session::PendingLink& l) {
    if (l.peer != peer) return false;
    transport->disconnect(l.connection);
    return true;
  });
}

void Peer::Impl::peer_gone(PeerId peer) {
  cancel_redials(peer);
  session.time_sync.forget(peer);
  session.joining.baseline_done(peer);
  std::erase_if(remote_controlled, [&](auto& rc) {
    if (rc.first != peer) return false;
    inputs.untrack(rc.second);
    visuals.set_control(rc.second, ControlMode::uncontrolled);
    return true;
  });
  // Every peer applies the same hand-over, so the leaver's objects get one owner everywhere.
  std::erase_if(authority.peer_regions, [&](auto& r) { return r.peer == peer; });
  links.drop(peer);
  if (authority.ownership) {
    authority.ownership->peer_left(peer);
    note_owner_changes();
    // A crashed peer's last changes may have reached some peers and not others.
    authority.ownership->reissue_departed(history.empty() ? 0 : history.newest(), authority.decided);
    send_decided_changes();
  }
  emit(make_event(EventKind::peer_left, peer));
}

void Peer::Impl::on_join_request(ConnectionId connection, const wire::JoinRequest& request) {
  if (session.phase != Phase::in_match || session.members.self() != 0 || request.session != config.session) {
    drop(DropReason::malformed);
    transport->disconnect(connection);
    return;
  }
  const std::string mismatch = session::encoding_mismatch(encoding(), "the host", request.encoding, "the joiner");
  if (!mismatch.empty()) return refuse(connection, wire::kProtocolVersion, mismatch);
  Address joiner = transport->remote_address(connection);
  joiner.port = request.listen_port;
  bool rejoined = false;
  PeerId id = kNoPeer;
  if (request.rejoin_id != kNoPeer) {
    // Only the same peer may come back as itself: it must know its secret.
    const session::Member* present = session.members.find(request.rejoin_id);
    const session::AbsentMember* gone = session.members.find_absent(request.rejoin_id);
    const std::uint64_t known = present ? present->secret : gone ? gone->member.secret : 0;
    if (known == 0 || known != request.secret) {
      drop(DropReason::not_owner);
      transport->disconnect(connection);
      return;
    }
    if (present) {  // it noticed the drop before this peer did: replace the stale link
      transport->disconnect(present->connection);
      session.members.remove(request.rejoin_id);
    }
    session.members.take_absent(request.rejoin_id);
    id = request.rejoin_id;
    rejoined = true;
  } else {
    id = session.members.allocate_id();
  }
  wire::Welcome welcome;
  welcome.your_id = id;
  welcome.host_frame = history.newest();
  welcome.default_owner = authority.ownership->default_owner();
  welcome.encoding = encoding();
  const Address self_address = transport->local_address();
  welcome.members.push_back({session.members.self(), self_address.host, self_address.port});
  for (const session::Member& m : session.members.remotes()) {
    welcome.members.push_back({m.id, m.address.host, m.address.port});
  }
  send_to(connection, welcome);
  admit({id, connection, joiner, request.secret}, rejoined);
}

void Peer::Impl::on_welcome(ConnectionId connection, const wire::Welcome& welcome) {
  const bool valid = !welcome.members.empty() && welcome.your_id != kNoPeer &&
                     (session.phase == Phase::joining || (session.rejoining && welcome.your_id == session.members.self()));
  if (!valid) return drop(DropReason::malformed);
  const std::string mismatch = session::encoding_mismatch(welcome.encoding, "the host", encoding(), "this peer");
  if (!mismatch.empty()) return refuse(connection, wire::kProtocolVersion, mismatch);
  // By convention the first member is the host that sent the welcome.
  const wire::Member& host = welcome.members.front();
  const bool rejoin = session.rejoining;
  if (rejoin) {
    session.rejoining = false;
    session.members.take_absent(host.id);
    admit({host.id, connection, transport->remote_address(connection), 0}, true);
  } else {
    session.members.set_self(welcome.your_id);
    session.members.add({host.id, connection, transport->remote_address(connection), 0});
    session.phase = Phase::syncing;
  }
  std::size_t others = 0;
  std::vector<PeerId> older{host.id};
  for (std::size_t i = 1; i < welcome.members.size(); ++i) {
    const wire::Member& m = welcome.members[i];
    if (m.id == welcome.your_id || session.members.find(m.id) != nullptr) continue;
    const Address address{m.host, m.port};
    session.joining.mesh().push_back({transport->connect(address), m.id, address});
    older.push_back(m.id);
    ++others;
  }
  if (rejoin) return;
  session.joining.welcomed(others);
  // The host's baseline now; each other member's once its link is up (on_connected).
  send_to(connection, wire::BaselineRequest{});
  session.joining.await_baselines(std::move(older));
  session.baselines_requested = true;
}

void Peer::Impl::on_hello(ConnectionId connection, const wire::Hello& hello) {
  if (hello.session != config.session || hello.id == kNoPeer || hello.id == session.members.self()) {
    return drop(DropReason::malformed);
  }
  const std::string mismatch = session::encoding_mismatch(encoding(), "peer " + std::to_string(session.members.self()),
                                                          hello.encoding, "peer " + std::to_string(hello.id));
  if (!mismatch.empty()) return refuse(connection, wire::kProtocolVersion, mismatch);
  const session::Member* present = session.members.find(hello.id);
  const session::AbsentMember* gone = session.members.find_absent(hello.id);
  if (present && present->connection == connection) {
    // The answer to the Hello this peer sent on a link it opened (a join's mesh, a redial).
    if (present->secret == 0) session.members.set_secret(hello.id, hello.secret);
    return;
  }
  // Answered on the same link, so both ends know each other's secret for a later rejoin.
  send_to(connection, wire::Hello{session.members.self(), config.session, session.secret, encoding()});
  if (present || gone) {
    // A rejoin: the peer must prove it is the one that had this id.
    const std::uint64_t known = present ? present->secret : gone->member.secret;
    if (known == 0 || known != hello.secret) return drop(DropReason::not_owner);
    if (present) {
      transport->disconnect(present->connection);
      session.members.remove(hello.id);
    }
    session.members.take_absent(hello.id);
    return admit({hello.id, connection, transport->remote_address(connection), hello.secret}, true);
  }
  admit({hello.id, connection, transport->remote_address(connection), hello.secret}, false);
}

void Peer::Impl::on_other_version(ConnectionId connection, std::span<const std::uint8_t> bytes) {
  const int theirs = wire::version_of(bytes);
  if (session.phase == Phase::joining && connection == session.host_connection) {
    return refuse(connection, theirs, session::wire_version_mismatch(theirs, "the host", wire::kProtocolVersion, "this peer"));
  }
  // Bytes 0-3 mean the same in every version: a stranger's introduction is answered, so that
  // it learns both versions instead of timing out.
  const int kind = wire::kind_of_any_version(bytes);
  if (session.members.peer_of(connection) != kNoPeer) return;
  if (kind == static_cast<int>(wire::MessageKind::join_request)) {
    refuse(connection, theirs, session::wire_version_mismatch(wire::kProtocolVersion, "the host", theirs, "the joiner"));
  } else if (kind == static_cast<int>(wire::MessageKind::hello)) {
    refuse(connection, theirs, session::wire_version_mismatch(wire::kProtocolVersion, "this peer", theirs, "the other peer"));
  }
}

void Peer::Impl::on_refusal(ConnectionId connection, const wire::Refusal& refusal) {
  note_incompatible(refusal.reason.empty() ? "refused by a peer of wire version " + std::to_string(refusal.sender_version)
                                           : refusal.reason);
  transport->disconnect(connection);
}

void Peer::Impl::refuse(ConnectionId connection, int their_version, const std::string& reason) {
  std::vector<std::uint8_t> out;
  wire::encode(wire::Refusal{wire::kProtocolVersion, static_cast<std::uint8_t>(their_version), reason}, out);
  transport->send(connection, Channel::control, out);
  transport->flush();
  // The refused end closes the link when it reads this (on_refusal): closing it here could
  // lose the refusal, as ENet empties a link's queues at both ends when it closes.
  note_incompatible(reason);
}

void Peer::Impl::note_incompatible(const std::string& reason) {
  // A joiner's join fails with the reason; anyone else tells the game.
  if (session.phase == Phase::joining || session.phase == Phase::syncing) return session.joining.set_incompatible(reason);
  Event event = make_event(EventKind::incompatible_peer, kNoPeer);
  event.reason = reason;
  emit(std::move(event));
}

void Peer::Impl::request_baselines() {
  std::vector<PeerId> older;
  for (const session::Member& m : session.members.remotes()) {
    if (m.id >= session.members.self()) continue;
    send_to(m.connection, wire::BaselineRequest{});
    older.push_back(m.id);
  }
  session.joining.await_baselines(std::move(older));
  session.baselines_requested = true;
}

void Peer::Impl::send_baseline(ConnectionId connection) {
  // Several messages when needed: each stays well under the control datagram limit. The last
  // says so, even when this peer owns nothing (or is not in the match yet): the newcomer
  // counts the peers it has heard from.
  constexpr std::size_t kObjectsPerMessage = 400;
  wire::Baseline message;
  if (session.phase == Phase::in_match) {
    const Frame frame = history.newest();
    const std::span<const ObjectState> states = history.newest_states();
    message.frame = frame;
    for (BodyIndex b : authority.owned_bodies) {
      wire::BaselineObject& o = message.objects.emplace_back();
      o.object = objects.id(b);
      o.state = states[b];
      o.user_bytes.assign(held_user_bytes(frame, b));
      if (message.objects.size() == kObjectsPerMessage) {
        send_to(connection, message);
        message.objects.clear();
      }
    }
  }
  message.last = true;
  send_to(connection, message);
}

void Peer::Impl::on_baseline(PeerId from, const wire::Baseline& baseline) {
  if (session.phase == Phase::syncing && session.baselines_requested) {
    // Bounded: an older peer sends at most what it owns, and nobody owns more than everything.
    if (session.early_baselines.size() < 2 * session.members.remotes().size() + body_count / 100 + 8) {
      session.early_baselines.emplace_back(from, baseline);
    }
    if (baseline.last) session.joining.baseline_done(from);
    return;
  }
  if (session.phase != Phase::in_match) return;
  if (baseline.last) session.joining.baseline_done(from);
  for (const wire::BaselineObject& o : baseline.objects) {
    const auto body = objects.find(o.object);
    if (!body) {
      drop(DropReason::malformed);
      continue;
    }
    if (o.user_bytes.size != user_bytes.size[*body]) {  // its type fixes how many
      drop(DropReason::malformed);
      continue;
    }
    if (owner_of(*body) != from) {
      drop(DropReason::not_owner);
      continue;
    }
    on_owner_frame(baseline.frame, *body, o.state, o.user_bytes.view());
  }
}

}  // namespace shoal
