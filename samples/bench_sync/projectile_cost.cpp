// SPDX-License-Identifier: MIT
#include "projectile_cost.hpp"

#include <cstdio>
#include <vector>

#include "medians.hpp"

namespace shoal::bench {

ProjectileCost measure_projectile_cost(int objects, int peers, int frames, int runs) {
  ProjectileCost c{objects, peers, kBenchProjectilesPerSecond, frames, runs};
  WorldSpec spec{objects, peers, samples::Physics::reference};
  spec.spawn_slots = true;
  std::vector<double> without, with, step_without, step_with, catchup_without, catchup_with, live, spawns;
  for (int i = 0; i < runs; ++i) {
    for (const int rate : {0, kBenchProjectilesPerSecond}) {
      spec.projectiles = rate;
      const OverheadResult r = measure_overhead(spec, frames, 7);
      (rate == 0 ? without : with).push_back(r.shared.sdk_us);
      (rate == 0 ? step_without : step_with).push_back(r.shared.step_us);
      (rate == 0 ? catchup_without : catchup_with).push_back(r.catchup_frames_per_s);
      if (rate > 0) {
        live.push_back(r.live_spawned);
        spawns.push_back(r.spawns_per_s);
      }
    }
  }
  c.sdk_us_without = median(without);
  c.sdk_us_with = median(with);
  c.step_us_without = median(step_without);
  c.step_us_with = median(step_with);
  c.catchup_frames_per_s_without = median(catchup_without);
  c.catchup_frames_per_s_with = median(catchup_with);
  c.live = median(live);
  c.spawns_per_s = median(spawns);
  c.ns_per_body = c.sdk_us_without * 1e3 / (objects + peers);
  c.ns_per_spawned = c.live > 0 ? (c.sdk_us_with - c.sdk_us_without) * 1e3 / c.live : 0;
  return c;
}

void print_projectile_cost(const ProjectileCost& c) {
  std::printf(
      "\n7. Objects spawned during play (Peer::spawn): part 1's match on the reference physics, its\n"
      "   world given spawn slots, with the slots left empty and with every bot firing %d\n"
      "   projectiles a second (each removed 3 s later by its owner), %d times each in turn; the\n"
      "   shared run's sdk_us (spawn() and remove() included), medians. Per fixed body: sdk_us\n"
      "   without projectiles over the bodies; per live spawned object: what firing added, over\n"
      "   the spawned objects the timed peer held on average.\n\n",
      c.rate, c.runs);
  std::printf("%8s %6s %7s | %10s %10s | %8s %9s | %10s %10s | %10s %10s | %12s %14s\n", "objects", "peers",
              "frames", "sdk_us", "sdk_us", "live", "spawns/s", "step_us", "step_us", "catchup/s", "catchup/s",
              "ns/body", "ns/spawned");
  std::printf("%23s | %10s %10s | %18s | %10s %10s | %10s %10s |\n", "", "without", "with", "", "without", "with",
              "without", "with");
  std::printf("%8d %6d %7d | %10.1f %10.1f | %8.1f %9.1f | %10.1f %10.1f | %10.1f %10.1f | %12.1f %14.1f\n",
              c.objects, c.peers, c.frames, c.sdk_us_without, c.sdk_us_with, c.live, c.spawns_per_s, c.step_us_without,
              c.step_us_with, c.catchup_frames_per_s_without, c.catchup_frames_per_s_with, c.ns_per_body,
              c.ns_per_spawned);
}

}  // namespace shoal::bench
