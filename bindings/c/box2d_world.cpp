// SPDX-License-Identifier: MIT
// shoal_box2d_world: a Box2D world built from C, behind the C callback simulation.
#include <box2d/box2d.h>

#include <cmath>
#include <string>

#include "boundary.hpp"
#include "convert.hpp"
#include "shoal/box2d_simulation.hpp"
#include "shoal/shoal_box2d.h"
#include "simulation_callbacks.hpp"

namespace {

shoal::Box2dSimulationConfig adapter_config(const shoal_box2d_config& c) {
  shoal::Box2dSimulationConfig config;
  config.dt = c.dt;
  config.velocity_iterations = c.velocity_iterations;
  config.position_iterations = c.position_iterations;
  config.push_acceleration = c.push_acceleration;
  config.max_push_speed = c.max_push_speed;
  return config;
}

const shoal_box2d_config& checked(const shoal_box2d_config& c) {
  if (!std::isfinite(c.gravity_x) || !std::isfinite(c.gravity_y)) {
    throw shoal_c::Error(SHOAL_ERROR_INVALID_ARGUMENT, "gravity_x and gravity_y must be finite");
  }
  shoal_c::require_finite(c.friction, "friction", false);
  shoal_c::require_finite(c.linear_damping, "linear_damping", false);
  shoal_c::require_finite(c.angular_damping, "angular_damping", false);
  if (!(c.restitution >= 0 && c.restitution <= 1)) {
    throw shoal_c::Error(SHOAL_ERROR_INVALID_ARGUMENT,
                         "restitution is " + std::to_string(c.restitution) + ", expected 0..1");
  }
  return c;
}

}  // namespace

struct shoal_box2d_world {
  explicit shoal_box2d_world(const shoal_box2d_config& c)
      : config(checked(c)), world(b2Vec2(c.gravity_x, c.gravity_y)), simulation(world, adapter_config(c)) {}

  // A dynamic body with one fixture of `shape`, registered as `object`, starting as `initial`
  // says (on the plane: x, y, the angle about z and the in-plane velocities).
  // A dynamic body with one fixture of `shape` at `state`'s pose, as the config says.
  b2Body& make(const b2Shape& shape, float density, const shoal::ObjectState& state) {
    b2BodyDef def;
    def.type = b2_dynamicBody;
    def.position.Set(state.position.x, state.position.y);
    def.angle = 2 * std::atan2(state.orientation.z, state.orientation.w);
    def.linearDamping = config.linear_damping;
    def.angularDamping = config.angular_damping;
    b2Body* body = world.CreateBody(&def);
    b2FixtureDef fixture;
    fixture.shape = &shape;
    fixture.density = density;
    fixture.friction = config.friction;
    fixture.restitution = config.restitution;
    body->CreateFixture(&fixture);
    return *body;
  }

  void add(std::uint32_t object, const b2Shape& shape, float density, const shoal_object_state& initial) {
    shoal_c::require_finite(density, "density", true);
    const shoal::ObjectState state = shoal_c::to_cpp_finite(initial, "initial");
    const shoal::BodyIndex index = simulation.add_body(object, make(shape, density, state));
    shoal::ObjectState start = simulation.read(index);
    start.at_rest = state.at_rest;
    if (!state.at_rest) {
      start.linear_velocity = {state.linear_velocity.x, state.linear_velocity.y, 0};
      start.angular_velocity = {0, 0, state.angular_velocity.z};
    }
    simulation.write(index, start);
  }

  shoal_box2d_config config;
  b2World world;
  shoal::Box2dSimulation simulation;
  shoal_c::SimulationUser callbacks_user{simulation};
};

using shoal_c::guarded;
using shoal_c::require;
using shoal_c::require_finite;

extern "C" {

int shoal_box2d_config_default(shoal_box2d_config* config) {
  return guarded(__func__, [&] {
    const shoal::Box2dSimulationConfig defaults;
    shoal_box2d_config& c = require(config, "config");
    c = {};
    c.struct_size = sizeof c;
    c.dt = defaults.dt;
    c.velocity_iterations = defaults.velocity_iterations;
    c.position_iterations = defaults.position_iterations;
    c.push_acceleration = defaults.push_acceleration;
    c.max_push_speed = defaults.max_push_speed;
    c.friction = 0.5f;
    c.restitution = 0.3f;
    c.linear_damping = 2.5f;  // seen from above, damping stands in for ground friction
    c.angular_damping = 2.5f;
    return SHOAL_OK;
  });
}

int shoal_box2d_world_create(const shoal_box2d_config* config, shoal_box2d_world** out_world) {
  return guarded(__func__, [&] {
    shoal_box2d_world*& out = require(out_world, "out_world");
    out = nullptr;
    out = new shoal_box2d_world(shoal_c::require_sized(config, "config", "shoal_box2d_config"));
    return SHOAL_OK;
  });
}

int shoal_box2d_world_destroy(shoal_box2d_world* world) {
  delete world;
  return SHOAL_OK;
}

int shoal_box2d_world_add_wall(shoal_box2d_world* world, float center_x, float center_y, float half_x, float half_y) {
  return guarded(__func__, [&] {
    shoal_box2d_world& w = require(world, "world");
    require_finite(half_x, "half_x", true);
    require_finite(half_y, "half_y", true);
    if (!std::isfinite(center_x) || !std::isfinite(center_y)) {
      throw shoal_c::Error(SHOAL_ERROR_INVALID_ARGUMENT, "center_x and center_y must be finite");
    }
    b2BodyDef def;
    def.position.Set(center_x, center_y);
    b2PolygonShape box;
    box.SetAsBox(half_x, half_y);
    w.world.CreateBody(&def)->CreateFixture(&box, 0);
    return SHOAL_OK;
  });
}

int shoal_box2d_world_add_disc(shoal_box2d_world* world, uint32_t object, float radius, float density,
                               const shoal_object_state* initial) {
  return guarded(__func__, [&] {
    shoal_box2d_world& w = require(world, "world");
    require_finite(radius, "radius", true);
    b2CircleShape disc;
    disc.m_radius = radius;
    w.add(object, disc, density, require(initial, "initial"));
    return SHOAL_OK;
  });
}

int shoal_box2d_world_add_box(shoal_box2d_world* world, uint32_t object, float half_x, float half_y, float density,
                              const shoal_object_state* initial) {
  return guarded(__func__, [&] {
    shoal_box2d_world& w = require(world, "world");
    require_finite(half_x, "half_x", true);
    require_finite(half_y, "half_y", true);
    b2PolygonShape box;
    box.SetAsBox(half_x, half_y);
    w.add(object, box, density, require(initial, "initial"));
    return SHOAL_OK;
  });
}

int shoal_box2d_world_set_spawn_disc(shoal_box2d_world* world, uint16_t type, float radius, float density) {
  return guarded(__func__, [&] {
    shoal_box2d_world& w = require(world, "world");
    require_finite(radius, "radius", true);
    require_finite(density, "density", true);
    w.simulation.set_spawn_type(type, [&w, radius, density](b2World&) -> b2Body& {
      b2CircleShape disc;
      disc.m_radius = radius;
      return w.make(disc, density, {});
    });
    return SHOAL_OK;
  });
}

int shoal_box2d_world_set_spawn_box(shoal_box2d_world* world, uint16_t type, float half_x, float half_y, float density) {
  return guarded(__func__, [&] {
    shoal_box2d_world& w = require(world, "world");
    require_finite(half_x, "half_x", true);
    require_finite(half_y, "half_y", true);
    require_finite(density, "density", true);
    w.simulation.set_spawn_type(type, [&w, half_x, half_y, density](b2World&) -> b2Body& {
      b2PolygonShape box;
      box.SetAsBox(half_x, half_y);
      return w.make(box, density, {});
    });
    return SHOAL_OK;
  });
}

int shoal_box2d_world_add_spawn_slots(shoal_box2d_world* world, uint32_t count) {
  return guarded(__func__, [&] {
    require(world, "world").simulation.add_spawn_slots(count);
    return SHOAL_OK;
  });
}

int shoal_box2d_world_spawn_callbacks(shoal_box2d_world* world, shoal_spawn_callbacks* out_callbacks) {
  return guarded(__func__, [&] {
    shoal_spawn_callbacks& out = require(out_callbacks, "out_callbacks");
    out = shoal_c::spawn_callbacks(require(world, "world").callbacks_user);
    return SHOAL_OK;
  });
}

int shoal_box2d_world_callbacks(shoal_box2d_world* world, shoal_simulation_callbacks* out_callbacks) {
  return guarded(__func__, [&] {
    shoal_simulation_callbacks& out = require(out_callbacks, "out_callbacks");
    out = shoal_c::simulation_callbacks(require(world, "world").callbacks_user);
    return SHOAL_OK;
  });
}

}  // extern "C"
