// SPDX-License-Identifier: MIT
// shoal_world: the built-in reference physics from C.
#include "boundary.hpp"
#include "convert.hpp"
#include "handles.hpp"

namespace shoal_c {

void refuse_if_driving(bool driving_peer, const char* message) {
  if (driving_peer) throw Error(SHOAL_ERROR_INVALID_STATE, message);
}

namespace {

// A peer sizes its tables from the world's body count once, at creation.
constexpr const char* kAddWhileDriving =
    "the world already drives a peer: expected every body to be added before creating the peer";

}  // namespace
}  // namespace shoal_c

using shoal_c::guarded;
using shoal_c::require;

extern "C" {

int shoal_world_config_default(shoal_world_config* config) {
  return guarded(__func__, [&] {
    require(config, "config") = shoal_c::to_c(shoal::ReferencePhysicsConfig{});
    return SHOAL_OK;
  });
}

int shoal_world_create(const shoal_world_config* config, shoal_world** out_world) {
  return guarded(__func__, [&] {
    shoal_world*& out = require(out_world, "out_world");
    out = nullptr;
    out = new shoal_world(shoal_c::to_cpp(require(config, "config")));
    return SHOAL_OK;
  });
}

int shoal_world_destroy(shoal_world* world) {
  return guarded(__func__, [&] {
    if (world == nullptr) return SHOAL_OK;
    shoal_c::refuse_if_driving(world->driving_peer,
                               "the world still drives a peer: destroy the peer first");
    delete world;
    return SHOAL_OK;
  });
}

int shoal_world_add_sphere(shoal_world* world, uint32_t object, float radius, float mass,
                           const shoal_object_state* initial) {
  return guarded(__func__, [&] {
    shoal_world& w = require(world, "world");
    const shoal_object_state& state = require(initial, "initial");
    shoal_c::refuse_if_driving(w.driving_peer, shoal_c::kAddWhileDriving);
    w.physics.add_sphere(object, radius, mass, shoal_c::to_cpp(state));
    return SHOAL_OK;
  });
}

int shoal_world_add_box(shoal_world* world, uint32_t object, float half_x, float half_y,
                        float half_z, float mass, const shoal_object_state* initial) {
  return guarded(__func__, [&] {
    shoal_world& w = require(world, "world");
    const shoal_object_state& state = require(initial, "initial");
    shoal_c::refuse_if_driving(w.driving_peer, shoal_c::kAddWhileDriving);
    w.physics.add_box(object, {half_x, half_y, half_z}, mass, shoal_c::to_cpp(state));
    return SHOAL_OK;
  });
}

}  // extern "C"
