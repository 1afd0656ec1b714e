// SPDX-License-Identifier: MIT
// A body's user bytes, and a spawned object's spawn bytes, as messages carry them:
// fixed-capacity values, so records, baseline objects and spawns stay plain values without a
// heap allocation each.
#pragma once

#include "core/fixed_bytes.hpp"
#include "shoal/simulation.hpp"

namespace shoal::wire {

using UserBytes = FixedBytes<kMaxUserBytes>;
using SpawnBytes = FixedBytes<kMaxSpawnBytes>;

}  // namespace shoal::wire
