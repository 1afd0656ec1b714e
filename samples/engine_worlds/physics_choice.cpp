// SPDX-License-Identifier: MIT
#include "physics_choice.hpp"

#include <algorithm>
#include <stdexcept>

namespace shoal::samples {

const char* name(Physics physics) {
  switch (physics) {
    case Physics::reference: return "reference";
    case Physics::bullet: return "bullet";
    case Physics::box2d: return "box2d";
  }
  return "?";
}

bool built_with(Physics physics) {
  switch (physics) {
    case Physics::reference: return true;
#ifdef SHOAL_WITH_BULLET
    case Physics::bullet: return true;
#endif
#ifdef SHOAL_WITH_BOX2D
    case Physics::box2d: return true;
#endif
    default: return false;
  }
}

std::vector<Physics> built_engines() {
  std::vector<Physics> engines;
  for (Physics p : {Physics::reference, Physics::bullet, Physics::box2d}) {
    if (built_with(p)) engines.push_back(p);
  }
  return engines;
}

std::optional<Physics> physics_named(std::string_view value) {
  for (Physics p : {Physics::reference, Physics::bullet, Physics::box2d}) {
    if (value == name(p)) return p;
  }
  return std::nullopt;
}

std::string physics_problem(std::string_view value) {
  const std::optional<Physics> physics = physics_named(value);
  if (!physics) return "unknown engine '" + std::string(value) + "': expected reference, bullet or box2d";
  if (built_with(*physics)) return {};
  const char* package = *physics == Physics::bullet ? "libbullet-dev" : "libbox2d-dev";
  return std::string("this build has no ") + name(*physics) + " adapter: install " + package +
         " (bash cmake/install-deps.sh) and build again";
}

std::vector<Physics> physics_list(std::string_view list) {
  std::vector<Physics> engines;
  std::size_t start = 0;
  while (start <= list.size()) {
    const std::size_t comma = std::min(list.find(',', start), list.size());
    const std::string_view engine = list.substr(start, comma - start);
    if (const std::string problem = physics_problem(engine); !problem.empty()) throw std::invalid_argument(problem);
    const Physics physics = *physics_named(engine);
    if (std::find(engines.begin(), engines.end(), physics) == engines.end()) engines.push_back(physics);
    start = comma + 1;
  }
  return engines;
}

}  // namespace shoal::samples
