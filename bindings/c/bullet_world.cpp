// SPDX-License-Identifier: MIT
// shoal_bullet_world: a Bullet world built from C, behind the C callback simulation.
#include <btBulletDynamicsCommon.h>

#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "boundary.hpp"
#include "convert.hpp"
#include "shoal/bullet_simulation.hpp"
#include "shoal/shoal_bullet.h"
#include "simulation_callbacks.hpp"

using shoal_c::require_finite;

namespace {

shoal::BulletSimulationConfig adapter_config(const shoal_bullet_config& c) {
  shoal::BulletSimulationConfig config;
  config.dt = c.dt;
  config.push_acceleration = c.push_acceleration;
  config.max_push_speed = c.max_push_speed;
  return config;
}

bool finite(const shoal_vec3& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

const shoal_bullet_config& checked(const shoal_bullet_config& c) {
  if (!finite(c.gravity)) throw shoal_c::Error(SHOAL_ERROR_INVALID_ARGUMENT, "gravity must be finite");
  require_finite(c.friction, "friction", false);
  for (const auto& [value, field] : {std::pair{c.restitution, "restitution"}, std::pair{c.linear_damping, "linear_damping"},
                                     std::pair{c.angular_damping, "angular_damping"}}) {
    if (!(value >= 0 && value <= 1)) {
      throw shoal_c::Error(SHOAL_ERROR_INVALID_ARGUMENT, std::string(field) + " is " + std::to_string(value) + ", expected 0..1");
    }
  }
  return c;
}

}  // namespace

struct shoal_bullet_world {
  explicit shoal_bullet_world(const shoal_bullet_config& c)
      : config(checked(c)), world(shoal_c::to_cpp(c.gravity)), simulation(world, adapter_config(c)) {}
  ~shoal_bullet_world() {
    for (auto& body : bodies) world.dynamics().removeRigidBody(body.get());
  }

  btRigidBody& add(std::unique_ptr<btCollisionShape> shape, float mass, const shoal::ObjectState& state) {
    btVector3 inertia(0, 0, 0);
    if (mass > 0) shape->calculateLocalInertia(mass, inertia);
    btRigidBody::btRigidBodyConstructionInfo info(mass, nullptr, shape.get(), inertia);
    info.m_startWorldTransform.setOrigin(btVector3(state.position.x, state.position.y, state.position.z));
    info.m_startWorldTransform.setRotation(
        btQuaternion(state.orientation.x, state.orientation.y, state.orientation.z, state.orientation.w));
    info.m_friction = config.friction;
    info.m_restitution = config.restitution;
    info.m_linearDamping = config.linear_damping;
    info.m_angularDamping = config.angular_damping;
    shapes.push_back(std::move(shape));
    bodies.push_back(std::make_unique<btRigidBody>(info));
    world.dynamics().addRigidBody(bodies.back().get());
    return *bodies.back();
  }

  // A shared dynamic body, registered as `object`, starting as `initial` says.
  void add_shared(std::uint32_t object, std::unique_ptr<btCollisionShape> shape, float mass,
                  const shoal_object_state& initial) {
    require_finite(mass, "mass", true);
    const shoal::ObjectState state = shoal_c::to_cpp_finite(initial, "initial");
    btRigidBody& body = add(std::move(shape), mass, state);
    simulation.write(simulation.add_body(object, body), state);
  }

  shoal_bullet_config config;
  shoal::BulletWorld world;
  std::vector<std::unique_ptr<btCollisionShape>> shapes;
  std::vector<std::unique_ptr<btRigidBody>> bodies;
  shoal::BulletSimulation simulation;
  shoal_c::SimulationUser callbacks_user{simulation};
};

using shoal_c::guarded;
using shoal_c::require;

extern "C" {

int shoal_bullet_config_default(shoal_bullet_config* config) {
  return guarded(__func__, [&] {
    const shoal::BulletSimulationConfig defaults;
    shoal_bullet_config& c = require(config, "config");
    c = {};
    c.struct_size = sizeof c;
    c.gravity = {0, -9.81f, 0};
    c.dt = defaults.dt;
    c.push_acceleration = defaults.push_acceleration;
    c.max_push_speed = defaults.max_push_speed;
    c.friction = 0.5f;
    c.restitution = 0.3f;
    c.linear_damping = 0.05f;
    c.angular_damping = 0.1f;
    return SHOAL_OK;
  });
}

int shoal_bullet_world_create(const shoal_bullet_config* config, shoal_bullet_world** out_world) {
  return guarded(__func__, [&] {
    shoal_bullet_world*& out = require(out_world, "out_world");
    out = nullptr;
    out = new shoal_bullet_world(shoal_c::require_sized(config, "config", "shoal_bullet_config"));
    return SHOAL_OK;
  });
}

int shoal_bullet_world_destroy(shoal_bullet_world* world) {
  delete world;
  return SHOAL_OK;
}

int shoal_bullet_world_add_plane(shoal_bullet_world* world, shoal_vec3 normal, float offset) {
  return guarded(__func__, [&] {
    shoal_bullet_world& w = require(world, "world");
    const float length = std::sqrt(normal.x * normal.x + normal.y * normal.y + normal.z * normal.z);
    if (!finite(normal) || !std::isfinite(offset) || !(length > 0)) {
      throw shoal_c::Error(SHOAL_ERROR_INVALID_ARGUMENT, "the plane needs a finite, non-zero normal and a finite offset");
    }
    w.add(std::make_unique<btStaticPlaneShape>(btVector3(normal.x, normal.y, normal.z) / length, offset), 0, {});
    return SHOAL_OK;
  });
}

int shoal_bullet_world_add_sphere(shoal_bullet_world* world, uint32_t object, float radius, float mass,
                                  const shoal_object_state* initial) {
  return guarded(__func__, [&] {
    shoal_bullet_world& w = require(world, "world");
    w.add_shared(object, std::make_unique<btSphereShape>(require_finite(radius, "radius", true)), mass,
                 require(initial, "initial"));
    return SHOAL_OK;
  });
}

int shoal_bullet_world_add_box(shoal_bullet_world* world, uint32_t object, shoal_vec3 half_extents, float mass,
                               const shoal_object_state* initial) {
  return guarded(__func__, [&] {
    shoal_bullet_world& w = require(world, "world");
    const btVector3 half(require_finite(half_extents.x, "half_extents.x", true),
                         require_finite(half_extents.y, "half_extents.y", true),
                         require_finite(half_extents.z, "half_extents.z", true));
    w.add_shared(object, std::make_unique<btBoxShape>(half), mass, require(initial, "initial"));
    return SHOAL_OK;
  });
}

int shoal_bullet_world_set_spawn_sphere(shoal_bullet_world* world, uint16_t type, float radius, float mass) {
  return guarded(__func__, [&] {
    shoal_bullet_world& w = require(world, "world");
    require_finite(radius, "radius", true);
    require_finite(mass, "mass", true);
    w.simulation.set_spawn_type(type, [&w, radius, mass](shoal::BulletWorld&) -> btRigidBody& {
      return w.add(std::make_unique<btSphereShape>(radius), mass, {});
    });
    return SHOAL_OK;
  });
}

int shoal_bullet_world_set_spawn_box(shoal_bullet_world* world, uint16_t type, shoal_vec3 half_extents, float mass) {
  return guarded(__func__, [&] {
    shoal_bullet_world& w = require(world, "world");
    require_finite(half_extents.x, "half_extents.x", true);
    require_finite(half_extents.y, "half_extents.y", true);
    require_finite(half_extents.z, "half_extents.z", true);
    require_finite(mass, "mass", true);
    const btVector3 half(half_extents.x, half_extents.y, half_extents.z);
    w.simulation.set_spawn_type(type, [&w, half, mass](shoal::BulletWorld&) -> btRigidBody& {
      return w.add(std::make_unique<btBoxShape>(half), mass, {});
    });
    return SHOAL_OK;
  });
}

int shoal_bullet_world_add_spawn_slots(shoal_bullet_world* world, uint32_t count) {
  return guarded(__func__, [&] {
    require(world, "world").simulation.add_spawn_slots(count);
    return SHOAL_OK;
  });
}

int shoal_bullet_world_spawn_callbacks(shoal_bullet_world* world, shoal_spawn_callbacks* out_callbacks) {
  return guarded(__func__, [&] {
    shoal_spawn_callbacks& out = require(out_callbacks, "out_callbacks");
    out = shoal_c::spawn_callbacks(require(world, "world").callbacks_user);
    return SHOAL_OK;
  });
}

int shoal_bullet_world_callbacks(shoal_bullet_world* world, shoal_simulation_callbacks* out_callbacks) {
  return guarded(__func__, [&] {
    shoal_simulation_callbacks& out = require(out_callbacks, "out_callbacks");
    out = shoal_c::simulation_callbacks(require(world, "world").callbacks_user);
    return SHOAL_OK;
  });
}

}  // extern "C"
