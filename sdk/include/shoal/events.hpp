// SPDX-License-Identifier: MIT
// What a Peer tells the game: poll them once per update with Peer::poll_event.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "shoal/diagnosis.hpp"
#include "shoal/join.hpp"
#include "shoal/types.hpp"

namespace shoal {

enum class EventKind : std::uint8_t {
  joined_match,       ///< this peer has an id and a synchronised clock (peer = own id)
  peer_joined,        ///< peer connected to this peer
  peer_left,          ///< peer left, or stayed away past the rejoin grace period; its
                      ///< objects passed to the default owner
  peer_lost,          ///< peer timed out; its objects wait for it during the rejoin grace period
  peer_rejoined,      ///< a lost peer came back within the grace period, objects and all
  ownership_changed,  ///< object's owner became peer
  override_applied,   ///< an owner corrected object at frame, depth frames in the past
  snapped,            ///< object was too far behind to re-simulate: snapped to the owner
  desync,             ///< confirmed frame disagrees with peer's checksum for objects
  join_failed,        ///< this peer gave up joining: `step` it was stuck in, `failure` why,
                      ///< `peer` the member that never answered (kNoPeer: the host); the
                      ///< peer has left, and a new Peer may try again
  incompatible_peer,  ///< a peer of another wire version or snapshot encoding was refused by
                      ///< this one, or refused it; `reason` names what differs and both
                      ///< values (a joiner gets join_failed instead)
  message,            ///< a game message from peer (Peer::send_message): `bytes`, `frame` its
                      ///< tag (kNoFrame: none), `reliable` how it travelled
  kicked,             ///< the session's authority revoked this peer's invitation (Peer::kick):
                      ///< `reason` is its reason; the peer has left the match, and its
                      ///< invitation admits it nowhere in the session any more
};

/// Something the game may want to know about (Peer::poll_event); which fields mean something
/// depends on `kind`.
struct Event {
  EventKind kind = EventKind::joined_match;  ///< what happened
  PeerId peer = kNoPeer;  ///< the peer concerned (joined, left, new owner, the checksum's sender), or kNoPeer
  ObjectId object = 0;  ///< the object concerned (ownership, override, snap), or 0
  Frame frame = kNoFrame;  ///< the frame concerned (override, snap, desync), or kNoFrame
  int depth = 0;  ///< override_applied: how many frames back the correction reached
  std::vector<ObjectId> objects;  ///< desync only
  /// desync from a peer's checksum: what this peer knows of each of `objects` at `frame`
  /// (its state, owner and ownership history, frozen, its owner's last word), to log.
  std::vector<ObjectDiagnosis> diagnoses;
  JoinStep step = JoinStep::idle;           ///< join_failed only
  JoinFailure failure = JoinFailure::none;  ///< join_failed only
  /// join_failed (incompatible) and incompatible_peer: what differs, with both values, e.g.
  /// "wire versions differ: the host speaks wire version 8, the joiner 9"; join_failed
  /// (refused): why the host, or a member's security layer, turned this peer down, e.g. "the
  /// session's authority revoked this invitation: cheating"; kicked: the authority's reason.
  std::string reason;
  std::vector<std::uint8_t> bytes;  ///< message only: what the sender sent
  bool reliable = false;            ///< message only: sent with Delivery::reliable
};

}  // namespace shoal
