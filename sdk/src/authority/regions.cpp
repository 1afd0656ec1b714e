// SPDX-License-Identifier: MIT
#include "authority/regions.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>

#include "core/vector_clones.hpp"

namespace shoal::authority {
namespace {

// Bits of RegionBuilder::passed_: which bounding tests a body passed in the current query.
constexpr std::uint8_t kCoreQuery = 1;
constexpr std::uint8_t kContactQuery = 2;

// One query's tests for every body: the simulated-sphere rule exactly, and the bounding tests
// that gate the exact core and contact tests.
struct BoundingQuery {
  Vec3 center;
  float core_query = 0;  // the core's reach with hysteresis, before each body's radius
  float simulated = 0, hysteresis = 0;
  Vec3 swept_center;
  float swept_query = 0;
};
struct BodyArrays {
  const float *xs, *ys, *zs, *radii, *swept_xs, *swept_ys, *swept_zs, *swept_radii;
};

// The pass every query makes over the whole world, so it is written for the vectoriser: plain
// pointers that it can prove apart (the region flags and the body arrays), no branch. The
// simulated region is decided here for every body (compared squared, as the bounding tests
// are: no square root), since a region tens of metres wide holds most of a world and its
// hysteresis band many bodies; only the few near the core or a predicted contact go on to
// the exact tests.
SHOAL_VECTOR_CLONES void bounding_pass(const BoundingQuery& q, const BodyArrays& bodies, std::size_t count,
                   const std::uint8_t* __restrict was_simulated, std::uint8_t* __restrict simulated,
                   std::uint8_t* __restrict passed) {
  const float* __restrict xs = bodies.xs;
  const float* __restrict ys = bodies.ys;
  const float* __restrict zs = bodies.zs;
  const float* __restrict radii = bodies.radii;
  const float* __restrict swept_xs = bodies.swept_xs;
  const float* __restrict swept_ys = bodies.swept_ys;
  const float* __restrict swept_zs = bodies.swept_zs;
  const float* __restrict swept_radii = bodies.swept_radii;
  for (std::size_t i = 0; i < count; ++i) {
    const float dx = q.center.x - xs[i], dy = q.center.y - ys[i], dz = q.center.z - zs[i];
    const float distance_squared = dx * dx + dy * dy + dz * dz;
    // Within the simulated radius of the sphere, or within hysteresis more of it for a body
    // that was a member.
    const float simulated_reach = q.simulated + static_cast<float>(was_simulated[i]) * q.hysteresis + radii[i];
    const float core_reach = q.core_query + radii[i];
    const float sx = q.swept_center.x - swept_xs[i], sy = q.swept_center.y - swept_ys[i],
                sz = q.swept_center.z - swept_zs[i];
    const float swept_reach = q.swept_query + swept_radii[i];
    const bool in_simulated = distance_squared <= simulated_reach * simulated_reach;
    const bool near_core = distance_squared <= core_reach * core_reach;
    const bool in_swept = sx * sx + sy * sy + sz * sz <= swept_reach * swept_reach;
    simulated[i] = static_cast<std::uint8_t>(simulated[i] | static_cast<std::uint8_t>(in_simulated));
    passed[i] = static_cast<std::uint8_t>(static_cast<std::uint8_t>(near_core) * kCoreQuery |
                                          static_cast<std::uint8_t>(in_swept) * kContactQuery);
  }
}

// simulated |= core: over plain pointers the vectoriser can prove apart (byte vectors may alias
// anything, so a loop over the two vectors goes a byte at a time).
void add_core(const std::uint8_t* __restrict core, std::uint8_t* __restrict simulated, std::size_t count) {
  for (std::size_t i = 0; i < count; ++i) simulated[i] = static_cast<std::uint8_t>(simulated[i] | core[i]);
}

}  // namespace

RegionBuilder::RegionBuilder(const AuthorityConfig& config) : config_(config) { validate(config); }

void RegionBuilder::rebuild(const BodyMotions& world) {
  const std::size_t count = world.states.size();
  if (world.radii.size() != count) {
    throw std::invalid_argument("RegionBuilder::rebuild: states and radii must have one entry "
                                "per body (" + std::to_string(count) + " states, " +
                                std::to_string(world.radii.size()) + " radii)");
  }
  xs_.resize(count);
  ys_.resize(count);
  zs_.resize(count);
  velocities_.resize(count);
  at_rest_.resize(count);
  swept_xs_.resize(count);
  swept_ys_.resize(count);
  swept_zs_.resize(count);
  swept_radii_.resize(count);
  passed_.resize(count);
  radii_.assign(world.radii.begin(), world.radii.end());
  for (std::size_t i = 0; i < count; ++i) read_body(world.states[i], i);
}

void RegionBuilder::rebuild_touched(const BodyMotions& world, std::span<const BodyIndex> touched) {
  if (world.states.size() != radii_.size()) {
    throw std::invalid_argument("RegionBuilder::rebuild_touched: the world has " +
                                std::to_string(world.states.size()) + " bodies, the last rebuild " +
                                std::to_string(radii_.size()));
  }
  for (const BodyIndex i : touched) {
    if (i < radii_.size()) read_body(world.states[i], i);
  }
}

void RegionBuilder::read_body(const ObjectState& state, std::size_t i) {
  const float half_horizon = 0.5f * config_.T_predict;
  const Vec3 p = state.position;
  const Vec3 v = state.linear_velocity;
  xs_[i] = p.x;
  ys_[i] = p.y;
  zs_[i] = p.z;
  velocities_[i] = v;
  at_rest_[i] = state.at_rest ? 1 : 0;
  const Vec3 swept_center = p + v * half_horizon;
  swept_xs_[i] = swept_center.x;
  swept_ys_[i] = swept_center.y;
  swept_zs_[i] = swept_center.z;
  // Most bodies of a large world are still: sqrt(0) is exactly 0, so skip the sqrt for them.
  const float speed_squared = length_squared(v);
  const float speed = speed_squared == 0 ? 0.0f : std::sqrt(speed_squared);
  swept_radii_[i] = radii_[i] + speed * half_horizon;
}

float RegionBuilder::core_radius(BodyIndex controlled) const {
  return std::max(config_.r_min, length(velocities_.at(controlled)) * config_.T);
}

void RegionBuilder::compute(std::span<const BodyIndex> controlled, PeerRegions& regions) {
  const std::size_t count = radii_.size();
  for (const BodyIndex body : controlled) {
    if (body >= count) {
      throw std::out_of_range("RegionBuilder::compute: controlled body " + std::to_string(body) +
                              " is outside the world of " + std::to_string(count) + " bodies");
    }
  }
  // The caller's flags become the previous membership; the swap keeps both buffers warm.
  std::swap(regions.core, previous_core_);
  std::swap(regions.simulated, previous_simulated_);
  previous_simulated_.resize(count, 0);  // a first compute has none (the pass reads one per body)
  regions.core.assign(count, 0);
  regions.simulated.assign(count, 0);
  regions.core_bodies.clear();
  regions.contact_bodies.clear();

  const float hysteresis = config_.hysteresis;
  for (const BodyIndex body : controlled) {
    const float core = core_radius(body);
    // The simulated sphere for every body, and the bounding tests of the core's rules, in one
    // branch-free pass.
    const Vec3 center = position(body);
    BoundingQuery query;
    query.center = center;
    query.core_query = core + hysteresis;
    query.simulated = core + config_.simulated_radius;
    query.hysteresis = hysteresis;
    query.swept_center = {swept_xs_[body], swept_ys_[body], swept_zs_[body]};
    query.swept_query = swept_radii_[body] + hysteresis;
    const BodyArrays arrays{xs_.data(), ys_.data(), zs_.data(), radii_.data(),
                            swept_xs_.data(), swept_ys_.data(), swept_zs_.data(), swept_radii_.data()};
    bounding_pass(query, arrays, count, previous_simulated_.data(), regions.simulated.data(), passed_.data());
    passed_[body] &= static_cast<std::uint8_t>(~kContactQuery);  // no contact with itself
    // The exact tests for the bodies that passed, skipping runs of failures a word at a time.
    std::size_t i = 0;
    while (i < count) {
      std::uint64_t word = 0;
      if (i + sizeof word <= count) {
        std::memcpy(&word, &passed_[i], sizeof word);
        if (word == 0) {
          i += sizeof word;
          continue;
        }
      }
      const auto candidate = static_cast<BodyIndex>(i++);
      const std::uint8_t passed = passed_[candidate];
      if (passed & kCoreQuery) test_core(candidate, center, core, regions);
      if (passed & kContactQuery) test_predicted_contact(candidate, body, regions);
    }
  }
  add_core(regions.core.data(), regions.simulated.data(), count);
}

void RegionBuilder::join_core(BodyIndex body, PeerRegions& regions) {
  if (regions.core[body] != 0) return;
  regions.core[body] = 1;
  regions.core_bodies.push_back(body);
}

void RegionBuilder::test_core(BodyIndex body, Vec3 center, float core_radius, PeerRegions& regions) const {
  // Distance from the sphere's center to the near side of the body's bounding sphere.
  const float gap = distance(position(body), center) - radii_[body];
  const float core_reach = is_member(previous_core_, body) ? core_radius + config_.hysteresis : core_radius;
  if (gap <= core_reach) join_core(body, regions);
}

void RegionBuilder::test_predicted_contact(BodyIndex body, BodyIndex controlled, PeerRegions& regions) const {
  // Linear extrapolation of both bodies; time of closest approach clamped to the horizon.
  const Vec3 offset = position(body) - position(controlled);
  const Vec3 closing = velocities_[body] - velocities_[controlled];
  const float closing_sq = length_squared(closing);
  const float t = closing_sq > 0
                      ? std::clamp(-dot(offset, closing) / closing_sq, 0.0f, config_.T_predict)
                      : 0.0f;
  const float closest = length(offset + closing * t);
  const float contact = radii_[body] + radii_[controlled];
  const float reach = is_member(previous_core_, body) ? contact + config_.hysteresis : contact;
  if (closest <= reach) join_core(body, regions);
  // Touching now or within a few frames: what happens to it next depends on the player's input.
  const float t_soon = std::min(t, kImminentContactS);
  if (length(offset + closing * t_soon) <= contact + kImminentContactMargin) regions.contact_bodies.push_back(body);
}

}  // namespace shoal::authority
