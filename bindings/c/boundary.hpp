// SPDX-License-Identifier: MIT
// The C boundary: no C++ exception may reach a C caller, so every exported function runs its
// body inside guarded(), which turns whatever is thrown into a status code and keeps the message
// for shoal_last_error() on the calling thread.
#pragma once

#include <cstdint>
#include <limits>
#include <new>
#include <stdexcept>
#include <string>

#include "shoal/shoal.h"

namespace shoal_c {

/// A failure the bindings detect themselves (a NULL pointer, a handle in use), with its status.
class Error : public std::runtime_error {
 public:
  Error(int status, const std::string& message) : std::runtime_error(message), status_(status) {}
  int status() const { return status_; }

 private:
  int status_;
};

/// Stores "<function>: <message><suffix>" as this thread's last error and returns `status`.
int record_error(const char* function, int status, const char* message,
                 const char* suffix = "") noexcept;

/// `pointer`, or an Error naming the parameter when it is NULL.
template <class T>
T& require(T* pointer, const char* name) {
  if (pointer == nullptr) {
    throw Error(SHOAL_ERROR_NULL_ARGUMENT,
                std::string(name) + " is NULL: expected a valid pointer or handle");
  }
  return *pointer;
}

/// `*pointer` (see require), or an Error naming the struct and both sizes when its struct_size
/// is not this library's sizeof(T): a caller built against another shoal.h, whose fields would
/// be read at the wrong places.
template <class T>
const T& require_sized(const T* pointer, const char* name, const char* type) {
  const T& value = require(pointer, name);
  if (value.struct_size != sizeof(T)) {
    throw Error(SHOAL_ERROR_INVALID_ARGUMENT,
                std::string(type) + ".struct_size is " + std::to_string(value.struct_size) + ", but this library's " +
                    type + " is " + std::to_string(sizeof(T)) + " bytes (C API " +
                    std::to_string(SHOAL_C_API_VERSION) + "): expected sizeof(" + type +
                    ") as its _default function sets it, from the shoal.h this library was built with");
  }
  return value;
}

/// `value`, or an Error naming `field` unless it is finite and >= 0 (> 0 when `positive`).
inline float require_finite(float value, const char* field, bool positive) {
  if (!(value >= 0) || value == std::numeric_limits<float>::infinity() || (positive && value == 0)) {
    throw Error(SHOAL_ERROR_INVALID_ARGUMENT, std::string(field) + " is " + std::to_string(value) +
                                                  (positive ? ", expected a finite value > 0" : ", expected a finite value >= 0"));
  }
  return value;
}

/// `timeout_ms`, or an Error when it is negative: some pollers take that as "forever", a hang
/// rather than a wait.
inline int require_timeout(std::int32_t timeout_ms) {
  if (timeout_ms < 0) {
    throw Error(SHOAL_ERROR_INVALID_ARGUMENT, "timeout_ms is " + std::to_string(timeout_ms) + ": expected 0 or more");
  }
  return timeout_ms;
}

/// Runs `body` (which returns a status) and turns any exception into a status. What
/// std::invalid_argument means depends on the call: a bad value in general, an unknown object
/// where the only argument the C++ call checks is an object id.
template <class Body>
int guarded(const char* function, Body&& body,
            int invalid_argument_status = SHOAL_ERROR_INVALID_ARGUMENT) noexcept {
  try {
    return body();
  } catch (const Error& e) {
    return record_error(function, e.status(), e.what());
  } catch (const std::invalid_argument& e) {
    const bool object = invalid_argument_status == SHOAL_ERROR_UNKNOWN_OBJECT;
    return record_error(function, invalid_argument_status, e.what(),
                        object ? ": expected the id of a body the world or simulation held when "
                                 "the peer was created"
                               : "");
  } catch (const std::out_of_range& e) {
    return record_error(function, SHOAL_ERROR_INVALID_ARGUMENT, e.what());
  } catch (const std::logic_error& e) {  // the C++ API's "not now" (host twice, join twice)
    return record_error(function, SHOAL_ERROR_INVALID_STATE, e.what());
  } catch (const std::bad_alloc&) {
    return record_error(function, SHOAL_ERROR_OUT_OF_MEMORY, "out of memory");
  } catch (const std::runtime_error& e) {  // what the transports throw when the system refuses
    return record_error(function, SHOAL_ERROR_NETWORK, e.what());
  } catch (const std::exception& e) {
    return record_error(function, SHOAL_ERROR_INTERNAL, e.what());
  } catch (...) {
    return record_error(function, SHOAL_ERROR_INTERNAL, "an exception that is not a std::exception");
  }
}

}  // namespace shoal_c
