// SPDX-License-Identifier: MIT
#include "bench_verdicts.hpp"

#include <algorithm>
#include <cstdio>

namespace shoal::bench {

std::vector<EngineVerdict> judge(const std::vector<samples::Physics>& engines,
                                 const std::vector<OverheadResult>& overhead,
                                 const std::vector<CatchupResult>& catchup) {
  std::vector<EngineVerdict> verdicts;
  for (samples::Physics engine : engines) {
    EngineVerdict v;
    v.physics = engine;
    int most_peers = 0;
    for (const OverheadResult& r : overhead) {
      if (r.physics != engine || r.objects != 1000) continue;
      v.at_1000 = true;
      if (r.input_delay_frames > 0) {
        v.worst_alone_delayed = std::max(v.worst_alone_delayed, r.alone.ratio);
        continue;
      }
      v.worst_shared = std::max(v.worst_shared, r.shared.ratio);
      v.worst_alone = std::max(v.worst_alone, r.alone.ratio);
      if (r.peers >= most_peers) {
        most_peers = r.peers;
        v.step_us = r.alone.step_us;
        v.sdk_us = r.alone.sdk_us;
      }
    }
    for (const CatchupResult& r : catchup) {
      if (r.physics != engine) continue;
      v.catchup_measured = true;
      v.worst_catchup = std::max(v.worst_catchup, r.ratio);
    }
    verdicts.push_back(v);
  }
  return verdicts;
}

void print_verdicts(const std::vector<EngineVerdict>& verdicts, bool freeze) {
  std::printf(
      "\n5. The engines side by side: the physics step and the SDK's share of it at 1,000 objects\n"
      "   (alone, the most peers measured; worst over peer counts), and the worst 8-frame catch-up\n"
      "   ratio over the world sizes measured.\n\n");
  std::printf("%10s | %9s %9s %14s %14s %14s | %13s\n", "engine", "step_us", "sdk_us", "sdk/step alone",
              "sdk/step shrd", "delayed alone", "catchup_ratio");
  for (const EngineVerdict& v : verdicts) {
    if (v.at_1000) {
      std::printf("%10s | %9.1f %9.1f %13.1f%% %13.1f%% %13.1f%% |", samples::name(v.physics), v.step_us, v.sdk_us,
                  v.worst_alone * 100, v.worst_shared * 100, v.worst_alone_delayed * 100);
    } else {
      std::printf("%10s | %9s %9s %14s %14s %14s |", samples::name(v.physics), "-", "-", "-", "-", "-");
    }
    if (v.catchup_measured) {
      std::printf(" %12.3fx\n", v.worst_catchup);
    } else {
      std::printf(" %13s\n", "-");
    }
  }
  if (!freeze) std::printf("\n(--no-freeze: the verdicts below are for that setting, not the defaults)");
  std::printf("\n");
  for (const EngineVerdict& v : verdicts) {
    std::printf("targets (%s): ", samples::name(v.physics));
    if (v.at_1000) {
      std::printf("SDK overhead <= 10%% of a step at 1,000 objects: shared %s (worst %.1f%%), alone %s (worst %.1f%%)",
                  v.shared_met() ? "met" : "NOT met", v.worst_shared * 100, v.alone_met() ? "met" : "NOT met",
                  v.worst_alone * 100);
      std::printf("; with %d frames of input delay, alone %s (worst %.1f%%)", kBenchInputDelayFrames,
                  v.alone_delayed_met() ? "met" : "NOT met", v.worst_alone_delayed * 100);
    } else {
      std::printf("SDK overhead <= 10%% of a step at 1,000 objects: not measured (no 1,000-object world)");
    }
    std::printf("; catch-up <= 1.1x straight: %s\n", v.catchup_met() ? "met" : "NOT met");
  }
}

}  // namespace shoal::bench
