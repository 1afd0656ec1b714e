// SPDX-License-Identifier: MIT
// The auditor's copy of the test arena: the world every audited test match plays in, with the
// peers' default snapshot encoding. Each test picks its own sampling.
#pragma once

#include <memory>

#include "shoal/audit.hpp"
#include "peer/match_harness.hpp"

namespace shoal::test {

inline AuditConfig arena_audit_config(const ArenaSpec& spec) {
  AuditConfig c;
  c.world = [spec] {
    auto world = std::make_unique<ReferencePhysics>(arena_physics(spec));
    build_arena(*world, spec);
    return world;
  };
  c.snapshots = PeerConfig{}.snapshots;
  return c;
}

}  // namespace shoal::test
