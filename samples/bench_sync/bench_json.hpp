// SPDX-License-Identifier: MIT
// shoal-bench-sync --json: every figure of parts 1 to 5 and 7 as JSON.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "bench_verdicts.hpp"
#include "projectile_cost.hpp"
#include "settle_cost.hpp"
#include "spatial_cost.hpp"

namespace shoal::bench {

/// Throws std::runtime_error when the file cannot be written.
void write_json(const std::string& path, const std::vector<OverheadResult>& overhead,
                const std::vector<CatchupResult>& catchup, const SettleCost& settle,
                const std::vector<SpatialCost>& spatial, const std::vector<EngineVerdict>& verdicts,
                const std::optional<ProjectileCost>& projectiles);

}  // namespace shoal::bench
