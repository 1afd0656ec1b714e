// SPDX-License-Identifier: MIT
// Joining: the JoinRequest to the host, its Welcome, a Hello on every mesh link, the checks
// that refuse other wire versions and encodings, and the baselines a newcomer asks for.
#include <algorithm>

#include "peer/peer_impl.hpp"
#include "session/compatibility.hpp"

namespace shoal {
namespace {

void note_incompatible(Peer::Impl& m, const std::string& reason) {
  log_line(m.config.log, LogLevel::warn, [&] { return "incompatible peer: " + reason; });
  // A joiner's join fails with the reason; anyone else tells the game.
  using Phase = SessionState::Phase;
  if (m.session.phase == Phase::joining || m.session.phase == Phase::syncing) {
    return m.session.joining.set_incompatible(reason);
  }
  Event event = make_event(EventKind::incompatible_peer, kNoPeer);
  event.reason = reason;
  m.emit(std::move(event));
}

void refuse(Peer::Impl& m, ConnectionId connection, int their_version, const std::string& reason) {
  std::vector<std::uint8_t> out;
  wire::encode(wire::Refusal{wire::kProtocolVersion, static_cast<std::uint8_t>(their_version), reason}, out);
  m.transport->send(connection, Channel::control, out);
  m.transport->flush();
  // The refused end closes the link when it reads this (on_refusal): closing it here could
  // lose the refusal, as ENet empties a link's queues at both ends when it closes.
  note_incompatible(m, reason);
}

}  // namespace

void Peer::Impl::advance_join(std::int64_t now_us) {
  if (!session.joining.finished() && !session.joining.incompatibility().empty()) {
    return fail_join(now_us, JoinFailure::incompatible);
  }
  if (!session.joining.finished() && !session.joining.dismissal().empty()) {
    return fail_join(now_us, JoinFailure::refused);
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
  if (failure == JoinFailure::refused) event.reason = session.joining.dismissal();
  log_line(config.log, LogLevel::error, [&] {
    return "join failed while " + std::string(to_string(step)) + ": " + std::string(to_string(failure)) +
           (event.reason.empty() ? "" : " (" + event.reason + ")");
  });
  session.joining.finish(now_us, true);
  // Whoever admitted this peer forgets it at once rather than after a timeout.
  if (session.members.self() != kNoPeer) broadcast(wire::PeerLeft{session.members.self()});
  for (const session::Member& m : session.members.remotes()) transport->disconnect(m.connection);
  // After a refusal the link stays open: closing it could drop the refusal still on its way
  // (ENet empties a link's queues at both ends when it closes). The host closes it on reading
  // the refusal or the PeerLeft. A dismissed joiner closes it: the host said all it had to.
  if (session.host_connection != kNoConnection && failure != JoinFailure::incompatible) {
    transport->disconnect(session.host_connection);
  }
  session.phase = Phase::left;
  emit(std::move(event));
}

void Peer::Impl::on_join_request(ConnectionId connection, const wire::JoinRequest& request) {
  // Turned down with the reason, so that the joiner gives up at once and can say why.
  if (session.phase != Phase::in_match || session.members.self() != 0) {
    drop(DropReason::malformed);
    return dismiss(connection, wire::DismissalCause::not_admitting,
                   session.phase == Phase::in_match ? "this peer is not the match's host"
                                                    : "this peer is not in a match it hosts");
  }
  if (request.session != config.session) {
    drop(DropReason::malformed);
    return dismiss(connection, wire::DismissalCause::not_admitting,
                   "the host plays session '" + config.session + "', the joiner asked for '" + request.session + "'");
  }
  const std::string mismatch = session::encoding_mismatch(encoding(), "the host", request.encoding, "the joiner");
  if (!mismatch.empty()) return refuse(*this, connection, wire::kProtocolVersion, mismatch);
  if (!invitation_admits(connection, request.rejoin_id)) return;
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
      return dismiss(connection, wire::DismissalCause::rejoin_refused,
                     "cannot come back as peer " + std::to_string(request.rejoin_id) + ": not the peer that had that id");
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
  note_invitation(connection, id);  // before the welcome, which lists it when single-use
  welcome.used_invitations = session.used_invitations;
  send_to(connection, welcome);
  admit({id, connection, joiner, request.secret}, rejoined);
}

void Peer::Impl::on_welcome(ConnectionId connection, const wire::Welcome& welcome) {
  const bool valid = !welcome.members.empty() && welcome.your_id != kNoPeer &&
                     (session.phase == Phase::joining || (session.rejoining && welcome.your_id == session.members.self()));
  if (!valid) return drop(DropReason::malformed);
  const std::string mismatch = session::encoding_mismatch(welcome.encoding, "the host", encoding(), "this peer");
  if (!mismatch.empty()) return refuse(*this, connection, wire::kProtocolVersion, mismatch);
  // By convention the first member is the host that sent the welcome.
  const wire::Member& host = welcome.members.front();
  const bool rejoin = session.rejoining;
  if (rejoin) {
    session.rejoining = false;
    session.members.take_absent(host.id);
    admit({host.id, connection, transport->remote_address(connection), 0}, true);
  } else {
    session.members.set_self(welcome.your_id);
    note_invitation(connection, host.id);
    session.members.add({host.id, connection, transport->remote_address(connection), 0});
    session.phase = Phase::syncing;
  }
  // Whoever admits joiners after the host keeps to the host's single-use invitations too.
  for (const wire::UsedInvitation& used : welcome.used_invitations) {
    if (session.admitted_with(used.key) == kNoPeer) session.used_invitations.push_back(used);
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
  if (!mismatch.empty()) return refuse(*this, connection, wire::kProtocolVersion, mismatch);
  if (!invitation_admits(connection, hello.id)) return;
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
    return refuse(*this, connection, theirs, wire::wire_version_mismatch(theirs, "the host", wire::kProtocolVersion, "this peer"));
  }
  // Bytes 0-3 mean the same in every version: a stranger's introduction is answered, so that
  // it learns both versions instead of timing out.
  if (session.members.peer_of(connection) != kNoPeer) return;
  if (const std::optional<wire::Refusal> refusal = wire::refuse_introduction(bytes)) {
    refuse(*this, connection, theirs, refusal->reason);
  }
}

void Peer::Impl::on_refusal(ConnectionId connection, const wire::Refusal& refusal) {
  note_incompatible(*this, refusal.reason.empty()
                              ? "refused by a peer of wire version " + std::to_string(refusal.sender_version)
                              : refusal.reason);
  transport->disconnect(connection);
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
    if (authority.owner_of(*body) != from) {
      drop(DropReason::not_owner);
      continue;
    }
    on_owner_frame(baseline.frame, *body, o.state, o.user_bytes.view());
  }
}

}  // namespace shoal
