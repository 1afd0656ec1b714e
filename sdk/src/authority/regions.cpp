#include "authority/regions.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

namespace shoal::authority {
namespace {

// The bounding-sphere overlap test that gates every membership test below.
bool spheres_overlap(Vec3 center_a, float radius_a, Vec3 center_b, float radius_b) {
  const float reach = radius_a + radius_b;
  return length_squared(center_a - center_b) <= reach * reach;
}

}  // namespace

RegionBuilder::RegionBuilder(const AuthorityConfig& config) : config_(config) { validate(config); }

void RegionBuilder::rebuild(const BodyMotions& world) {
  if (world.velocities.size() != world.positions.size() ||
      world.radii.size() != world.positions.size()) {
    throw std::invalid_argument(
        "RegionBuilder::rebuild: positions, velocities and radii must have one entry per body (" +
        std::to_string(world.positions.size()) + ", " + std::to_string(world.velocities.size()) +
        ", " + std::to_string(world.radii.size()) + ")");
  }
  positions_.assign(world.positions.begin(), world.positions.end());
  velocities_.assign(world.velocities.begin(), world.velocities.end());
  radii_.assign(world.radii.begin(), world.radii.end());

  const float half_horizon = 0.5f * config_.T_predict;
  swept_centers_.resize(positions_.size());
  swept_radii_.resize(positions_.size());
  for (std::size_t i = 0; i < positions_.size(); ++i) {
    swept_centers_[i] = positions_[i] + velocities_[i] * half_horizon;
    swept_radii_[i] = radii_[i] + length(velocities_[i]) * half_horizon;
  }
}

float RegionBuilder::core_radius(BodyIndex controlled) const {
  return std::max(config_.r_min, length(velocities_.at(controlled)) * config_.T);
}

void RegionBuilder::compute(std::span<const BodyIndex> controlled, PeerRegions& regions) {
  const std::size_t count = positions_.size();
  for (const BodyIndex body : controlled) {
    if (body >= count) {
      throw std::out_of_range("RegionBuilder::compute: controlled body " + std::to_string(body) +
                              " is outside the world of " + std::to_string(count) + " bodies");
    }
  }
  // The caller's flags become the previous membership; the swap keeps both buffers warm.
  std::swap(regions.core, previous_core_);
  std::swap(regions.simulated, previous_simulated_);
  regions.core.assign(count, 0);
  regions.simulated.assign(count, 0);

  for (const BodyIndex body : controlled) {
    const float radius = core_radius(body);
    add_spheres(positions_[body], radius, radius + config_.simulated_radius, regions);
    add_predicted_contacts(body, previous_core_, regions.core);
  }
  for (std::size_t i = 0; i < count; ++i) {
    regions.simulated[i] = static_cast<std::uint8_t>(regions.simulated[i] | regions.core[i]);
  }
}

void RegionBuilder::add_spheres(Vec3 center, float core_radius, float simulated_radius,
                                PeerRegions& regions) const {
  // One pass for both spheres around the same center: the simulated sphere contains the core
  // sphere, so a body outside the simulated query is outside the core query too.
  const float hysteresis = config_.hysteresis;
  const float core_query = core_radius + hysteresis;
  const float simulated_query = simulated_radius + hysteresis;
  const auto count = static_cast<BodyIndex>(positions_.size());
  for (BodyIndex body = 0; body < count; ++body) {
    if (!spheres_overlap(center, simulated_query, positions_[body], radii_[body])) continue;
    // Distance from the sphere's center to the near side of the body's bounding sphere.
    const float gap = distance(positions_[body], center) - radii_[body];
    const float simulated_reach =
        is_member(previous_simulated_, body) ? simulated_radius + hysteresis : simulated_radius;
    if (gap <= simulated_reach) regions.simulated[body] = 1;
    if (!spheres_overlap(center, core_query, positions_[body], radii_[body])) continue;
    const float core_reach = is_member(previous_core_, body) ? core_radius + hysteresis : core_radius;
    if (gap <= core_reach) regions.core[body] = 1;
  }
}

void RegionBuilder::add_predicted_contacts(BodyIndex controlled,
                                           const std::vector<std::uint8_t>& previous,
                                           std::vector<std::uint8_t>& members) const {
  const Vec3 position = positions_[controlled];
  const Vec3 velocity = velocities_[controlled];
  const float horizon = config_.T_predict;
  const Vec3 swept_center = swept_centers_[controlled];
  const float swept_radius = swept_radii_[controlled] + config_.hysteresis;
  const auto count = static_cast<BodyIndex>(positions_.size());
  for (BodyIndex body = 0; body < count; ++body) {
    if (body == controlled) continue;
    if (!spheres_overlap(swept_center, swept_radius, swept_centers_[body], swept_radii_[body])) {
      continue;
    }
    // Linear extrapolation of both bodies; time of closest approach clamped to the horizon.
    const Vec3 offset = positions_[body] - position;
    const Vec3 closing = velocities_[body] - velocity;
    const float closing_sq = length_squared(closing);
    const float t = closing_sq > 0
                        ? std::clamp(-dot(offset, closing) / closing_sq, 0.0f, horizon)
                        : 0.0f;
    const float closest = length(offset + closing * t);
    const float contact = radii_[body] + radii_[controlled];
    const float reach = is_member(previous, body) ? contact + config_.hysteresis : contact;
    if (closest <= reach) members[body] = 1;
  }
}

}  // namespace shoal::authority
