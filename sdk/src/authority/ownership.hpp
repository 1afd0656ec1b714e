// SPDX-License-Identifier: MIT
// Who owns each object, how concurrent changes are resolved, and this peer's claims and
// releases. Every object has exactly one owner on every peer at every frame.
//
// Conflict rule: every change carries a key (sequence, kind, author). A change replaces the
// current one when its key is greater: higher sequence first; at equal sequence a claim beats a
// hand-off (a release to the default owner), then the lower author PeerId wins. The current
// record is thus the greatest change seen, whatever order changes arrive in, so peers that saw
// the same changes agree. (Claim-over-hand-off keeps that true with the hand-off rule below: a
// release racing a claim would otherwise win on some peers and be refused on others.)
//
// Receivers refuse only what every peer refuses alike (a change one peer applies and another
// refuses splits them for good: each then waits for the other's snapshots), so the record is
// the greatest change seen whatever the order changes arrive in. Refused: a change whose
// author is not a live peer. Counted but applied, because each peer judged them from its own
// view: a claim of a body outside the claimant's simulated region as seen here (each peer
// places the claimant's regions by its own, slightly stale copy of the claimant's player; an
// edge case passed on some peers and failed on others), and a hand-off by a peer that is not
// the owner here (two claims of equal sequence race, the lower author wins, and the losing
// claimant's hand-off, if it arrives before the winner's claim, came from the owner on some
// peers and not on others). Both split 6-peer matches under load; a dishonest peer is the
// audit's business.
// The rate limit is enforced where changes are made (decide()): a receiver cannot tell which
// change a remote decision was based on, so refusing there would split peers.
// A peer that crashes can leave its last changes on some peers and not others: those peers
// then disagree for good, since changes by a departed author are refused. So after a departure
// every peer re-issues, under its own name, each record still authored by the departed peer
// (reissue_departed()): the re-issued changes rank above the lost ones, and the greatest of them
// becomes every peer's record.
// Known limit: all peers agree only when a change's one-way delay stays under half the rate
// limit's interval (250 ms by default).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "authority/regions.hpp"
#include "shoal/authority_config.hpp"
#include "shoal/simulation.hpp"
#include "shoal/types.hpp"
#include "wire/control_messages.hpp"

namespace shoal::authority {

/// One ownership change: the control message's. The table reads and writes only its `body`,
/// never its `object`, which the peer maps to and from the body.
using OwnershipChange = wire::OwnershipChange;

/// An object's ownership on this peer.
struct OwnerRecord {
  PeerId owner = kNoPeer;      ///< always a live peer
  std::uint32_t sequence = 0;  ///< of the last change; 0 = never changed
  PeerId author = kNoPeer;     ///< of the last change; kNoPeer = never changed
  Frame frame = kNoFrame;      ///< of the last change; the rate limit counts from it
  bool claimed = false;        ///< the last change was its author claiming for itself

  bool operator==(const OwnerRecord&) const = default;
};

enum class ApplyResult : std::uint8_t {
  applied,
  duplicate,            ///< the current change again
  stale,                ///< loses to the current change
  rejected_invalid,     ///< unknown body or no new owner
  rejected_not_live,    ///< author is not a live peer
  rejected_not_allowed  ///< a record (adopt) that its sender sent about someone else
};

struct OwnershipCounters {
  std::uint64_t claims_sent = 0;
  std::uint64_t releases_sent = 0;
  std::uint64_t changes_applied = 0;  ///< remote changes, and this peer's own decisions
  std::uint64_t duplicates_ignored = 0;
  std::uint64_t stale_ignored = 0;
  std::uint64_t rate_limited = 0;  ///< frames x objects where a wanted change had to wait
  std::uint64_t rejected_invalid = 0;
  std::uint64_t rejected_not_live = 0;
  std::uint64_t rejected_not_allowed = 0;
  std::uint64_t implausible_claims = 0;  ///< applied, though the body was outside the claimant's
                                         ///< simulated region as seen here
  std::uint64_t foreign_hand_offs = 0;   ///< applied, though their author did not own the body here
  std::uint64_t handed_to_default = 0;  ///< objects whose owner left, given to the default owner
  std::uint64_t reissued = 0;  ///< records of a departed author re-issued by this peer
};

class OwnershipTable {
 public:
  /// All `body_count` objects start owned by the default owner. `live_peers` must hold
  /// `local_peer`. Throws std::invalid_argument for a bad config, frame rate or peer list.
  OwnershipTable(const AuthorityConfig& config, float frame_rate_hz, PeerId local_peer,
                 std::span<const PeerId> live_peers, std::size_t body_count);

  /// Membership, as the session reports it. A joining peer owns nothing yet.
  void peer_joined(PeerId peer);
  /// Every object the peer owned passes to the default owner, computed over the remaining
  /// peers. The (sequence, author) of each record is kept, so a claim racing the departure
  /// resolves the same whether it arrives before or after it. Throws for the local peer.
  void peer_left(PeerId peer);
  /// After peer_left(): re-issues under this peer's name, at frame `now`, every record whose
  /// author has left, keeping its owner, and fills `out` (cleared first) with the changes to
  /// send on the reliable channel (already applied here). Peers that missed a departed peer's
  /// last changes take these instead, so every peer ends on one record per object.
  void reissue_departed(Frame now, std::vector<OwnershipChange>& out);

  /// Applies a change received from another peer. `regions` = every peer's regions as seen
  /// here (a claim from outside its claimant's simulated region is counted, not refused).
  ApplyResult apply(const OwnershipChange& change, std::span<const PeerRegions> regions);

  /// Loads a record that a peer sends a newcomer about an object it owns now (`sender` must be
  /// its new_owner). Ranked like apply(), but without the reach check of a claim: that was made
  /// when the claim was, and a newcomer does not know the claimant's regions yet.
  ApplyResult adopt(const OwnershipChange& change, PeerId sender);

  /// This peer's decisions for frame `now`: fills `out` (cleared first) with the changes to
  /// send on the reliable channel, already applied locally. `regions` must hold the local
  /// peer's; `at_rest` has one flag per body. A resting object is handed to the default owner
  /// only once `may_hand_over(body)` (when given) says so: the peer checks that every other
  /// peer acknowledged its resting state, since the heir may never have simulated its last
  /// moves. Only bodies this peer owns or its core holds can change here: `candidates`, when
  /// given, lists at least those (each once), and only they are visited. Throws
  /// std::invalid_argument on size mismatch.
  void decide(Frame now, std::span<const PeerRegions> regions,
              std::span<const std::uint8_t> at_rest, std::vector<OwnershipChange>& out,
              const std::function<bool(BodyIndex)>& may_hand_over = {},
              std::optional<std::span<const BodyIndex>> candidates = std::nullopt);

  /// A spawn slot's owner, set outside the change protocol: its spawner when an object is
  /// spawned there, the default owner when it is removed (every peer does the same at the same
  /// change, so no sequence is needed). Throws std::out_of_range for a body out of range.
  void assign(BodyIndex body, PeerId owner, Frame frame) { records_.at(body) = OwnerRecord{owner, 0, kNoPeer, frame, false}; }

  PeerId owner(BodyIndex body) const { return records_.at(body).owner; }
  const OwnerRecord& record(BodyIndex body) const { return records_.at(body); }
  std::size_t body_count() const { return records_.size(); }
  PeerId local_peer() const { return local_peer_; }
  /// The configured default owner if live, else the lowest live peer.
  PeerId default_owner() const;
  bool is_live(PeerId peer) const;
  std::span<const PeerId> live_peers() const { return live_peers_; }
  const OwnershipCounters& counters() const { return counters_; }
  /// Frames that must pass between two changes of one object.
  Frame min_frames_between_changes() const { return min_frames_between_changes_; }

 private:
  void commit(const OwnershipChange& change);
  bool rate_limited(const OwnerRecord& record, Frame now) const;

  AuthorityConfig config_;
  PeerId local_peer_;
  Frame min_frames_between_changes_;
  std::vector<PeerId> live_peers_;  // sorted
  std::vector<OwnerRecord> records_;
  OwnershipCounters counters_;
};

/// The regions of `peer` in `regions`, or nullptr.
const PeerRegions* find_regions(std::span<const PeerRegions> regions, PeerId peer);

}  // namespace shoal::authority
