// SPDX-License-Identifier: MIT
// A joiner's way into the match (shoal/join.hpp): the host it asks, the mesh links it opens
// to the members the host named, the older peers whose baselines it waits for, and the clock
// of the whole join. It decides what to retry and when the join is overdue; the peer sends
// the messages and counts the time-sync samples.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "shoal/join.hpp"
#include "shoal/transport.hpp"

namespace shoal::session {

/// A connection this peer opened to a member, not yet connected.
struct PendingLink {
  ConnectionId connection = kNoConnection;
  PeerId peer = kNoPeer;
  Address address;
};

class Joining {
 public:
  /// join(): the host to ask, and how long the whole join may take.
  void begin(const Address& host, std::int64_t timeout_us);
  /// host(): joined from the start.
  void host();
  /// Starts the join's clock at the first update after begin().
  void tick(std::int64_t now_us);

  const Address& host_address() const { return host_; }
  /// The host connection ended before the welcome: whether it ended gracefully (refused).
  void host_attempt_failed(bool refused) { refused_ = refused; }
  bool refused() const { return refused_; }
  /// The host or a member can never play with this peer (another wire version or encoding):
  /// the join fails at the next update with JoinFailure::incompatible and this reason.
  void set_incompatible(std::string reason) {
    if (incompatibility_.empty()) incompatibility_ = std::move(reason);
  }
  const std::string& incompatibility() const { return incompatibility_; }
  /// The host or a member turned this peer down (a dismissal): the join fails at the next
  /// update with JoinFailure::refused and this reason.
  void set_dismissed(std::string reason) {
    if (dismissal_.empty()) dismissal_ = reason.empty() ? "refused without a reason" : std::move(reason);
  }
  const std::string& dismissal() const { return dismissal_; }

  /// The welcome named these members besides the host; the peer connects to each.
  void welcomed(std::size_t other_members);
  std::vector<PendingLink>& mesh() { return mesh_; }
  /// Removes and returns the pending link on `connection`, if it is one.
  std::optional<PendingLink> take_link(ConnectionId connection);
  bool meshed() const { return mesh_.empty(); }

  /// In the match: now waiting for a baseline from each of these (older) peers.
  void await_baselines(std::vector<PeerId> older);
  /// One more older peer to hear from (it came back while this peer still joins).
  void await_baseline(PeerId peer);
  /// A baseline's last part arrived from `peer`, or `peer` left: stop waiting for it.
  void baseline_done(PeerId peer);

  bool baselines_complete() const { return baselines_awaited_.empty(); }

  /// Joined now (every step done), or failed.
  void finish(std::int64_t now_us, bool failed);
  bool finished() const { return finished_us_ >= 0; }
  bool failed() const { return failed_; }
  bool overdue(std::int64_t now_us) const { return !finished() && started_us_ >= 0 && now_us >= deadline_us_; }
  /// The member that holds the current step up, if one does (kNoPeer: the host, or nobody).
  PeerId blocking_peer(JoinStep step) const;

  /// The progress of `step` (the step the peer is in), with its count where it has one.
  JoinProgress progress(JoinStep step, int clock_samples, int clock_samples_needed,
                        std::int64_t now_us) const;

 private:
  Address host_;
  std::int64_t timeout_us_ = 0;
  std::int64_t started_us_ = -1;
  std::int64_t deadline_us_ = 0;
  std::int64_t finished_us_ = -1;
  bool start_pending_ = false;
  bool refused_ = false;
  bool failed_ = false;
  std::string incompatibility_;
  std::string dismissal_;
  std::vector<PendingLink> mesh_;
  int mesh_needed_ = 0;
  std::vector<PeerId> baselines_awaited_;
  int baselines_needed_ = 0;
};

}  // namespace shoal::session
