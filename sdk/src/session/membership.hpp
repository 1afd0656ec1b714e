// Who is in the match and how to reach them: PeerId <-> transport connection.
#pragma once

#include <algorithm>
#include <optional>
#include <vector>

#include "shoal/transport.hpp"
#include "shoal/types.hpp"

namespace shoal::session {

struct Member {
  PeerId id = kNoPeer;
  ConnectionId connection = kNoConnection;
  Address address;  ///< where the member accepts connections
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

  const Member* find(PeerId id) const {
    for (const Member& m : members_) if (m.id == id) return &m;
    return nullptr;
  }
  PeerId peer_of(ConnectionId connection) const {
    for (const Member& m : members_) if (m.connection == connection) return m.id;
    return kNoPeer;
  }
  const std::vector<Member>& remotes() const { return members_; }

  /// Live peers, self included, ascending.
  std::vector<PeerId> live() const {
    std::vector<PeerId> ids;
    if (self_ != kNoPeer) ids.push_back(self_);
    for (const Member& m : members_) ids.push_back(m.id);
    std::sort(ids.begin(), ids.end());
    return ids;
  }
  bool is_live(PeerId id) const { return id == self_ || find(id) != nullptr; }

  /// The host hands out ids in joining order and never reuses one within a match.
  PeerId allocate_id() {
    if (next_id_ <= self_ && self_ != kNoPeer) next_id_ = static_cast<PeerId>(self_ + 1);
    return next_id_++;
  }

 private:
  PeerId self_ = kNoPeer;
  PeerId next_id_ = 1;
  std::vector<Member> members_;
};

}  // namespace shoal::session
