// SPDX-License-Identifier: MIT
#include "authority/ownership.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace shoal::authority {
namespace {

Frame frames_between_changes(const AuthorityConfig& config, float frame_rate_hz) {
  validate(config);
  if (!std::isfinite(frame_rate_hz) || !(frame_rate_hz > 0)) {
    throw std::invalid_argument("OwnershipTable: frame_rate_hz = " +
                                std::to_string(frame_rate_hz) + ": expected a finite rate > 0");
  }
  const double frames =
      std::ceil(static_cast<double>(frame_rate_hz) / config.max_owner_changes_per_second);
  return static_cast<Frame>(std::clamp(frames, 1.0, 1e9));
}

// The conflict rule's total order (see ownership.hpp): true when change key a ranks above b.
bool ranks_above(std::uint32_t sequence_a, bool claim_a, PeerId author_a,
                 std::uint32_t sequence_b, bool claim_b, PeerId author_b) {
  if (sequence_a != sequence_b) return sequence_a > sequence_b;
  if (claim_a != claim_b) return claim_a;
  return author_a < author_b;
}

}  // namespace

const PeerRegions* find_regions(std::span<const PeerRegions> regions, PeerId peer) {
  for (const PeerRegions& entry : regions) {
    if (entry.peer == peer) return &entry;
  }
  return nullptr;
}

OwnershipTable::OwnershipTable(const AuthorityConfig& config, float frame_rate_hz,
                               PeerId local_peer, std::span<const PeerId> live_peers,
                               std::size_t body_count)
    : config_(config),
      local_peer_(local_peer),
      min_frames_between_changes_(frames_between_changes(config, frame_rate_hz)),
      live_peers_(live_peers.begin(), live_peers.end()) {
  if (local_peer == kNoPeer) {
    throw std::invalid_argument("OwnershipTable: local_peer must be a peer id, not kNoPeer");
  }
  if (std::find(live_peers_.begin(), live_peers_.end(), kNoPeer) != live_peers_.end()) {
    throw std::invalid_argument("OwnershipTable: live_peers must not contain kNoPeer");
  }
  std::sort(live_peers_.begin(), live_peers_.end());
  live_peers_.erase(std::unique(live_peers_.begin(), live_peers_.end()), live_peers_.end());
  if (!is_live(local_peer)) {
    throw std::invalid_argument("OwnershipTable: live_peers must contain the local peer " +
                                std::to_string(local_peer));
  }
  records_.assign(body_count, OwnerRecord{default_owner(), 0, kNoPeer, kNoFrame, false});
}

bool OwnershipTable::is_live(PeerId peer) const {
  return std::binary_search(live_peers_.begin(), live_peers_.end(), peer);
}

PeerId OwnershipTable::default_owner() const {
  if (config_.default_owner != kNoPeer && is_live(config_.default_owner)) {
    return config_.default_owner;
  }
  return live_peers_.front();  // never empty: the local peer is always live
}

void OwnershipTable::peer_joined(PeerId peer) {
  if (peer == kNoPeer || is_live(peer)) return;
  live_peers_.insert(std::upper_bound(live_peers_.begin(), live_peers_.end(), peer), peer);
}

void OwnershipTable::peer_left(PeerId peer) {
  if (peer == local_peer_) {
    throw std::invalid_argument("OwnershipTable::peer_left: the local peer cannot leave its own "
                                "table; destroy the table instead");
  }
  const auto it = std::lower_bound(live_peers_.begin(), live_peers_.end(), peer);
  if (it == live_peers_.end() || *it != peer) return;
  live_peers_.erase(it);
  const PeerId heir = default_owner();
  for (OwnerRecord& record : records_) {
    if (record.owner == peer) {
      record.owner = heir;
      ++counters_.handed_to_default;
    }
  }
}

void OwnershipTable::reissue_departed(Frame now, std::vector<OwnershipChange>& out) {
  out.clear();
  for (BodyIndex body = 0; body < records_.size(); ++body) {
    const OwnerRecord& record = records_[body];
    if (record.author == kNoPeer || is_live(record.author)) continue;
    out.push_back({.object = 0, .new_owner = record.owner, .sequence = record.sequence + 1, .author = local_peer_,
                   .frame = now, .body = body});
    commit(out.back());
    ++counters_.reissued;
  }
}

ApplyResult OwnershipTable::apply(const OwnershipChange& change,
                                  std::span<const PeerRegions> regions) {
  if (change.body >= records_.size() || change.new_owner == kNoPeer) {
    ++counters_.rejected_invalid;
    return ApplyResult::rejected_invalid;
  }
  if (!is_live(change.author)) {
    ++counters_.rejected_not_live;
    return ApplyResult::rejected_not_live;
  }
  const OwnerRecord& current = records_[change.body];
  const bool claim = change.new_owner == change.author;
  if (change.sequence == current.sequence && claim == current.claimed &&
      change.author == current.author) {
    ++counters_.duplicates_ignored;
    return ApplyResult::duplicate;
  }
  if (!ranks_above(change.sequence, claim, change.author, current.sequence, current.claimed,
                   current.author)) {
    ++counters_.stale_ignored;
    return ApplyResult::stale;
  }
  if (claim) {
    const PeerRegions* claimant = find_regions(regions, change.author);
    if (claimant == nullptr || !is_member(claimant->simulated, change.body)) ++counters_.implausible_claims;
  } else if (change.author != current.owner) {
    ++counters_.foreign_hand_offs;
  }
  commit(change);
  return ApplyResult::applied;
}

ApplyResult OwnershipTable::adopt(const OwnershipChange& change, PeerId sender) {
  if (change.body >= records_.size() || change.new_owner == kNoPeer) {
    ++counters_.rejected_invalid;
    return ApplyResult::rejected_invalid;
  }
  if (change.new_owner != sender) {
    ++counters_.rejected_not_allowed;
    return ApplyResult::rejected_not_allowed;
  }
  if (!is_live(sender)) {
    ++counters_.rejected_not_live;
    return ApplyResult::rejected_not_live;
  }
  const OwnerRecord& current = records_[change.body];
  const bool claim = change.new_owner == change.author;
  if (!ranks_above(change.sequence, claim, change.author, current.sequence, current.claimed,
                   current.author)) {
    ++counters_.stale_ignored;
    return ApplyResult::stale;
  }
  commit(change);
  return ApplyResult::applied;
}

void OwnershipTable::commit(const OwnershipChange& change) {
  OwnerRecord& record = records_[change.body];
  record.sequence = change.sequence;
  record.author = change.author;
  record.frame = change.frame;
  record.claimed = change.new_owner == change.author;
  // A hand-off to a peer that has left since lands where the departure would have put it.
  record.owner = is_live(change.new_owner) ? change.new_owner : default_owner();
  ++counters_.changes_applied;
}

bool OwnershipTable::rate_limited(const OwnerRecord& record, Frame now) const {
  return record.frame != kNoFrame && now - record.frame < min_frames_between_changes_;
}

void OwnershipTable::decide(Frame now, std::span<const PeerRegions> regions,
                            std::span<const std::uint8_t> at_rest,
                            std::vector<OwnershipChange>& out,
                            const std::function<bool(BodyIndex)>& may_hand_over,
                            std::optional<std::span<const BodyIndex>> candidates) {
  out.clear();
  const PeerRegions* mine = find_regions(regions, local_peer_);
  if (mine == nullptr || mine->core.size() != records_.size() ||
      at_rest.size() != records_.size()) {
    throw std::invalid_argument(
        "OwnershipTable::decide: expected the local peer's regions and at_rest flags for " +
        std::to_string(records_.size()) + " bodies");
  }
  const PeerId heir = default_owner();
  auto consider = [&](BodyIndex body) {
    const OwnerRecord& record = records_[body];
    const bool in_my_core = mine->core[body] != 0;
    PeerId new_owner = kNoPeer;
    if (record.owner == local_peer_) {
      // Keep while my core holds it. Outside every core, a moving object stays with me until it
      // rests: I simulated the motion so far, and handing it over mid-flight would make the new
      // owner's slightly different trajectory overwrite mine on every peer (a visible pop).
      // If another core holds it, that peer claims it.
      if (in_my_core || at_rest[body] == 0 || heir == local_peer_) return;
      if (may_hand_over && !may_hand_over(body)) return;
      new_owner = heir;
    } else {
      // Claim only what my core holds and the owner's core (as I see it) does not: taking an
      // object its owner is using would start a contest and a pop for nothing. An object held
      // by the default owner only because nobody's core holds it is claimed under this rule.
      if (!in_my_core) return;
      const PeerRegions* owners = find_regions(regions, record.owner);
      if (owners != nullptr && is_member(owners->core, body)) return;
      new_owner = local_peer_;
    }
    if (rate_limited(record, now)) {
      ++counters_.rate_limited;
      return;
    }
    const OwnershipChange change{.object = 0, .new_owner = new_owner, .sequence = record.sequence + 1,
                                 .author = local_peer_, .frame = now, .body = body};
    commit(change);
    out.push_back(change);
    ++(new_owner == local_peer_ ? counters_.claims_sent : counters_.releases_sent);
  };
  if (candidates) {
    for (BodyIndex body : *candidates) {
      if (body < records_.size()) consider(body);
    }
  } else {
    for (BodyIndex body = 0; body < records_.size(); ++body) consider(body);
  }
}

}  // namespace shoal::authority
