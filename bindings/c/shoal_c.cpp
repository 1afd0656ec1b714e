// SPDX-License-Identifier: MIT
// The library-wide part of the C API: its version, the per-thread error message, plain values.
#include <cstring>
#include <string>

#include "boundary.hpp"
#include "convert.hpp"
#include "shoal/shoal.h"
#include "shoal/shoal_box2d.h"
#include "shoal/shoal_bullet.h"
#include "shoal/version.hpp"

#ifndef SHOAL_VERSION_STRING
#error "SHOAL_VERSION_STRING must be defined by the build (the project's version)"
#endif

namespace shoal_c {
namespace {

// Per thread, so that two threads failing at once each read their own message.
thread_local std::string last_error;

// Every struct of the C headers by name, for shoal_struct_size: what a binding lays out itself.
#define SHOAL_C_STRUCT(name) {#name, sizeof(name)}
struct NamedSize {
  const char* name;
  std::size_t size;
};
constexpr NamedSize kStructSizes[] = {
    SHOAL_C_STRUCT(shoal_vec3), SHOAL_C_STRUCT(shoal_quat), SHOAL_C_STRUCT(shoal_object_state),
    SHOAL_C_STRUCT(shoal_visual_state), SHOAL_C_STRUCT(shoal_input), SHOAL_C_STRUCT(shoal_smoothing_rule),
    SHOAL_C_STRUCT(shoal_smoothing_entry), SHOAL_C_STRUCT(shoal_peer_config), SHOAL_C_STRUCT(shoal_world_config),
    SHOAL_C_STRUCT(shoal_body_input), SHOAL_C_STRUCT(shoal_simulation_callbacks), SHOAL_C_STRUCT(shoal_spawn_callbacks),
    SHOAL_C_STRUCT(shoal_link_conditions), SHOAL_C_STRUCT(shoal_conditioner), SHOAL_C_STRUCT(shoal_address),
    SHOAL_C_STRUCT(shoal_enet_config), SHOAL_C_STRUCT(shoal_relay_config), SHOAL_C_STRUCT(shoal_relay_session),
    SHOAL_C_STRUCT(shoal_hybrid_config), SHOAL_C_STRUCT(shoal_transport_event), SHOAL_C_STRUCT(shoal_link_stats),
    SHOAL_C_STRUCT(shoal_transport_callbacks), SHOAL_C_STRUCT(shoal_lan_config), SHOAL_C_STRUCT(shoal_lan_session),
    SHOAL_C_STRUCT(shoal_lan_stats), SHOAL_C_STRUCT(shoal_join_progress), SHOAL_C_STRUCT(shoal_event),
    SHOAL_C_STRUCT(shoal_stats), SHOAL_C_STRUCT(shoal_game_stats), SHOAL_C_STRUCT(shoal_remote_stats),
    SHOAL_C_STRUCT(shoal_spawned_object), SHOAL_C_STRUCT(shoal_ownership_change),
    SHOAL_C_STRUCT(shoal_object_diagnosis), SHOAL_C_STRUCT(shoal_box2d_config), SHOAL_C_STRUCT(shoal_bullet_config),
};
#undef SHOAL_C_STRUCT

}  // namespace

int record_error(const char* function, int status, const char* message, const char* suffix) noexcept {
  try {
    last_error.assign(function).append(": ").append(message).append(suffix);
  } catch (...) {
    // No memory left even for the message: an empty one still beats losing the status.
    last_error.clear();
  }
  return status;
}

}  // namespace shoal_c

extern "C" {

const char* shoal_version(void) { return SHOAL_VERSION_STRING; }

int shoal_wire_version(void) { return shoal::wire_version(); }

int32_t shoal_c_api_version(void) { return SHOAL_C_API_VERSION; }

int32_t shoal_c_abi_version(void) { return SHOAL_C_ABI_VERSION; }

size_t shoal_struct_size(const char* name) {
  if (name == nullptr) return 0;
  for (const shoal_c::NamedSize& entry : shoal_c::kStructSizes) {
    if (std::strcmp(entry.name, name) == 0) return entry.size;
  }
  return 0;
}

const char* shoal_last_error(void) { return shoal_c::last_error.c_str(); }

const char* shoal_error_name(int status) {
  switch (status) {
    case SHOAL_OK: return "SHOAL_OK";
    case SHOAL_ERROR_NULL_ARGUMENT: return "SHOAL_ERROR_NULL_ARGUMENT";
    case SHOAL_ERROR_INVALID_ARGUMENT: return "SHOAL_ERROR_INVALID_ARGUMENT";
    case SHOAL_ERROR_UNKNOWN_OBJECT: return "SHOAL_ERROR_UNKNOWN_OBJECT";
    case SHOAL_ERROR_INVALID_STATE: return "SHOAL_ERROR_INVALID_STATE";
    case SHOAL_ERROR_NETWORK: return "SHOAL_ERROR_NETWORK";
    case SHOAL_ERROR_FRAME_NOT_HELD: return "SHOAL_ERROR_FRAME_NOT_HELD";
    case SHOAL_ERROR_OUT_OF_MEMORY: return "SHOAL_ERROR_OUT_OF_MEMORY";
    case SHOAL_ERROR_INTERNAL: return "SHOAL_ERROR_INTERNAL";
    default: return status > 0 ? "not an error" : "an unknown error code";
  }
}

int shoal_object_state_default(shoal_object_state* state) {
  return shoal_c::guarded(__func__, [&] {
    shoal_c::require(state, "state") = shoal_c::to_c(shoal::ObjectState{});
    return SHOAL_OK;
  });
}

}  // extern "C"
