// SPDX-License-Identifier: MIT
// How far a peer's way into a match has come (Peer::join_progress), and why a join failed
// (EventKind::join_failed). A join goes through these steps in order; each one resends or
// retries whatever the network may lose, and the whole join has a deadline
// (PeerConfig::join_timeout_ms) past which it fails, naming the step it was stuck in.
#pragma once

#include <cstdint>
#include <string_view>

#include "shoal/types.hpp"

namespace shoal {

enum class JoinStep : std::uint8_t {
  idle,        ///< neither host() nor join() yet
  connecting,  ///< reaching the host and asking it for an id (retried until the deadline)
  meshing,     ///< connecting to every other member the host named (each link retried)
  syncing,     ///< measuring the match clock against the host's (pings)
  baselines,   ///< in the match, waiting for the state of what each older peer owns
  joined,      ///< in the match with everything it needs; the host is joined at once
  failed,      ///< gave up: see the join_failed event for the step and the reason
};

enum class JoinFailure : std::uint8_t {
  none,
  no_answer,  ///< the peer named (or the host) never answered before the deadline
  /// the host or a member turned this peer down: its invitation is expired, revoked, for
  /// another session or used up, or the host plays another session or is not hosting; the
  /// event's `reason` says which, as far as the refuser tells a stranger (docs/security.md)
  refused,
  host_lost,  ///< the connection to the host ended before this peer was in the match
  /// the host or a member speaks another wire version or encodes snapshots differently: the
  /// event's `reason` names what differs and both values
  incompatible,
};

/// A short lowercase name, e.g. "syncing"; "unknown" for a value outside the enum.
std::string_view to_string(JoinStep step);
std::string_view to_string(JoinFailure failure);

/// How far joining has come (Peer::join_progress).
struct JoinProgress {
  JoinStep step = JoinStep::idle;  ///< the step the peer is in
  /// The current step's progress, when it counts something: meshing, links up of those the
  /// host named; syncing, clock samples of those needed; baselines, peers heard of those
  /// asked. 0 of 0 otherwise.
  int done = 0;
  int needed = 0;  ///< see `done`
  /// Milliseconds from the first update after join() (or host()) until the peer was joined
  /// (or failed); until then, how long it has been trying.
  std::int64_t elapsed_ms = 0;
};

}  // namespace shoal
