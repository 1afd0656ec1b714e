// SPDX-License-Identifier: MIT
#include "world/contact_solver.hpp"

#include <cmath>

namespace shoal::world {
namespace {

// Approach speeds below this do not bounce: resting contacts would otherwise never settle.
constexpr float kRestitutionThreshold = 1.0f;  // m/s
// Overlap tolerated without correction, so resting contacts stay touching from frame to frame.
constexpr float kPenetrationSlop = 0.005f;  // m
// Fraction of the remaining overlap removed per step.
constexpr float kPositionCorrection = 0.2f;

Vec3 relative_velocity(const SolverBody& a, const SolverBody& b, Vec3 ra, Vec3 rb) {
  return (b.velocity + cross(b.angular_velocity, rb)) - (a.velocity + cross(a.angular_velocity, ra));
}

float effective_mass(const SolverBody& a, const SolverBody& b, Vec3 ra, Vec3 rb, Vec3 dir) {
  const Vec3 ta = cross(a.inverse_inertia * cross(ra, dir), ra);
  const Vec3 tb = cross(b.inverse_inertia * cross(rb, dir), rb);
  const float k = a.inverse_mass + b.inverse_mass + dot(ta + tb, dir);
  return k > 0 ? 1.0f / k : 0.0f;
}

void apply_impulse(SolverBody& a, SolverBody& b, Vec3 ra, Vec3 rb, Vec3 impulse) {
  a.velocity -= impulse * a.inverse_mass;
  a.angular_velocity -= a.inverse_inertia * cross(ra, impulse);
  b.velocity += impulse * b.inverse_mass;
  b.angular_velocity += b.inverse_inertia * cross(rb, impulse);
}

void tangent_basis(Vec3 n, Vec3& t1, Vec3& t2) {
  t1 = std::fabs(n.x) >= 0.57735f ? normalized(Vec3{n.y, -n.x, 0}) : normalized(Vec3{0, n.z, -n.y});
  t2 = cross(n, t1);
}

}  // namespace

void prepare_contacts(std::span<SolverContact> contacts, std::span<SolverBody> bodies,
                      const SolverSettings& settings) {
  for (SolverContact& c : contacts) {
    const SolverBody& a = bodies[c.a];
    const SolverBody& b = bodies[c.b];
    c.ra = c.point - a.position;
    c.rb = c.point - b.position;
    tangent_basis(c.normal, c.tangent1, c.tangent2);
    c.normal_mass = effective_mass(a, b, c.ra, c.rb, c.normal);
    c.tangent1_mass = effective_mass(a, b, c.ra, c.rb, c.tangent1);
    c.tangent2_mass = effective_mass(a, b, c.ra, c.rb, c.tangent2);
    const float approach = dot(relative_velocity(a, b, c.ra, c.rb), c.normal);
    if (approach < -kRestitutionThreshold) {
      c.target_normal_speed = -settings.restitution * approach;
    } else {
      // A gap may close this step, no further: contacts found early do not hover.
      c.target_normal_speed = c.separation > 0 ? -c.separation / settings.dt : 0.0f;
    }
    const float overlap = -c.separation - kPenetrationSlop;
    c.target_pseudo_speed = overlap > 0 ? kPositionCorrection * overlap / settings.dt : 0.0f;
    c.pseudo_impulse = 0;
  }
  // Warm start only once every target is known: the targets must see the velocities before
  // any contact acts.
  for (SolverContact& c : contacts) {
    apply_impulse(bodies[c.a], bodies[c.b], c.ra, c.rb,
                  c.normal * c.normal_impulse + c.tangent1 * c.tangent1_impulse +
                      c.tangent2 * c.tangent2_impulse);
  }
}

void solve_contacts(std::span<SolverContact> contacts, std::span<SolverBody> bodies,
                    const SolverSettings& settings) {
  for (int iteration = 0; iteration < settings.iterations; ++iteration) {
    for (SolverContact& c : contacts) {
      SolverBody& a = bodies[c.a];
      SolverBody& b = bodies[c.b];
      // Friction first, bounded by the normal impulse of the previous pass.
      const float max_friction = settings.friction * c.normal_impulse;
      const Vec3 tangents[2] = {c.tangent1, c.tangent2};
      const float masses[2] = {c.tangent1_mass, c.tangent2_mass};
      float* accumulated[2] = {&c.tangent1_impulse, &c.tangent2_impulse};
      for (int k = 0; k < 2; ++k) {
        const float speed = dot(relative_velocity(a, b, c.ra, c.rb), tangents[k]);
        const float total = std::fmax(-max_friction,
                                      std::fmin(*accumulated[k] - speed * masses[k], max_friction));
        const float delta = total - *accumulated[k];
        *accumulated[k] = total;
        apply_impulse(a, b, c.ra, c.rb, tangents[k] * delta);
      }

      const float speed = dot(relative_velocity(a, b, c.ra, c.rb), c.normal);
      const float total = std::fmax(c.normal_impulse + (c.target_normal_speed - speed) * c.normal_mass, 0.0f);
      apply_impulse(a, b, c.ra, c.rb, c.normal * (total - c.normal_impulse));
      c.normal_impulse = total;

      // Every contact takes part, overlapping or not, so that one body pushed out of the
      // ground does not push its neighbour into itself.
      const Vec3 pseudo_relative = (b.pseudo_velocity + cross(b.pseudo_angular_velocity, c.rb)) -
                                   (a.pseudo_velocity + cross(a.pseudo_angular_velocity, c.ra));
      const float pseudo_speed = dot(pseudo_relative, c.normal);
      const float pseudo_total = std::fmax(
          c.pseudo_impulse + (c.target_pseudo_speed - pseudo_speed) * c.normal_mass, 0.0f);
      const Vec3 impulse = c.normal * (pseudo_total - c.pseudo_impulse);
      c.pseudo_impulse = pseudo_total;
      a.pseudo_velocity -= impulse * a.inverse_mass;
      a.pseudo_angular_velocity -= a.inverse_inertia * cross(c.ra, impulse);
      b.pseudo_velocity += impulse * b.inverse_mass;
      b.pseudo_angular_velocity += b.inverse_inertia * cross(c.rb, impulse);
    }
  }
}

}  // namespace shoal::world
