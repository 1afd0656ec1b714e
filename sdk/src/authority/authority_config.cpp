// SPDX-License-Identifier: MIT
#include "shoal/authority_config.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace shoal {
namespace {

void require(bool ok, const char* field, float value, const char* expected) {
  if (!ok) {
    throw std::invalid_argument(std::string("AuthorityConfig.") + field + " = " +
                                std::to_string(value) + ": expected " + expected);
  }
}

}  // namespace

void validate(const AuthorityConfig& c) {
  // isfinite first: a NaN would pass every comparison written the other way round.
  require(std::isfinite(c.r_min) && c.r_min > 0, "r_min", c.r_min, "a finite radius > 0 m");
  require(std::isfinite(c.T) && c.T >= 0, "T", c.T, "a finite horizon >= 0 s");
  require(std::isfinite(c.T_predict) && c.T_predict >= 0, "T_predict", c.T_predict,
          "a finite horizon >= 0 s");
  require(std::isfinite(c.hysteresis) && c.hysteresis >= 0, "hysteresis", c.hysteresis,
          "a finite distance >= 0 m");
  require(std::isfinite(c.simulated_radius) && c.simulated_radius >= 0, "simulated_radius",
          c.simulated_radius, "a finite distance >= 0 m");
  require(std::isfinite(c.max_owner_changes_per_second) && c.max_owner_changes_per_second > 0,
          "max_owner_changes_per_second", c.max_owner_changes_per_second,
          "a finite rate > 0 per second");
}

}  // namespace shoal
