// SPDX-License-Identifier: MIT
// shoal-doc-figures OUT_DIR: plays the real runs behind the guides' figures and writes their
// data (.dat, for gnuplot) and the SVG diagrams into OUT_DIR. The docs target runs it.
#include <fmt/format.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "diagrams.hpp"
#include "join_timing.hpp"
#include "shoal/version.hpp"
#include "two_peer_match.hpp"

namespace {

void write(const std::string& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
  if (!out) throw std::runtime_error("cannot write " + path);
}

double per_update_us(std::int64_t ns, std::uint64_t updates) {
  return updates == 0 ? 0.0 : static_cast<double>(ns) / 1000.0 / static_cast<double>(updates);
}

}  // namespace

int main(int argc, char** argv) {
  if (shoal::print_version_if_asked(argc, argv, "shoal-doc-figures")) return 0;
  if (argc != 2) {
    std::fprintf(stderr, "usage: shoal-doc-figures OUT_DIR\n");
    return 2;
  }
  const std::string dir = argv[1];
  try {
    const figures::MatchResult match = figures::play_two_peer_match({});
    std::string correction =
        "# t_s owner_z joiner_raw_z joiner_drawn_z confirmed_difference_mm owner_previous_frame_z\n";
    for (const figures::TraceRow& r : match.trace) {
      correction += fmt::format("{:.4f} {:.5f} {:.5f} {:.5f} {:.4f} {:.5f}\n", r.t_s, r.owner_z, r.raw_z, r.drawn_z,
                                r.difference_m < 0 ? -1.0 : r.difference_m * 1000, r.owner_before_z);
    }
    write(dir + "/correction.dat", correction);
    if (match.overrides.empty()) throw std::runtime_error("the traced body was never overridden: no tick to draw");
    // The deepest override shows the most of a catch-up.
    figures::OverrideSeen deepest = match.overrides.front();
    for (const auto& o : match.overrides) deepest = o.depth > deepest.depth ? o : deepest;
    write(dir + "/tick.svg", figures::tick_svg(deepest, match.traced));
    write(dir + "/traced.txt", std::to_string(match.traced) + "\n");
    write(dir + "/scene.svg", figures::scene_svg(match.bodies));

    const shoal::UpdateCost& c = match.joiner.cost;
    write(dir + "/cost.dat",
          fmt::format("# phase microseconds_per_update (the joiner, {} updates)\n"
                      "receive {:.2f}\ncorrect {:.2f}\n\"physics (new frames)\" {:.2f}\n"
                      "\"physics (catch-up)\" {:.2f}\nstep {:.2f}\nauthority {:.2f}\nsend {:.2f}\n"
                      "present {:.2f}\nsession {:.2f}\n",
                      c.updates, per_update_us(c.receive_ns, c.updates), per_update_us(c.correct_ns, c.updates),
                      per_update_us(c.physics_ns, c.updates), per_update_us(c.resimulated_physics_ns, c.updates),
                      per_update_us(c.step_ns, c.updates), per_update_us(c.authority_ns, c.updates),
                      per_update_us(c.send_ns, c.updates), per_update_us(c.present_ns, c.updates),
                      per_update_us(c.session_ns, c.updates)));

    std::string budget =
        "# bytes_per_second_budget host_snapshot_bytes_per_s joiner_overrides joiner_catchup_frames "
        "mean_worst_crate_difference_mm\n";
    for (const int bytes_per_second : {6000, 8000, 12000, 16000, 24000, 32000}) {
      figures::MatchSettings settings;
      settings.bytes_per_second = bytes_per_second;
      const figures::MatchResult run = figures::play_two_peer_match(settings);
      budget += fmt::format("{} {:.0f} {} {} {:.3f}\n", bytes_per_second,
                            static_cast<double>(run.host.snapshot_bytes_sent) / run.seconds, run.joiner.overrides,
                            run.joiner.catchup_frames, run.mean_worst_difference_m * 1000);
    }
    write(dir + "/budget.dat", budget);

    const figures::StepTimes direct = figures::time_direct_join(), relayed = figures::time_relayed_join();
    std::string join = "# step direct_ms relay_ms (when the joiner entered it, loopback)\n";
    const char* steps[] = {"connecting", "meshing", "syncing", "baselines", "joined"};
    // A step the join went through too quickly to be seen in an update (or skipped: two
    // peers have no one to mesh with) is NaN, which gnuplot leaves out.
    const auto ms = [](double v) { return v < 0 ? std::string("NaN") : fmt::format("{:.1f}", v); };
    for (std::size_t i = 0; i < 5; ++i) join += fmt::format("{} {} {}\n", steps[i], ms(direct[i]), ms(relayed[i]));
    write(dir + "/join.dat", join);
    std::printf("shoal-doc-figures: %zu trace rows, %zu overrides of body %u, joined in %.0f ms direct, %.0f ms relayed\n",
                match.trace.size(), match.overrides.size(), match.traced, direct[4], relayed[4]);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "shoal-doc-figures: %s\n", e.what());
    return 1;
  }
  return 0;
}
