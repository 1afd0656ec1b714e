// SPDX-License-Identifier: MIT
// Sync-test mode (as in GGPO): a lone peer rolls back K frames every frame and re-simulates;
// catch-up must reproduce the straight run bit for bit.
#include <doctest/doctest.h>

#include "match_harness.hpp"
#include "shoal/forwarding_simulation.hpp"

using namespace shoal;
using namespace shoal::test;

namespace {

// A simulation that forgets part of its state on restore: catch-up can no longer reproduce
// the straight run, so sync-test mode must notice.
class ForgetfulPhysics final : public ForwardingSimulation {
 public:
  using ForwardingSimulation::ForwardingSimulation;
  void step(Frame f, std::span<const BodyInput> in) override {
    inner().step(f, in);
    ++steps_;
  }
  void write(BodyIndex b, const ObjectState& s) override {
    ObjectState t = s;
    if (steps_ % 7 == 3) t.linear_velocity.x += 1e-3f;  // a hidden, drifting engine state
    inner().write(b, t);
  }

 private:
  int steps_ = 0;
};

std::uint64_t sync_test_desyncs(Simulation& simulation, int k, int frames, int objects) {
  const PeerStats stats = run_sync_test(simulation, k, frames, kFirstBall, objects);
  CHECK(stats.catchup_frames == 0);  // sync-test rollbacks are not corrections
  return stats.desyncs;
}

}  // namespace

TEST_CASE("sync-test mode: catch-up reproduces the straight run for K = 1, 4 and 8 over 10,000 frames") {
  for (int k : {1, 4, 8}) {
    CAPTURE(k);
    ArenaSpec spec{1, 10, 6};
    ReferencePhysics physics(arena_physics(spec));
    build_arena(physics, spec);
    CHECK(sync_test_desyncs(physics, k, 10'000, spec.objects) == 0);
  }
}

TEST_CASE("sync-test mode reports a simulation whose restore is not exact") {
  ArenaSpec spec{1, 10, 6};
  ReferencePhysics inner(arena_physics(spec));
  build_arena(inner, spec);
  ForgetfulPhysics forgetful(inner);
  CHECK(sync_test_desyncs(forgetful, 4, 600, spec.objects) > 0);
}
