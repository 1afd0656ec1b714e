// SPDX-License-Identifier: MIT
// Which engine a sample runs on: the --physics flag of shoal-lan-match, shoal-arena,
// shoal-bench-sync and shoal-bench-cubes.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace shoal::samples {

enum class Physics { reference, bullet, box2d };

const char* name(Physics physics);
/// Whether this build has the engine's adapter (shoal::bullet, shoal::box2d; the reference
/// physics always).
bool built_with(Physics physics);
/// Every engine this build has, reference first.
std::vector<Physics> built_engines();
/// The engine a --physics value names, or nullopt for an unknown name.
std::optional<Physics> physics_named(std::string_view name);
/// Why `value` cannot be used as --physics: unknown ("expected reference, bullet or box2d"),
/// or an engine this build left out (and which package brings it); empty when it can.
std::string physics_problem(std::string_view value);
/// The engines a comma-separated list names ("reference,bullet"), each once, in order. Throws
/// std::invalid_argument with physics_problem()'s words for a name that cannot be used.
std::vector<Physics> physics_list(std::string_view list);

}  // namespace shoal::samples
