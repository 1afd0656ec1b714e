// SPDX-License-Identifier: MIT
// The reference physics step: inputs and wake-ups, broad phase (spatial grid), narrow phase,
// forces, contact solve, integration, then island sleeping. Everything runs in body-index or
// grid order, single-threaded, on buffers sized when bodies are added.
#include "world/reference_physics_impl.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

namespace shoal {

using world::reference::Body;
using world::reference::finite;
using world::reference::kContactMargin;
using world::reference::Plane;

namespace {

using world::Manifold;
using world::Pose;
using world::Shape;
using world::ShapeKind;
using world::SolverBody;
using world::SolverContact;

void require(bool ok, const std::string& field, float value, const char* expected) {
  if (!ok) {
    throw std::invalid_argument("ReferencePhysicsConfig: " + field + " is " +
                                std::to_string(value) + ", expected " + expected);
  }
}

void validate(const ReferencePhysicsConfig& c) {
  require(std::isfinite(c.dt) && c.dt > 0 && c.dt <= 1, "dt", c.dt, "a step in (0, 1] seconds");
  require(finite(c.gravity), "gravity", length(c.gravity), "finite components");
  require(std::isfinite(c.arena_half_x) && c.arena_half_x > 0, "arena_half_x", c.arena_half_x,
          "a finite distance > 0");
  require(std::isfinite(c.arena_half_z) && c.arena_half_z > 0, "arena_half_z", c.arena_half_z,
          "a finite distance > 0");
  require(c.restitution >= 0 && c.restitution <= 1, "restitution", c.restitution, "0..1");
  require(std::isfinite(c.friction) && c.friction >= 0, "friction", c.friction, "a finite value >= 0");
  require(std::isfinite(c.linear_damping) && c.linear_damping >= 0, "linear_damping",
          c.linear_damping, "a finite rate >= 0");
  require(std::isfinite(c.angular_damping) && c.angular_damping >= 0, "angular_damping",
          c.angular_damping, "a finite rate >= 0");
  require(c.solver_iterations >= 1 && c.solver_iterations <= 256, "solver_iterations",
          static_cast<float>(c.solver_iterations), "1..256");
  require(std::isfinite(c.sleep_linear_speed) && c.sleep_linear_speed >= 0, "sleep_linear_speed",
          c.sleep_linear_speed, "a finite speed >= 0");
  require(std::isfinite(c.sleep_angular_speed) && c.sleep_angular_speed >= 0,
          "sleep_angular_speed", c.sleep_angular_speed, "a finite speed >= 0");
  require(c.sleep_frames >= 1, "sleep_frames", static_cast<float>(c.sleep_frames), "at least 1");
  require(std::isfinite(c.push_acceleration) && c.push_acceleration >= 0, "push_acceleration",
          c.push_acceleration, "a finite acceleration >= 0");
  require(std::isfinite(c.max_push_speed) && c.max_push_speed >= 0, "max_push_speed",
          c.max_push_speed, "a finite speed >= 0");
  require(c.history_frames >= 1 && c.history_frames <= 65536, "history_frames",
          static_cast<float>(c.history_frames), "1..65536");
  require(std::isfinite(c.grid_cell_size) && c.grid_cell_size > 0, "grid_cell_size",
          c.grid_cell_size, "a finite size > 0");
}

// Clamps the horizontal push to length 1; a non-finite axis is no push at all.
Vec3 push_direction(Vec3 axis) {
  Vec3 d{axis.x, 0, axis.z};
  if (!finite(d)) return {};
  const float len_sq = length_squared(d);
  return len_sq > 1 ? d / std::sqrt(len_sq) : d;
}

}  // namespace


BodyIndex ReferencePhysics::Impl::add(ObjectId id, const Shape& shape, float mass,
                                      Vec3 inertia_factors, const ObjectState& state) {
  if (slots_added) {
    throw std::logic_error("ReferencePhysics: body " + std::to_string(id) +
                           " added after the spawn slots, expected every fixed body first");
  }
  const Body body = make_body(id, shape, mass, inertia_factors, state);
  bodies.push_back(body);
  present.push_back(1);
  types.push_back(0);
  user_bytes.resize(bodies.size() * kMaxUserBytes, 0);
  if (type_user_bytes[0] != 0) counting.push_back(static_cast<BodyIndex>(bodies.size() - 1));
  sleep_counters.push_back(body.state.at_rest ? config.sleep_frames : 0);
  frozen.push_back(0);

  const std::size_t n = bodies.size();
  if (n > counter_stride) {
    counter_stride = std::max<std::size_t>(2 * counter_stride, 64);
    saved_counters.assign(saved_frames.size() * counter_stride, 0);
  }
  std::fill(saved_frames.begin(), saved_frames.end(), kNoFrame);  // saved frames lack the body
  contact_cache.clear();  // the static sentinel's index moves
  centers.resize(n);
  push.resize(n);
  radii.resize(n);
  pushed.resize(n);
  was_moving.resize(n);
  woken.resize(n);
  poses.resize(n);
  solver_bodies.resize(n + 1);
  island_parent.resize(n);
  changed.reserve(n);
  island_min_counter.resize(n);
  return static_cast<BodyIndex>(n - 1);
}

Body ReferencePhysics::Impl::make_body(ObjectId id, const Shape& shape, float mass,
                                       Vec3 inertia_factors, const ObjectState& state) {
  if (!std::isfinite(mass) || mass < 0) {
    throw std::invalid_argument("ReferencePhysics: body " + std::to_string(id) + " has mass " +
                                std::to_string(mass) + ", expected a finite mass >= 0 (0 = static)");
  }
  if (!finite(state)) {
    throw std::invalid_argument("ReferencePhysics: body " + std::to_string(id) +
                                " has a non-finite initial state");
  }
  Body body;
  body.id = id;
  body.shape = shape;
  body.state = state;
  if (mass > 0) {
    body.inverse_mass = 1 / mass;
    body.inverse_inertia_local = {1 / (mass * inertia_factors.x), 1 / (mass * inertia_factors.y),
                                  1 / (mass * inertia_factors.z)};
  } else {
    body.state.at_rest = true;  // static bodies never move
  }
  body.bounding_radius =
      shape.kind == ShapeKind::sphere ? shape.radius : length(shape.half_extents);
  return body;
}

void ReferencePhysics::Impl::step(std::span<const BodyInput> inputs) {
  std::fill(pushed.begin(), pushed.end(), 0);
  for (const BodyInput& in : inputs) {
    if (in.body >= bodies.size()) {
      throw std::invalid_argument("ReferencePhysics::step: input for body " +
                                  std::to_string(in.body) + ", but there are only " +
                                  std::to_string(bodies.size()) + " bodies");
    }
  }
  for (const BodyInput& in : inputs) {  // the last input for a body wins
    const Vec3 d = push_direction(in.input.axis);
    push[in.body] = d * config.push_acceleration;
    pushed[in.body] = length_squared(d) > 0 && bodies[in.body].inverse_mass > 0 && frozen[in.body] == 0 &&
                              present[in.body] != 0 ? 1 : 0;
    if (pushed[in.body] != 0 && bodies[in.body].state.at_rest) wake(in.body);
  }
  for (BodyIndex b = 0; b < bodies.size(); ++b) {
    poses[b] = world::make_pose(bodies[b].state.position, bodies[b].state.orientation);
  }
  collect_contacts();
  apply_forces();
  const world::SolverSettings settings{config.dt, config.restitution, config.friction,
                                       config.solver_iterations};
  contact_cache.warm(contacts, poses);
  world::prepare_contacts(contacts, solver_bodies, settings);
  world::solve_contacts(contacts, solver_bodies, settings);
  contact_cache.store(contacts, poses);
  integrate();
  update_sleep();
  count_awake_frames();
}

// The built-in user-bytes rule: a frame counter that only a faithful restore and re-simulation
// reproduce (it depends on the whole sleep history of the body).
void ReferencePhysics::Impl::count_awake_frames() {
  for (BodyIndex b : counting) {
    if (bodies[b].state.at_rest || frozen[b] != 0) continue;
    const std::span<std::uint8_t> bytes = user_bytes_of(b);
    const std::size_t width = std::min<std::size_t>(bytes.size(), 4);
    for (std::size_t i = 0; i < width && ++bytes[i] == 0; ++i) {}  // little-endian increment
  }
}

void ReferencePhysics::Impl::add_pair_contacts(BodyIndex a, BodyIndex b) {
  world::collide(bodies[a].shape, poses[a], bodies[b].shape, poses[b], kContactMargin, manifold);
  add_manifold(a, b);
}

void ReferencePhysics::Impl::add_manifold(BodyIndex a, BodyIndex b) {
  for (int i = 0; i < manifold.count; ++i) {
    SolverContact c;
    c.a = a;
    c.b = b;
    c.point = manifold.points[static_cast<std::size_t>(i)].point;
    c.separation = manifold.points[static_cast<std::size_t>(i)].separation;
    c.normal = manifold.normal;
    contacts.push_back(c);
  }
}

void ReferencePhysics::Impl::collect_contacts() {
  contacts.clear();
  for (BodyIndex b = 0; b < bodies.size(); ++b) {
    centers[b] = bodies[b].state.position;
    radii[b] = bodies[b].bounding_radius + kContactMargin * 0.5f;
    was_moving[b] = moving(b) ? 1 : 0;
    woken[b] = 0;
  }
  grid.rebuild(centers, radii);
  grid.for_each_pair([this](BodyIndex a, BodyIndex b) {
    // An empty spawn slot touches nothing (present = 0 never moves, so one check suffices).
    if ((was_moving[a] != 0 && present[b] != 0) || (was_moving[b] != 0 && present[a] != 0)) {
      add_pair_contacts(a, b);
    }
  });
  wake_touched_sleepers();
  // Pairs of a body woken just now with still bodies were skipped above; add them.
  for (BodyIndex w = 0; w < bodies.size(); ++w) {
    if (woken[w] == 0) continue;
    grid.query_sphere(centers[w], radii[w], [&](BodyIndex other) {
      // A pair of two woken bodies is added from the lower index only.
      if (other == w || was_moving[other] != 0 || (woken[other] != 0 && other < w) || present[other] == 0) return;
      add_pair_contacts(std::min(w, other), std::max(w, other));
    });
  }
  const auto sentinel = static_cast<BodyIndex>(bodies.size());
  for (BodyIndex b = 0; b < bodies.size(); ++b) {
    if (!moving(b)) continue;
    for (const Plane& plane : planes) {
      world::collide_plane(bodies[b].shape, poses[b], plane.inward_normal, plane.offset,
                           kContactMargin, manifold);
      add_manifold(b, sentinel);
    }
  }
}

void ReferencePhysics::Impl::wake_touched_sleepers() {
  // A still body touched by a body that is really moving wakes up; one resting on it does not.
  const float lin_sq = config.sleep_linear_speed * config.sleep_linear_speed;
  const float ang_sq = config.sleep_angular_speed * config.sleep_angular_speed;
  auto hits_hard = [&](BodyIndex b) {
    const ObjectState& s = bodies[b].state;
    return was_moving[b] != 0 && (length_squared(s.linear_velocity) > lin_sq ||
                                  length_squared(s.angular_velocity) > ang_sq || pushed[b] != 0);
  };
  for (const SolverContact& c : contacts) {
    for (const auto& [sleeper, hitter] : {std::pair{c.a, c.b}, std::pair{c.b, c.a}}) {
      if (bodies[sleeper].inverse_mass > 0 && bodies[sleeper].state.at_rest &&
          frozen[sleeper] == 0 && hits_hard(hitter)) {
        wake(sleeper);
        woken[sleeper] = 1;
      }
    }
  }
}

void ReferencePhysics::Impl::apply_forces() {
  const float dt = config.dt;
  const float linear_keep = 1 / (1 + dt * config.linear_damping);
  const float angular_keep = 1 / (1 + dt * config.angular_damping);
  for (BodyIndex b = 0; b < bodies.size(); ++b) {
    const Body& body = bodies[b];
    SolverBody& sb = solver_bodies[b];
    sb = SolverBody{};
    sb.position = body.state.position;
    if (!moving(b)) continue;  // zero mass and velocity: contacts treat it as ground
    sb.inverse_mass = body.inverse_mass;
    sb.inverse_inertia = world::world_inverse_inertia(poses[b], body.inverse_inertia_local);
    Vec3 v = body.state.linear_velocity + config.gravity * dt;
    if (pushed[b] != 0) {
      // Pushing speeds a body up to max_push_speed, never past it (and never slows it down).
      const Vec3 before{v.x, 0, v.z};
      const Vec3 after = before + push[b] * dt;
      const float limit = std::fmax(length(before), config.max_push_speed);
      const float speed = length(after);
      const Vec3 horizontal = speed > limit ? after * (limit / speed) : after;
      v.x = horizontal.x;
      v.z = horizontal.z;
    }
    sb.velocity = v * linear_keep;
    sb.angular_velocity = body.state.angular_velocity * angular_keep;
  }
  solver_bodies.back() = SolverBody{};
}

void ReferencePhysics::Impl::integrate() {
  const float dt = config.dt;
  changed.clear();
  for (BodyIndex b = 0; b < bodies.size(); ++b) {
    if (!moving(b)) continue;
    changed.push_back(b);  // update_sleep() can only put these to sleep
    ObjectState& s = bodies[b].state;
    const SolverBody& sb = solver_bodies[b];
    s.linear_velocity = sb.velocity;
    s.angular_velocity = sb.angular_velocity;
    s.position += (sb.velocity + sb.pseudo_velocity) * dt;
    s.orientation = shoal::integrate(s.orientation, sb.angular_velocity + sb.pseudo_angular_velocity, dt);
  }
}

BodyIndex ReferencePhysics::Impl::find_island(BodyIndex b) {
  while (island_parent[b] != b) {
    island_parent[b] = island_parent[island_parent[b]];
    b = island_parent[b];
  }
  return b;
}

void ReferencePhysics::Impl::update_sleep() {
  if (!config.allow_sleep) return;
  const float lin_sq = config.sleep_linear_speed * config.sleep_linear_speed;
  const float ang_sq = config.sleep_angular_speed * config.sleep_angular_speed;
  for (BodyIndex b = 0; b < bodies.size(); ++b) {
    island_parent[b] = b;
    if (!moving(b)) continue;
    const ObjectState& s = bodies[b].state;
    const bool still = pushed[b] == 0 && length_squared(s.linear_velocity) < lin_sq &&
                       length_squared(s.angular_velocity) < ang_sq;
    sleep_counters[b] = still ? std::min(sleep_counters[b] + 1, config.sleep_frames) : 0;
  }
  // Touching moving bodies form an island that falls asleep together (no popping in stacks).
  for (const SolverContact& c : contacts) {
    if (c.b >= bodies.size() || !moving(c.a) || !moving(c.b)) continue;
    const BodyIndex ra = find_island(c.a);
    const BodyIndex rb = find_island(c.b);
    if (ra != rb) island_parent[std::max(ra, rb)] = std::min(ra, rb);
  }
  for (BodyIndex b = 0; b < bodies.size(); ++b) island_min_counter[b] = config.sleep_frames;
  for (BodyIndex b = 0; b < bodies.size(); ++b) {
    if (!moving(b)) continue;
    int& island = island_min_counter[find_island(b)];
    island = std::min(island, sleep_counters[b]);
  }
  for (BodyIndex b = 0; b < bodies.size(); ++b) {
    if (!moving(b) || island_min_counter[find_island(b)] < config.sleep_frames) continue;
    ObjectState& s = bodies[b].state;
    s.at_rest = true;
    s.linear_velocity = {};
    s.angular_velocity = {};
  }
}

ReferencePhysics::ReferencePhysics(const ReferencePhysicsConfig& config) {
  validate(config);
  impl_ = std::make_unique<Impl>(config);
}

ReferencePhysics::~ReferencePhysics() = default;

BodyIndex ReferencePhysics::add_sphere(ObjectId id, float radius, float mass,
                                       const ObjectState& state) {
  if (!std::isfinite(radius) || radius <= 0) {
    throw std::invalid_argument("ReferencePhysics::add_sphere: body " + std::to_string(id) +
                                " has radius " + std::to_string(radius) +
                                ", expected a finite radius > 0");
  }
  const float factor = 0.4f * radius * radius;  // solid sphere: I = 2/5 m r^2
  return impl_->add(id, Shape{ShapeKind::sphere, radius, {}}, mass, {factor, factor, factor},
                    state);
}

BodyIndex ReferencePhysics::add_box(ObjectId id, Vec3 half_extents, float mass,
                                    const ObjectState& state) {
  const Vec3 h = half_extents;
  if (!finite(h) || h.x <= 0 || h.y <= 0 || h.z <= 0) {
    throw std::invalid_argument("ReferencePhysics::add_box: body " + std::to_string(id) +
                                " has half extents (" + std::to_string(h.x) + ", " +
                                std::to_string(h.y) + ", " + std::to_string(h.z) +
                                "), expected finite values > 0");
  }
  // Solid box: I_x = m (hy^2 + hz^2) / 3 with half extents.
  const Vec3 factors{(h.y * h.y + h.z * h.z) / 3, (h.x * h.x + h.z * h.z) / 3,
                     (h.x * h.x + h.y * h.y) / 3};
  return impl_->add(id, Shape{ShapeKind::box, 0, h}, mass, factors, state);
}

void ReferencePhysics::step(Frame, std::span<const BodyInput> inputs) { impl_->step(inputs); }

}  // namespace shoal
