// SPDX-License-Identifier: MIT
// The peer's part that keeps the session: who is in the match (present, or absent within
// their grace period), the match clock and the time sync that sets it, the way in (joining,
// rejoining, links being dialled again) and the pings and pongs that measure the links.
// Membership and joining messages change it (peer_membership.cpp, peer_joining.cpp), pings and
// pongs too (peer_messages.cpp, peer_tick.cpp); the tick reads it.
//
// Owns: the members, the clock and the match's pace, the join's progress, the redials, the
// baselines heard before the start and this peer's secret. Nothing else writes them.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <random>
#include <stdexcept>
#include <utility>
#include <vector>

#include "session/frame_clock.hpp"
#include "session/joining.hpp"
#include "session/membership.hpp"
#include "session/pace.hpp"
#include "session/time_sync.hpp"
#include "wire/control_messages.hpp"
#include "wire/dismissal.hpp"

namespace shoal {

struct SessionState {
  enum class Phase { idle, hosting, joining, syncing, in_match, left };

  SessionState(float tick_hz, const PaceConfig& pace_config)
      : time_sync(session::TimeSyncConfig{tick_hz}), pace_control(pace_config), tick_us(1e6 / tick_hz) {
    time_sync.set_reference_peer(0);  // the host defines the timeline while it is there
    std::random_device entropy;
    secret = (std::uint64_t{entropy()} << 32) | entropy();
  }

  /// Its invariants (the test build checks them every frame); throws std::logic_error.
  void validate() const {
    if (phase == Phase::in_match && !clock) throw std::logic_error("SessionState: in the match without a clock");
    const std::span<const session::Member> remotes = members.remotes();
    for (std::size_t i = 0; i < remotes.size(); ++i) {
      if (remotes[i].id == members.self()) throw std::logic_error("SessionState: itself among the remotes");
      for (std::size_t j = i + 1; j < remotes.size(); ++j) {
        if (remotes[i].id == remotes[j].id) throw std::logic_error("SessionState: a member twice");
      }
      if (members.find_absent(remotes[i].id) != nullptr) throw std::logic_error("SessionState: a member both present and absent");
    }
    for (const session::PendingLink& l : redials) {
      if (members.find_absent(l.peer) == nullptr) throw std::logic_error("SessionState: a redial to a member not absent");
    }
  }

  /// Who decides that a peer is lost: the lowest id among the members this peer hears, leaving
  /// `excluded` out (remotes are sorted by id).
  PeerId membership_authority(PeerId excluded) const {
    for (const session::Member& m : members.remotes()) {
      if (m.id != excluded) return std::min(m.id, members.self());
    }
    return members.self();
  }
  /// The link notice that named the other end of `connection`, if one did.
  const wire::LinkNotice* identity_of(ConnectionId connection) const {
    for (const auto& [c, notice] : link_identities) if (c == connection) return &notice;
    return nullptr;
  }
  std::optional<session::InvitationKey> invitation_of(PeerId peer) const {
    for (const auto& [p, key] : member_invitations) if (p == peer) return key;
    return std::nullopt;
  }
  /// The peer a single-use invitation admitted, if it admitted one.
  PeerId admitted_with(const session::InvitationKey& key) const {
    for (const wire::UsedInvitation& u : used_invitations) if (u.key == key) return u.peer;
    return kNoPeer;
  }
  /// The redial that `connection` is, taken off the list.
  std::optional<session::PendingLink> take_redial(ConnectionId connection) {
    for (auto it = redials.begin(); it != redials.end(); ++it) {
      if (it->connection != connection) continue;
      const session::PendingLink link = *it;
      redials.erase(it);
      return link;
    }
    return std::nullopt;
  }

  /// The host's wall time (frames) as this peer knows it: the host's own clock on the host,
  /// time sync's estimate elsewhere (nothing before the first pong).
  std::optional<double> wall_frame(std::int64_t now_us) const {
    if (is_host) return static_cast<double>(now_us) / tick_us;
    return time_sync.target_wall_frame(now_us);
  }
  /// Where the match timeline is at now_us: the wall time through the newest pace segment.
  std::optional<double> target_match_time(std::int64_t now_us) const {
    if (!is_host && !pace_known) return std::nullopt;
    const std::optional<double> wall = wall_frame(now_us);
    return wall ? std::optional<double>(pace.match_at(*wall)) : std::nullopt;
  }
  /// Notes this update's backlog (frames due and not simulated after it). recent_lag(), which
  /// pongs report, is the smallest backlog of the last whole quarter second: a lag that never
  /// cleared in it. A hitch (the OS descheduling the game for a few frames) clears at the next
  /// update and is no reason to slow everyone down; a peer that cannot keep up never clears.
  void note_lag(int backlog, std::int64_t now_us) {
    if (now_us - lag_window_start_us >= kLagWindowUs) {
      previous_window_lag = current_window_lag;
      current_window_lag = backlog;
      lag_window_start_us = now_us;
    }
    current_window_lag = std::min(current_window_lag, backlog);
  }
  int recent_lag() const { return previous_window_lag; }
  /// The host's: how fast the match runs, from every peer's lag and its own. A new rate starts
  /// a new segment where the timeline is now, so the timeline never jumps.
  void pace_the_match(std::int64_t now_us) {
    pace_control.report(members.self(), recent_lag(), now_us);
    const float rate = pace_control.decide(now_us);
    if (rate == pace.rate) return;
    pace = {static_cast<double>(now_us) / tick_us, clock->match_time(), rate};
  }

  Phase phase = Phase::idle;
  bool is_host = false;
  session::Membership members;
  session::TimeSync time_sync;
  std::optional<session::FrameClock> clock;
  int pongs_received = 0;
  static constexpr int kPongsBeforeStart = 4;  // a few RTT samples before trusting the estimate
  // Until time sync holds this many of the host's samples, pings go four times as often.
  static constexpr std::size_t kQuickPingSamples = 32;
  std::int64_t last_ping_us = -1;
  session::PaceSegment pace;              // the newest the host announced (the host's own)
  bool pace_known = false;                // a joiner has heard the host's
  session::PaceController pace_control;   // the host's: how fast the match runs
  double tick_us;
  static constexpr std::int64_t kLagWindowUs = 250'000;
  int current_window_lag = 0, previous_window_lag = 0;
  std::int64_t lag_window_start_us = 0;
  struct PendingPong {
    ConnectionId connection;
    std::int64_t ping_sent_us;
  };
  std::vector<PendingPong> pending_pongs;  // answered once the clock has advanced

  std::uint64_t secret;  // this peer's, random: proves a rejoin is really it
  // Whose invitation is at the other end of each secured link, from the transport's link
  // notices (none in the clear); a member takes its link's at admission.
  std::vector<std::pair<ConnectionId, wire::LinkNotice>> link_identities;
  // Each member's invitation (Peer::kick revokes it), while it is live.
  std::vector<std::pair<PeerId, session::InvitationKey>> member_invitations;
  // Single-use invitations and the peer each admitted: a second peer is refused one.
  std::vector<wire::UsedInvitation> used_invitations;
  session::Joining joining;
  ConnectionId host_connection = kNoConnection;
  std::int64_t next_host_attempt_us = 0;  // joining: when to ask the host again
  bool host_link_up = false;              // joining: host_connection is connected
  bool rejoining = false;
  std::vector<session::PendingLink> redials;  // links to absent members being dialled again
  // Baselines asked for from each older member as soon as its link is up, while the clock
  // still syncs (it saves their round trip after the start): kept until the start, then
  // taken like any owner frames.
  std::vector<std::pair<PeerId, wire::Baseline>> early_baselines;
  bool baselines_requested = false;
};

}  // namespace shoal
