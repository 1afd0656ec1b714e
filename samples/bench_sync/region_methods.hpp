// SPDX-License-Identifier: MIT
// The ways part 4 of shoal-bench-sync answers the region queries of every controlled body
// (spatial_cost.cpp): linear scans over structure-of-arrays copies, as the authority layer
// does today, and spatial indexes rebuilt every frame (the hashed grid of the physics' broad
// phase, a bounding-volume tree).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "shoal/authority_config.hpp"
#include "shoal/simulation.hpp"
#include "shoal/state.hpp"

namespace shoal::bench {

/// What the regions of one controlled body ask of the world (authority/regions.cpp's bounding
/// tests, before its exact ones).
struct RegionQuery {
  BodyIndex body = 0;
  Vec3 center;                 ///< the body's position
  float core_reach = 0;        ///< max(r_min, |v| T) + hysteresis
  float simulated_reach = 0;   ///< the core radius + simulated_radius + hysteresis
  Vec3 swept_center;           ///< of its swept sphere over T_predict
  float swept_reach = 0;       ///< its swept sphere's radius + hysteresis
};

RegionQuery region_query(BodyIndex body, const ObjectState& state, float radius, const AuthorityConfig& config);

/// The sphere a body sweeps over [0, horizon], moving as it moves now: centered on its middle
/// position. Every method computes it here, so all of them compare the same floats.
struct SweptSphere {
  Vec3 center;
  float radius = 0;
};
SweptSphere swept_sphere(const ObjectState& state, float radius, float horizon);

/// One query's answers, for one controlled body.
struct RegionAnswers {
  /// Bodies whose bounding sphere overlaps the sphere (center, core_reach).
  std::vector<BodyIndex> core;
  /// Per body, 1 when its bounding sphere overlaps the sphere (center, simulated_reach).
  std::vector<std::uint8_t> simulated;
  /// Bodies other than the controlled one whose swept sphere overlaps (swept_center, swept_reach).
  std::vector<BodyIndex> contact;
};

/// One frame's world, as every method gets it.
struct RegionFrame {
  std::span<const ObjectState> states;
  std::span<const float> radii;
  std::span<const BodyIndex> touched;  ///< bodies whose state changed since the last frame
  std::span<const RegionQuery> queries;
  float horizon = 0;  ///< T_predict: the swept spheres' time span
};

/// Nanoseconds per phase of one frame. A method answering the three queries in one pass puts
/// that pass's time in `together`.
struct PhaseTimes {
  std::int64_t rebuild = 0, core = 0, simulated = 0, contact = 0, together = 0;
  std::int64_t total() const { return rebuild + core + simulated + contact + together; }
};

class RegionMethod {
 public:
  virtual ~RegionMethod() = default;
  virtual std::string name() const = 0;
  /// True when the method's answers are the queries' exact sets (compared across methods).
  virtual bool answers_queries() const { return true; }
  /// Takes the frame's world (its rebuild) and answers every query into `answers`, one per
  /// query; no allocation once warm.
  virtual PhaseTimes run(const RegionFrame& frame, std::span<RegionAnswers> answers) = 0;
};

/// Three passes per controlled body over structure-of-arrays copies, one per query.
std::unique_ptr<RegionMethod> make_scan();
/// One pass per controlled body answering the three queries, as RegionBuilder's bounding pass.
std::unique_ptr<RegionMethod> make_fused_scan();
/// SpatialGrid over every body's swept sphere (which holds its bounding sphere), queried once
/// per query; the core and simulated candidates are then tested against bounding spheres.
std::unique_ptr<RegionMethod> make_grid(float cell_size);
/// BoundingTree, used as the grid is.
std::unique_ptr<RegionMethod> make_tree();
/// RegionBuilder itself, for reference: rebuild_touched() and compute() per controlled body,
/// exact tests and hysteresis included. Its answers are the regions, not the query sets.
std::unique_ptr<RegionMethod> make_region_builder(const AuthorityConfig& config);

}  // namespace shoal::bench
