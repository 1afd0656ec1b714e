// SPDX-License-Identifier: MIT
// Core and simulated regions of a peer: the core is what it owns and must send, the simulated
// region what it must step to judge its core.
// Pure geometry on the last simulated frame: no sockets, no clocks, deterministic.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "shoal/authority_config.hpp"
#include "shoal/math.hpp"
#include "shoal/simulation.hpp"
#include "shoal/state.hpp"

namespace shoal::authority {

/// Every body at the last simulated frame; index in each span = BodyIndex.
struct BodyMotions {
  std::span<const ObjectState> states;  ///< the history's newest row, read in place
  std::span<const float> radii;         ///< bounding-sphere radius (m)
};

/// One peer's regions as this peer sees them: one flag per BodyIndex, 1 = member.
/// Keep one per peer across frames: compute() reads the previous flags for hysteresis.
struct PeerRegions {
  PeerId peer = kNoPeer;
  std::vector<std::uint8_t> core;
  std::vector<std::uint8_t> simulated;
  /// The members of core as a list (each once), as compute() found them: a core holds a few
  /// bodies of a large world, which a pass over the flags would visit all of.
  std::vector<BodyIndex> core_bodies;
  /// The bodies touching a controlled body or predicted to within kImminentContactS (and
  /// within T_predict): what it is about to do to them depends on its player's input, which
  /// other peers can only guess. A body may be listed more than once.
  std::vector<BodyIndex> contact_bodies;
};

/// The horizon of PeerRegions::contact_bodies (s), and the margin (m) added to the sum of the
/// two bodies' radii: a few frames, so that the contact is known before it happens. Before it,
/// a body's motion is the physics' own (a wrong guess of the player's input shows first in
/// the player's own object, which goes every frame).
inline constexpr float kImminentContactS = 0.1f;
inline constexpr float kImminentContactMargin = 0.05f;

/// True when `flags` (a region's membership) holds `body`; bodies past its end are not members.
inline bool is_member(const std::vector<std::uint8_t>& flags, BodyIndex body) {
  return body < flags.size() && flags[body] != 0;
}

/// Computes regions for any peer from the bodies it controls: the local peer's, and remote
/// peers' as seen in the local world (the sync layer sends a peer what its simulated region
/// holds). No allocation once the containers have reached the world's size.
class RegionBuilder {
 public:
  /// Throws std::invalid_argument for a bad config.
  explicit RegionBuilder(const AuthorityConfig& config);

  /// Takes (copies what the queries need of) the world of the last simulated frame. Call once
  /// per frame before compute(). Throws std::invalid_argument when the spans differ in size.
  void rebuild(const BodyMotions& world);
  /// The same, reading only the bodies in `touched` (duplicates are fine): every body whose
  /// state changed since the last rebuild must be listed, and the world must have kept its size.
  void rebuild_touched(const BodyMotions& world, std::span<const BodyIndex> touched);

  /// Recomputes `regions` in place for a peer controlling `controlled` (zero or more bodies);
  /// its current flags are the previous membership. Throws std::out_of_range for a controlled
  /// body outside the world.
  void compute(std::span<const BodyIndex> controlled, PeerRegions& regions);

  /// max(r_min, |v| * T) for a controlled body of the current world.
  float core_radius(BodyIndex controlled) const;

  std::size_t body_count() const { return radii_.size(); }
  /// One flag per body of the current world: 1 = at rest (ObjectState::at_rest).
  std::span<const std::uint8_t> at_rest() const { return at_rest_; }
  const AuthorityConfig& config() const { return config_; }

 private:
  /// The exact core test for a body that passed the query's bounding test: its bounding
  /// sphere overlaps the sphere (center, core_radius), or lies within `hysteresis` of it when
  /// it was a core member before. (The simulated region's rule, the same with
  /// simulated_radius and the previous simulated membership, is exact in the bounding pass.)
  void test_core(BodyIndex body, Vec3 center, float core_radius, PeerRegions& regions) const;
  static void join_core(BodyIndex body, PeerRegions& regions);
  /// Contact rule: the body is predicted to touch `controlled` within T_predict.
  void test_predicted_contact(BodyIndex body, BodyIndex controlled, PeerRegions& regions) const;

  Vec3 position(BodyIndex body) const { return {xs_[body], ys_[body], zs_[body]}; }

  // One body's entries of the arrays below, from its state.
  void read_body(const ObjectState& state, std::size_t i);

  AuthorityConfig config_;
  // Structure of arrays, so that the bounding tests of a query (one per body, most failing)
  // run as one vectorised pass before the exact tests visit the few bodies that pass.
  std::vector<float> xs_, ys_, zs_;
  std::vector<Vec3> velocities_;
  std::vector<float> radii_;
  std::vector<std::uint8_t> at_rest_;
  // Each body's swept sphere over [0, T_predict]: a necessary condition for two bodies to
  // touch within the horizon is that their swept spheres overlap, which prunes pairs cheaply.
  // Queries scan the bodies linearly: a few scans per controlled body cost less than
  // rebuilding a spatial index every frame (regions are wide, tens of metres, and a match has
  // a handful of controlled bodies). shoal-bench-sync part 4 measures it: a hashed grid or a
  // tree of bounding volumes costs 4 to 10 times as much, rebuilds included.
  std::vector<float> swept_xs_, swept_ys_, swept_zs_, swept_radii_;
  // Scratch: per body, which bounding tests of the current query it passed (kCoreQuery,
  // kContactQuery bits).
  std::vector<std::uint8_t> passed_;
  // Scratch: the membership before this compute(), swapped with the caller's flags.
  std::vector<std::uint8_t> previous_core_;
  std::vector<std::uint8_t> previous_simulated_;
};

}  // namespace shoal::authority
