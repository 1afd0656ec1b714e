// SPDX-License-Identifier: MIT
// Who is in the match and how to reach them: PeerId <-> transport connection.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "shoal/transport.hpp"
#include "shoal/types.hpp"

namespace shoal::session {

/// The key of a member's invitation, as its link's secured transport named it (Peer::kick
/// revokes it); none on links in the clear.
using InvitationKey = std::array<std::uint8_t, 32>;

struct Member {
  PeerId id = kNoPeer;
  ConnectionId connection = kNoConnection;
  Address address;         ///< where the member accepts connections
  std::uint64_t secret = 0;  ///< the member's own, from its introduction; proves a rejoin
};

/// A member whose connection timed out, kept until it rejoins or its grace period ends.
struct AbsentMember {
  Member member;
  std::int64_t deadline_us = 0;
};

class Membership {
 public:
  void set_self(PeerId id) { self_ = id; }
  PeerId self() const { return self_; }

  /// Adds or updates a remote member. Returns false when the id is this peer's own.
  bool add(const Member& member) {
    if (member.id == self_ || member.id == kNoPeer) return false;
    remove(member.id);
    members_.push_back(member);
    std::sort(members_.begin(), members_.end(), [](auto& a, auto& b) { return a.id < b.id; });
    if (member.id >= next_id_) next_id_ = static_cast<PeerId>(member.id + 1);
    return true;
  }
  /// Removes the member on a connection; returns its id, if it was one.
  std::optional<PeerId> remove_connection(ConnectionId connection) {
    for (const Member& m : members_) {
      if (m.connection == connection) {
        const PeerId id = m.id;
        remove(id);
        return id;
      }
    }
    return std::nullopt;
  }
  void remove(PeerId id) {
    std::erase_if(members_, [id](const Member& m) { return m.id == id; });
  }

  void set_secret(PeerId id, std::uint64_t secret) {
    for (Member& m : members_) if (m.id == id) m.secret = secret;
  }
  const Member* find(PeerId id) const {
    for (const Member& m : members_) if (m.id == id) return &m;
    return nullptr;
  }
  PeerId peer_of(ConnectionId connection) const {
    for (const Member& m : members_) if (m.connection == connection) return m.id;
    return kNoPeer;
  }
  const std::vector<Member>& remotes() const { return members_; }

  /// Live peers, self included, ascending. Absent members count as live: their objects stay
  /// theirs until their grace period ends.
  std::vector<PeerId> live() const {
    std::vector<PeerId> ids;
    if (self_ != kNoPeer) ids.push_back(self_);
    for (const Member& m : members_) ids.push_back(m.id);
    for (const AbsentMember& a : absent_) ids.push_back(a.member.id);
    std::sort(ids.begin(), ids.end());
    return ids;
  }
  bool is_live(PeerId id) const {
    return id == self_ || find(id) != nullptr || find_absent(id) != nullptr;
  }

  /// Moves the member on a timed-out connection to the absent list until deadline_us.
  std::optional<PeerId> mark_absent(ConnectionId connection, std::int64_t deadline_us) {
    for (const Member& m : members_) {
      if (m.connection != connection) continue;
      AbsentMember gone{m, deadline_us};
      gone.member.connection = kNoConnection;
      remove(m.id);
      absent_.push_back(gone);
      return gone.member.id;
    }
    return std::nullopt;
  }
  /// Takes a member back from the absent list (it rejoined), if it is there.
  std::optional<Member> take_absent(PeerId id) {
    for (auto it = absent_.begin(); it != absent_.end(); ++it) {
      if (it->member.id != id) continue;
      Member m = it->member;
      absent_.erase(it);
      return m;
    }
    return std::nullopt;
  }
  /// Removes and returns the absent members whose grace period ended before now_us.
  std::vector<PeerId> expire_absent(std::int64_t now_us) {
    std::vector<PeerId> expired;
    std::erase_if(absent_, [&](const AbsentMember& a) {
      if (a.deadline_us > now_us) return false;
      expired.push_back(a.member.id);
      return true;
    });
    return expired;
  }
  const std::vector<AbsentMember>& absent() const { return absent_; }
  const AbsentMember* find_absent(PeerId id) const {
    for (const AbsentMember& a : absent_) if (a.member.id == id) return &a;
    return nullptr;
  }

  /// The host hands out ids in joining order and never reuses one within a match.
  PeerId allocate_id() {
    if (next_id_ <= self_ && self_ != kNoPeer) next_id_ = static_cast<PeerId>(self_ + 1);
    return next_id_++;
  }

 private:
  PeerId self_ = kNoPeer;
  PeerId next_id_ = 1;
  std::vector<Member> members_;
  std::vector<AbsentMember> absent_;
};

}  // namespace shoal::session
