// SPDX-License-Identifier: MIT
// Membership: members connecting and leaving, a lost peer and getting it back within the
// rejoin grace period (redials, the membership authority's word on who is lost).
#include <algorithm>

#include "peer/peer_impl.hpp"
#include "session/compatibility.hpp"

namespace shoal {
namespace {

void redial(SessionState& session, Transport& transport, PeerId peer, const Address& address) {
  session.redials.push_back({transport.connect(address), peer, address});
}

void cancel_redials(SessionState& session, Transport& transport, PeerId peer) {
  std::erase_if(session.redials, [&](const session::PendingLink& l) {
    if (l.peer != peer) return false;
    transport.disconnect(l.connection);
    return true;
  });
}

// Everyone gone at once: asks the host to take this peer back.
void start_rejoin(SessionState& session, Transport& transport) {
  const session::AbsentMember* host = nullptr;
  for (const session::AbsentMember& a : session.members.absent()) {
    if (host == nullptr || a.member.id < host->member.id) host = &a;
  }
  if (host == nullptr || host->member.id != 0) return;  // only the match's host admits peers
  // The host's welcome names every member to link to again: single links being dialled meanwhile
  // would race it.
  for (const session::AbsentMember& a : session.members.absent()) cancel_redials(session, transport, a.member.id);
  session.rejoining = true;
  session.host_connection = transport.connect(host->member.address);
}

// The membership authority tells the others that `peer` is gone.
void announce_departure(Peer::Impl& m, PeerId peer) {
  const SessionState& session = m.session;
  if (session.phase == SessionState::Phase::in_match && session.membership_authority(peer) == session.members.self()) {
    m.broadcast(wire::PeerLeft{peer});
  }
}

}  // namespace

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
  if (!link) link = session.take_redial(connection);
  if (!link) return;  // incoming: it introduces itself
  send_to(connection, wire::Hello{session.members.self(), config.session, session.secret, encoding()});
  // Every member the welcome named is older: its baseline is asked for now, on the heels of
  // the introduction (a joiner's own admit() asks only once in the match).
  if (session.phase == Phase::syncing) send_to(connection, wire::BaselineRequest{});
  const bool rejoined = session.members.take_absent(link->peer).has_value();
  admit({link->peer, connection, transport->remote_address(connection), 0}, rejoined);
}

void Peer::Impl::admit(const session::Member& member, bool rejoined) {
  cancel_redials(session, *transport, member.id);  // back by another way (its own dial, a rejoin through the host)
  note_invitation(member.connection, member.id);
  session.members.add(member);
  if (authority.ownership) authority.ownership->peer_joined(member.id);
  if (!rejoined) authority.reset_regions(member.id);
  send_owned_records(member.connection);
  // The newer of two peers asks the older for what it owns (a late joiner's baseline); after a
  // rejoin both ask, as what each sent on the link that was lost never reached the other.
  if (session.phase == Phase::in_match && (member.id < session.members.self() || rejoined)) {
    send_to(member.connection, wire::BaselineRequest{});
    session.joining.await_baseline(member.id);
  }
  emit(make_event(rejoined ? EventKind::peer_rejoined : EventKind::peer_joined, member.id));
}

void Peer::Impl::on_disconnected(ConnectionId connection, bool timed_out, std::int64_t now_us) {
  std::erase_if(session.link_identities, [&](const auto& entry) { return entry.first == connection; });
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
  if (const std::optional<session::PendingLink> link = session.take_redial(connection)) {
    // Still unreachable: try again while its grace period lasts (expire_absent ends it).
    if (session.members.find_absent(link->peer) != nullptr && !session.rejoining) {
      redial(session, *transport, link->peer, link->address);
    }
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
      session.membership_authority(lost) != session.members.self()) {
    wait_ms = kVerdictWaitMs;
  }
  if (timed_out && wait_ms > 0 && session.phase == Phase::in_match) {
    const std::int64_t deadline = now_us + wait_ms * 1000;
    if (auto id = session.members.mark_absent(connection, deadline)) {
      session.time_sync.forget(*id);
      session.joining.baseline_done(*id);
      emit(make_event(EventKind::peer_lost, *id));
      // Everyone gone at once: it is this peer that dropped. Ask the host to take it back.
      if (session.members.remotes().empty() && session.members.self() != 0) start_rejoin(session, *transport);
      // One link alone dropped (the others still carry traffic, so both peers are most likely
      // alive): left alone, each would hand the other's objects over when its grace ends, and
      // the two would play on in different worlds. The newer of the two dials the older again,
      // as when it joined; the older takes it back on its Hello (on_hello).
      else if (!session.members.remotes().empty() && *id < session.members.self() && !session.rejoining) {
        if (const session::AbsentMember* gone = session.members.find_absent(*id)) {
          redial(session, *transport, *id, gone->member.address);
        }
      }
    }
    return;
  }
  if (auto id = session.members.remove_connection(connection)) {
    announce_departure(*this, *id);
    peer_gone(*id);
  }
}

void Peer::Impl::on_departure_announced(PeerId from, PeerId peer) {
  // Only the membership authority speaks for others. About this peer itself: the authority
  // lost it, and the others will drop their links to it; nothing here can undo that.
  if (peer == session.members.self() || from != session.membership_authority(peer)) return drop(DropReason::not_owner);
  log_line(config.log, LogLevel::info, [&] {
    return "peer " + std::to_string(peer) + " expelled: the membership authority, peer " + std::to_string(from) + ", lost it";
  });
  if (const session::Member* member = session.members.find(peer)) {
    transport->disconnect(member->connection);
    session.members.remove(peer);
  } else if (!session.members.take_absent(peer)) {
    return;  // gone here already
  }
  peer_gone(peer);
}

void Peer::Impl::expire_absent(std::int64_t now_us) {
  for (PeerId id : session.members.expire_absent(now_us)) {
    log_line(config.log, LogLevel::info, [&] {
      return "peer " + std::to_string(id) + " expelled: it stayed away past the rejoin grace period (" +
             std::to_string(config.rejoin_grace_ms) + " ms); its objects pass on";
    });
    announce_departure(*this, id);
    peer_gone(id);
  }
  if (!session.rejoining) return;
  if (session.members.find_absent(0) == nullptr) {
    session.rejoining = false;  // back, or the host's grace period is over: nobody to rejoin
  } else if (session.host_connection == kNoConnection) {
    start_rejoin(session, *transport);  // the last attempt timed out: try again while the grace period lasts
  }
}

void Peer::Impl::peer_gone(PeerId peer) {
  cancel_redials(session, *transport, peer);
  std::erase_if(session.member_invitations, [&](const auto& entry) { return entry.first == peer; });
  session.time_sync.forget(peer);
  session.pace_control.forget(peer);
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

}  // namespace shoal
