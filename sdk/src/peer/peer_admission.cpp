// SPDX-License-Identifier: MIT
// Who may play: a joiner turned down is told why (a dismissal), a joiner told so gives up with
// the reason, single-use invitations admit one peer, and the session's authority revokes an
// invitation (Peer::kick, Peer::revoke) through the transport's secured links, which tell the
// revoked peer (a link notice) and close every link to it.
#include <algorithm>
#include <stdexcept>

#include "peer/peer_impl.hpp"
#include "shoal/security.hpp"

namespace shoal {

void Peer::Impl::dismiss(ConnectionId connection, wire::DismissalCause cause, const std::string& reason) {
  std::vector<std::uint8_t> out;
  wire::encode(wire::Dismissal{cause, reason}, out);
  transport->send(connection, Channel::control, out);
  transport->flush();
  // The joiner closes the link on reading it: closing it here could lose the dismissal, as
  // ENet empties a link's queues at both ends when it closes.
  log_line(config.log, LogLevel::warn, [&] {
    return "turned a joiner down (" + std::string(wire::to_string(cause)) + "): " + reason;
  });
}

void Peer::Impl::on_dismissal(ConnectionId connection, const wire::Dismissal& dismissal) {
  // Only a joiner heeds one, from the host it asked or a member it is meshing with: in the
  // match, a member's word does not end this peer's place in it.
  const bool asked_host = connection == session.host_connection &&
                          (session.phase == Phase::joining || session.rejoining);
  const bool meshing = session.phase == Phase::syncing && std::any_of(session.joining.mesh().begin(), session.joining.mesh().end(),
                                                                       [&](const session::PendingLink& l) { return l.connection == connection; });
  if (!asked_host && !meshing) return drop(DropReason::not_owner);
  log_line(config.log, LogLevel::warn, [&] {
    return "turned down (" + std::string(wire::to_string(dismissal.cause)) + "): " + dismissal.reason;
  });
  if (session.rejoining && session.phase == Phase::in_match) {
    session.rejoining = false;  // the match goes on without the host; nothing more to ask it
    transport->disconnect(connection);
    session.host_connection = kNoConnection;
    return;
  }
  session.joining.set_dismissed(dismissal.reason);
}

void Peer::Impl::on_link_notice(ConnectionId connection, const wire::LinkNotice& notice) {
  if (notice.kind == wire::LinkNoticeKind::identity) {
    std::erase_if(session.link_identities, [&](const auto& entry) { return entry.first == connection; });
    session.link_identities.emplace_back(connection, notice);
    return;
  }
  // The session's authority revoked this peer's own invitation: it is out of the match, and
  // every member is closing its link to it.
  if (session.phase == Phase::left || session.phase == Phase::idle) return;
  log_line(config.log, LogLevel::error, [&] {
    return "kicked: the session's authority revoked this peer's invitation" +
           (notice.reason.empty() ? std::string{} : ": " + notice.reason);
  });
  if (session.phase == Phase::joining || session.phase == Phase::syncing) {
    session.joining.set_dismissed("the session's authority revoked this invitation" +
                                  (notice.reason.empty() ? std::string{} : ": " + notice.reason));
    return;
  }
  Event event = make_event(EventKind::kicked, session.members.self());
  event.reason = notice.reason;
  if (session.members.self() != kNoPeer) broadcast(wire::PeerLeft{session.members.self()});
  for (const session::Member& m : session.members.remotes()) transport->disconnect(m.connection);
  for (const session::PendingLink& l : session.redials) transport->disconnect(l.connection);
  session.redials.clear();
  session.rejoining = false;
  session.phase = Phase::left;
  emit(std::move(event));
}

bool Peer::Impl::invitation_admits(ConnectionId connection, PeerId peer) {
  const wire::LinkNotice* identity = session.identity_of(connection);
  if (identity == nullptr || !identity->single_use) return true;
  const PeerId admitted = session.admitted_with(identity->key);
  if (admitted != kNoPeer && admitted != peer) {
    drop(DropReason::invitation_used);
    dismiss(connection, wire::DismissalCause::invitation_used,
            "this single-use invitation already admitted peer " + std::to_string(admitted));
    return false;
  }
  return true;
}

void Peer::Impl::note_invitation(ConnectionId connection, PeerId peer) {
  const wire::LinkNotice* identity = session.identity_of(connection);
  if (identity == nullptr) return;
  std::erase_if(session.member_invitations, [&](const auto& entry) { return entry.first == peer; });
  session.member_invitations.emplace_back(peer, identity->key);
  if (identity->single_use && session.admitted_with(identity->key) == kNoPeer) {
    session.used_invitations.push_back({identity->key, peer});
  }
}

void Peer::kick(PeerId member, const SessionAuthority& authority, std::string_view reason) {
  const SessionState& session = impl_->session;
  if (member == session.members.self() || !session.members.is_live(member)) {
    throw std::invalid_argument("shoal::Peer::kick: peer " + std::to_string(member) + " is not another member of the match");
  }
  const std::optional<session::InvitationKey> key = session.invitation_of(member);
  if (!key) {
    throw std::logic_error("shoal::Peer::kick: peer " + std::to_string(member) +
                           "'s invitation is unknown: kicking needs secured links (SecurityConfig::enabled)");
  }
  revoke(authority.revoke(*key, reason));
}

void Peer::revoke(const Revocation& revocation) {
  if (!impl_->transport->revoke(revocation)) {
    throw std::invalid_argument(
        "shoal::Peer::revoke: the transport refused the revocation: it is not signed by this session's authority, "
        "or this peer's links are in the clear");
  }
  log_line(impl_->config.log, LogLevel::warn, [&] {
    return "revoked an invitation" + (revocation.reason().empty() ? std::string{} : ": " + revocation.reason());
  });
}

}  // namespace shoal
