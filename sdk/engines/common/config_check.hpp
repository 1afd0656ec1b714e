// SPDX-License-Identifier: MIT
// The checks of the config fields both adapters have (dt, the built-in push, history_frames),
// with messages that name the config, the field, its value and what is expected.
#pragma once

#include <cmath>
#include <stdexcept>
#include <string>

namespace shoal::engines {

/// Throws std::invalid_argument "CONFIG: FIELD is VALUE, expected EXPECTED" unless `ok`.
inline void require(bool ok, const char* config, const char* field, float value, const char* expected) {
  if (!ok) {
    throw std::invalid_argument(std::string(config) + ": " + field + " is " + std::to_string(value) +
                                ", expected " + expected);
  }
}

/// Checks the fields every adapter's config shares; `config` names it in messages.
template <class Config>
void check_shared_fields(const char* config, const Config& c) {
  require(std::isfinite(c.dt) && c.dt > 0 && c.dt <= 1, config, "dt", c.dt, "a step in (0, 1] seconds");
  require(std::isfinite(c.push_acceleration) && c.push_acceleration >= 0, config, "push_acceleration",
          c.push_acceleration, "a finite acceleration >= 0");
  require(std::isfinite(c.max_push_speed) && c.max_push_speed >= 0, config, "max_push_speed", c.max_push_speed,
          "a finite speed >= 0");
  require(c.history_frames >= 1 && c.history_frames <= 65536, config, "history_frames",
          static_cast<float>(c.history_frames), "1..65536");
}

}  // namespace shoal::engines
