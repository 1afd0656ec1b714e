// SPDX-License-Identifier: MIT
// Routing what the transport delivers: membership, time sync, ownership, checksums and
// snapshots. Every message is checked before it touches state; a bad one is dropped and
// counted with its reason (PeerStats::dropped).
#include <algorithm>

#include "peer/peer_impl.hpp"
#include "sync/checksum.hpp"
#include "sync/state_compare.hpp"

namespace shoal {
namespace {

void on_ownership(Peer::Impl& m, PeerId from, const wire::Ownership& message) {
  for (const wire::OwnershipChange& change : message.changes) {
    if (!m.objects.contains(change.object)) {
      m.drop(DropReason::malformed);
      continue;
    }
    // A peer speaks for itself: its own claims and releases, or (to a newcomer) the records
    // of the objects it owns now.
    if (message.records ? change.new_owner != from : change.author != from) {
      m.drop(DropReason::not_owner);
      continue;
    }
    if (!m.authority.ownership) {
      m.authority.early_ownership.push_back({change, message.records});  // applied when the match starts here
      continue;
    }
    m.apply_ownership(change, message.records);
  }
}

void on_checksum(Peer::Impl& m, PeerId from, const wire::Checksum& message) {
  const world::FrameHistory& history = m.history;
  if (!history.has(message.frame)) return;  // too old or too new to compare: not a desync
  Event event = make_event(EventKind::desync, from);
  event.frame = message.frame;
  for (const wire::ObjectHash& h : message.objects) {
    const auto body = m.objects.find(h.object);
    if (!body) {
      m.drop(DropReason::malformed);
      continue;
    }
    // Only frames this peer holds as the owner's own data can be compared.
    if (history.confirmed(message.frame, *body) &&
        sync::state_hash(history.state(message.frame, *body), m.held_user_bytes(message.frame, *body)) != h.hash) {
      event.objects.push_back(h.object);
      event.diagnoses.push_back(m.diagnose(*body, message.frame));  // enough for the game to log
    }
  }
  if (!event.objects.empty()) {
    ++m.stats.desyncs;
    m.emit(std::move(event));
  }
}

}  // namespace

void Peer::Impl::drain_transport(std::int64_t now_us) {
  TransportEvent event;
  // Bounded, so a flood cannot stall the game's frame; the rest waits for the next update.
  constexpr int kMaxEventsPerUpdate = 4096;
  // At the update's time: the transport's timers run on the caller's clock (Transport::poll).
  for (int i = 0; i < kMaxEventsPerUpdate && transport->poll(event, now_us); ++i) {
    switch (event.kind) {
      case TransportEventKind::connected: on_connected(event.connection); break;
      case TransportEventKind::disconnected: on_disconnected(event.connection, false, now_us); break;
      case TransportEventKind::timed_out: on_disconnected(event.connection, true, now_us); break;
      case TransportEventKind::message:
        on_message(event.connection, event.channel, event.payload, now_us);
        break;
    }
  }
}

void Peer::Impl::on_message(ConnectionId connection, Channel, std::span<const std::uint8_t> bytes,
                            std::int64_t now_us) {
  // A refusal is read in any wire version: it names both sides' versions or settings.
  if (wire::Refusal refusal; wire::decode_refusal(bytes, refusal)) return on_refusal(connection, refusal);
  wire::MessageKind kind{};
  if (auto status = wire::read_header(bytes, kind); !status) {
    if (status.reason() == DropReason::unsupported_version) on_other_version(connection, bytes);
    return drop(status.reason());
  }
  if (kind == wire::MessageKind::refusal) return drop(DropReason::malformed);  // not decode_refusal's layout
  // Who may play: read before anything else about the link is known (a dismissal may answer
  // a join this peer never got a connection for).
  if (kind == wire::MessageKind::dismissal) {
    wire::Dismissal m;
    if (auto s = wire::decode(bytes, m); !s) return drop(s.reason());
    return on_dismissal(connection, m);
  }
  if (kind == wire::MessageKind::link_notice) {
    wire::LinkNotice m;
    if (auto s = wire::decode(bytes, m); !s) return drop(s.reason());
    return on_link_notice(connection, m);
  }
  const PeerId from = session.members.peer_of(connection);

  // Time sync holds no state about the asker, so it comes first: a joiner pings the host as
  // soon as its connection is up, before the welcome, which takes a round trip off the join.
  if (kind == wire::MessageKind::ping) {
    wire::Ping m;
    if (auto s = wire::decode(bytes, m); !s) return drop(s.reason());
    // Only a peer on the match timeline may answer (anyone else's time says nothing), and
    // only after this update has advanced its clock, so the time it reports is now's.
    if (session.phase != Phase::in_match) return send_to(connection, wire::Pong{m.sent_us, -1.0});
    constexpr std::size_t kMaxPendingPongs = 256;  // bounded: a ping flood answers less
    if (session.pending_pongs.size() < kMaxPendingPongs) session.pending_pongs.push_back({connection, m.sent_us});
    return;
  }
  if (kind == wire::MessageKind::pong) {
    wire::Pong m;
    if (auto s = wire::decode(bytes, m); !s) return drop(s.reason());
    // Before the welcome, the host's: the match's host is always peer 0.
    const PeerId source = from != kNoPeer ? from : connection == session.host_connection ? PeerId{0} : kNoPeer;
    if (source == kNoPeer) return drop(DropReason::not_owner);
    if (m.wall_frame < 0) return;  // the responder is not synchronised yet
    if (session.is_host) session.pace_control.report(source, m.lag_frames, now_us);
    // Only the host's pace counts (it alone decides it); after it left, the last one holds.
    const session::PaceSegment pace{m.pace_wall, m.pace_match, m.pace_rate};
    if (source == 0 && !session.is_host && (!session.pace_known || pace.newer_than(session.pace))) {
      session.pace = pace;
      session.pace_known = true;
    }
    ++session.pongs_received;
    if (!session.time_sync.add_sample(source, m.echoed_sent_us, m.wall_frame, now_us)) drop(DropReason::malformed);
    return;
  }

  // Before a peer has introduced itself, only introductions are accepted from it.
  if (from == kNoPeer) {
    if (kind == wire::MessageKind::join_request) {
      wire::JoinRequest m;
      if (auto s = wire::decode(bytes, m); !s) return drop(s.reason());
      return on_join_request(connection, m);
    }
    if (kind == wire::MessageKind::welcome && connection == session.host_connection &&
        session.host_connection != kNoConnection) {
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
    case wire::MessageKind::ownership: {
      if (auto s = wire::decode(bytes, authority.ownership_in); !s) return drop(s.reason());
      return on_ownership(*this, from, authority.ownership_in);
    }
    case wire::MessageKind::checksum: {
      if (auto s = wire::decode(bytes, scratch.checksum_in); !s) return drop(s.reason());
      return on_checksum(*this, from, scratch.checksum_in);
    }
    case wire::MessageKind::snapshot: {
      if (auto s = wire::decode(bytes, quantizer.limits(), scratch.snapshot_in, user_bytes.size); !s) return drop(s.reason());
      return on_snapshot(from, scratch.snapshot_in, now_us);
    }
    case wire::MessageKind::snapshot_ack: {
      if (auto s = wire::decode(bytes, scratch.ack_in); !s) return drop(s.reason());
      return on_snapshot_ack(from, scratch.ack_in);
    }
    case wire::MessageKind::hello: {  // the other end's answer to ours
      wire::Hello m;
      if (auto s = wire::decode(bytes, m); !s) return drop(s.reason());
      if (m.id != from) return drop(DropReason::not_owner);
      return on_hello(connection, m);
    }
    case wire::MessageKind::baseline_request: {
      wire::BaselineRequest m;
      if (auto s = wire::decode(bytes, m); !s) return drop(s.reason());
      send_live_set(connection);  // first: the baseline may name spawned objects
      return send_baseline(connection);
    }
    case wire::MessageKind::world_changes: {
      if (auto s = wire::decode(bytes, spawning.in); !s) return drop(s.reason());
      return on_world_changes(from, spawning.in);
    }
    case wire::MessageKind::baseline: {
      wire::Baseline m;
      if (auto s = wire::decode(bytes, m); !s) return drop(s.reason());
      return on_baseline(from, m);
    }
    case wire::MessageKind::game_message:
    case wire::MessageKind::game_datagram:
      return on_game_message(from, bytes, now_us);
    case wire::MessageKind::peer_left: {
      wire::PeerLeft m;
      if (auto s = wire::decode(bytes, m); !s) return drop(s.reason());
      if (m.id != from) return on_departure_announced(from, m.id);
      if (const session::Member* member = session.members.find(from)) transport->disconnect(member->connection);
      session.members.remove(from);
      return peer_gone(from);
    }
    default:
      return drop(DropReason::unknown_kind);  // known kind, but not from an introduced peer
  }
}

}  // namespace shoal
