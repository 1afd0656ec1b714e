// SPDX-License-Identifier: MIT
// How a surviving peer measures reowned_ms: told by the launcher that it killed peer P (a
// "killed P" line on stdin, sent right after the SIGKILL), it notes the objects P owns in its
// view, then says when every one of them has a live owner again ("reowned peer=P at_us=T",
// T on the steady clock, which every process of this machine shares with the launcher).
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <vector>

#include "shoal/peer.hpp"

namespace lan_match {

class ReownWatch {
 public:
  /// The launcher killed `dead`: from now on, watch the objects it owns here.
  void killed(const shoal::Peer& peer, const std::vector<shoal::ObjectId>& bodies, shoal::PeerId dead) {
    Watched w{dead, {}};
    for (shoal::ObjectId id : bodies) {
      if (peer.owner(id) == dead) w.objects.push_back(id);
    }
    watched_.push_back(std::move(w));
  }

  /// Calls report(dead, now_us) once for each watched peer whose objects all have a live
  /// owner; cheap when nothing is watched.
  template <class Report>
  void check(const shoal::Peer& peer, Report&& report) {
    if (watched_.empty()) return;
    const std::vector<shoal::PeerId> live = peer.peers();
    auto is_live = [&](shoal::PeerId p) {
      return p != shoal::kNoPeer && std::find(live.begin(), live.end(), p) != live.end();
    };
    for (auto w = watched_.begin(); w != watched_.end();) {
      const bool all = std::all_of(w->objects.begin(), w->objects.end(), [&](shoal::ObjectId id) {
        const shoal::PeerId owner = peer.owner(id);
        return owner != w->dead && is_live(owner);
      });
      if (!all) {
        ++w;
        continue;
      }
      report(w->dead, std::chrono::duration_cast<std::chrono::microseconds>(
                          std::chrono::steady_clock::now().time_since_epoch()).count());
      w = watched_.erase(w);
    }
  }

 private:
  struct Watched {
    shoal::PeerId dead;
    std::vector<shoal::ObjectId> objects;
  };
  std::vector<Watched> watched_;
};

}  // namespace lan_match
