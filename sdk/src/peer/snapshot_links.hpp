// SPDX-License-Identifier: MIT
// Per remote peer, both directions of the snapshot stream: what went out and which baselines
// the receiver acknowledged, what arrived (acked on receipt), the priority accumulators and
// the byte budget. The sender writes the outgoing half, the receiving path the incoming one;
// the links themselves come and go with the members.
#pragma once

#include <algorithm>
#include <memory>
#include <vector>

#include "sync/priority.hpp"
#include "sync/snapshot_baselines.hpp"

namespace shoal {

struct SnapshotLink {
  SnapshotLink(PeerId id, std::size_t bodies, std::size_t user_bytes_stride)
      : peer(id), sent(bodies, user_bytes_stride), received(bodies, user_bytes_stride), priority(bodies) {}
  PeerId peer;
  sync::SentSnapshots sent;
  sync::ReceivedSnapshots received;
  sync::PriorityAccumulator priority;
  sync::ByteBudget budget;
};

class SnapshotLinks {
 public:
  SnapshotLinks(std::size_t bodies, std::size_t user_bytes_stride) : bodies_(bodies), stride_(user_bytes_stride) {}

  SnapshotLink* find(PeerId peer) const {
    for (const auto& link : links_) {
      if (link->peer == peer) return link.get();
    }
    return nullptr;
  }
  /// The link to `peer`, made on first use.
  SnapshotLink& get(PeerId peer) {
    if (SnapshotLink* link = find(peer)) return *link;
    links_.push_back(std::make_unique<SnapshotLink>(peer, bodies_, stride_));
    return *links_.back();
  }
  /// A request for body's baseline reset is moot on every link but its owner's.
  void forget_resets_but(PeerId owner, BodyIndex body) {
    for (const auto& link : links_) {
      if (link->peer != owner) link->received.forget_reset(body);
    }
  }
  void drop(PeerId peer) {
    std::erase_if(links_, [&](const auto& l) { return l->peer == peer; });
  }

 private:
  std::size_t bodies_, stride_;
  std::vector<std::unique_ptr<SnapshotLink>> links_;
};

}  // namespace shoal
