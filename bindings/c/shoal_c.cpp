// SPDX-License-Identifier: MIT
// The library-wide part of the C API: its version, the per-thread error message, plain values.
#include <string>

#include "boundary.hpp"
#include "convert.hpp"
#include "shoal/shoal.h"
#include "shoal/version.hpp"

#ifndef SHOAL_VERSION_STRING
#error "SHOAL_VERSION_STRING must be defined by the build (the project's version)"
#endif

namespace shoal_c {
namespace {

// Per thread, so that two threads failing at once each read their own message.
thread_local std::string last_error;

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
