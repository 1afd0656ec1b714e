// SPDX-License-Identifier: MIT
// Settings of the authority layer: how large a peer's core and simulated regions are, and how
// often an object may change owner. Names follow the
// method's own terms (core region, simulated region, owner frame).
#pragma once

#include "shoal/types.hpp"

namespace shoal {

/// Regions and ownership: how far a peer's core and simulated regions reach, and how claims are
/// rate-limited.
struct AuthorityConfig {
  /// Smallest core radius around a controlled object (m), so a slow or still player still
  /// owns what it touches.
  float r_min = 2.0f;
  /// Velocity horizon (s): the core radius is max(r_min, |v| * T).
  float T = 0.5f;
  /// Collision prediction horizon (s): objects predicted to touch a controlled object within
  /// this time join its core region.
  float T_predict = 0.5f;
  /// Hysteresis (m): a member stays in a region until it is this much farther out than the
  /// distance at which it entered, so boundary objects do not flicker in and out.
  float hysteresis = 0.5f;
  /// Extra radius (m) of the simulated region around the core sphere of each controlled object.
  float simulated_radius = 20.0f;
  /// Upper bound on owner changes per object, measured on the shared frame timeline.
  float max_owner_changes_per_second = 2.0f;
  /// Who owns objects that no core region holds; kNoPeer = the lowest live peer id.
  PeerId default_owner = kNoPeer;

  bool operator==(const AuthorityConfig&) const = default;  ///< compares every field
};

/// Throws std::invalid_argument naming the first bad field and what it expects.
void validate(const AuthorityConfig& config);

}  // namespace shoal
