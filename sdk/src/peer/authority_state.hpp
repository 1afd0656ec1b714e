// SPDX-License-Identifier: MIT
// The peer's part that decides who owns what: every peer's core and simulated regions as seen
// here, the ownership table (from the start of the match), and which bodies this peer owns.
// The tick updates them once per frame (peer_authority.cpp); ownership messages change the
// table between frames, and spawns and removals set a spawn slot's owner (peer_spawning.cpp).
//
// Owns: the ownership table, and the changes heard before it exists; per body, the owner last
// reported to the game, whether this peer owns it (also as an ascending list, for the
// per-frame passes that walk only those), each body's bounding radius; and per peer, its
// regions. Nothing else writes them.
#pragma once

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <vector>

#include "authority/ownership.hpp"
#include "authority/regions.hpp"
#include "peer/touched_bodies.hpp"
#include "shoal/peer_config.hpp"
#include "wire/control_messages.hpp"

namespace shoal {

struct AuthorityState {
  AuthorityState(const AuthorityConfig& config, std::size_t bodies)
      : regions(config), known_owner(bodies, kNoPeer), owned_by_me(bodies, 0), radii(bodies) {
    owned_bodies.reserve(bodies);
    decide_candidates.reserve(bodies);
  }

  /// Its invariants (the test build checks them every frame); throws std::logic_error.
  void validate(PeerId self) const {
    for (std::size_t i = 1; i < peer_regions.size(); ++i) {
      if (peer_regions[i - 1].peer >= peer_regions[i].peer) throw std::logic_error("AuthorityState: regions not by ascending peer");
    }
    for (const authority::PeerRegions& r : peer_regions) {
      if (r.core.size() != owned_by_me.size() || r.simulated.size() != owned_by_me.size()) {
        throw std::logic_error("AuthorityState: a peer's regions not sized to the world");
      }
    }
    std::size_t owned = 0;
    for (BodyIndex b = 0; b < owned_by_me.size(); ++b) {
      if (owned_by_me[b] == 0) continue;
      if (owned == owned_bodies.size() || owned_bodies[owned] != b) {
        throw std::logic_error("AuthorityState: the owned list and flags disagree");
      }
      if (ownership && ownership->owner(b) != self) throw std::logic_error("AuthorityState: owned here, not in the table");
      ++owned;
    }
    if (owned != owned_bodies.size()) throw std::logic_error("AuthorityState: the owned list and flags disagree");
  }

  authority::PeerRegions& regions_of(PeerId peer) {
    auto it = std::lower_bound(peer_regions.begin(), peer_regions.end(), peer,
                               [](const authority::PeerRegions& r, PeerId id) { return r.peer < id; });
    if (it == peer_regions.end() || it->peer != peer) {
      const std::size_t bodies = owned_by_me.size();
      it = peer_regions.insert(it, authority::PeerRegions{peer, std::vector<std::uint8_t>(bodies, 0),
                                                          std::vector<std::uint8_t>(bodies, 0), {}, {}});
    }
    return *it;
  }
  PeerId owner_of(BodyIndex body) const { return ownership ? ownership->owner(body) : kNoPeer; }
  /// Until a peer says what it controls, nothing bounds where it may act: its simulated region
  /// is everything (and it is sent everything it needs), its core nothing.
  void reset_regions(PeerId peer) {
    authority::PeerRegions& r = regions_of(peer);
    std::fill(r.core.begin(), r.core.end(), std::uint8_t{0});
    r.core_bodies.clear();
    r.contact_bodies.clear();
    std::fill(r.simulated.begin(), r.simulated.end(), std::uint8_t{1});
  }

  authority::RegionBuilder regions;
  std::vector<authority::PeerRegions> peer_regions;   // self and every remote, ascending id
  std::optional<authority::OwnershipTable> ownership;  // from the start of the match
  struct EarlyChange {
    wire::OwnershipChange change;
    bool record;
  };
  std::vector<EarlyChange> early_ownership;  // received while syncing, applied at the start
  std::vector<PeerId> known_owner;           // per body, to report table-wide changes
  std::vector<std::uint8_t> owned_by_me;     // per body: replayed, never re-simulated
  std::vector<BodyIndex> owned_bodies;       // the same, as a list: the per-frame sends walk it
  std::vector<float> radii;                  // per body: the engine's bounding radius
  TouchedBodies region_touched;              // what changed since the regions were last built

  // Per-frame scratch, sized once.
  std::vector<BodyIndex> controlled_scratch;
  std::vector<authority::OwnershipChange> decided;
  std::vector<BodyIndex> decide_candidates;  // owned or in this peer's core
  wire::Ownership ownership_out, ownership_in;
};

}  // namespace shoal
