// SPDX-License-Identifier: MIT
// The world is the bench arena stepped by the reference physics, each ball pushed by the match's
// Bot: most objects at rest, the balls and what they knock moving, as in a match. Every method
// gets each frame's states as the authority layer does (the history's newest row) and rebuilds
// whatever it keeps from them, since bodies move every frame; the rebuild is part of its cost.
//
// Per measured frame every method runs `rounds` times, in an order that rotates from round to
// round and frame to frame, so none always comes first (after the physics) or after another;
// the median of its rounds is its figure for the frame, and the median over frames is reported.
#include "spatial_cost.hpp"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>

#include "bench_world.hpp"
#include "medians.hpp"
#include "region_methods.hpp"
#include "shoal/authority_config.hpp"

namespace shoal::bench {
namespace {

constexpr int kFrames = 180;
constexpr int kRounds = 3;
constexpr Frame kWarmupFrames = 120;  // balls under way, every index warm (the tree's order settled)
constexpr std::uint64_t kSeed = 7;
// The grid's cells: the physics' own 1 m, and the size that suits these queries best. Of 1, 2,
// 4 and 8 m, 4 m was the fastest in total at 1,000 and 5,000 objects: smaller cells make every
// rebuild dearer (a body covers more of them) and walk more cells per core or contact query.
// The simulated sphere (45 m across) spans more cells than SpatialGrid will walk below 8 m, so
// it tests every body instead; at 8 m it walks the cells, which took two to five times as long.
constexpr float kGridCells[] = {1.0f, 4.0f};

void print_cost(double us) {
  if (us < 0) {
    std::printf(" %9s", "-");
  } else {
    std::printf(" %9.2f", us);
  }
}

struct Samples {
  std::vector<double> rebuild, core, simulated, contact, together, total, ratio;
};

double median_ns_to_us(std::vector<std::int64_t> ns) {
  std::vector<double> values(ns.begin(), ns.end());
  return median(values) * 1e-3;
}

std::string where(const RegionMethod& method, const char* query, std::size_t controlled, Frame frame) {
  return "part 4: " + method.name() + " found other bodies than the fused scan for the " + query +
         " query of controlled body " + std::to_string(controlled) + " at frame " + std::to_string(frame);
}

// Every body of `part` is in a or in b (both sorted).
bool within(const std::vector<BodyIndex>& part, const std::vector<BodyIndex>& a,
            const std::vector<BodyIndex>& b) {
  return std::all_of(part.begin(), part.end(), [&](BodyIndex x) {
    return std::binary_search(a.begin(), a.end(), x) || std::binary_search(b.begin(), b.end(), x);
  });
}

// Every method that answers the queries must find the fused scan's sets (it keeps its lists in
// body order; the indexes' lists are sorted here, out of the timing). RegionBuilder's regions
// come from exact tests of the same candidates, so they must lie within them.
void check_answers(const std::vector<std::unique_ptr<RegionMethod>>& methods,
                   std::vector<std::vector<RegionAnswers>>& answers, Frame frame) {
  const std::vector<RegionAnswers>& reference = answers[0];
  for (std::size_t m = 1; m < methods.size(); ++m) {
    for (std::size_t k = 0; k < reference.size(); ++k) {
      RegionAnswers& a = answers[m][k];
      const RegionAnswers& want = reference[k];
      std::sort(a.core.begin(), a.core.end());
      std::sort(a.contact.begin(), a.contact.end());
      if (methods[m]->answers_queries()) {
        if (a.core != want.core) throw std::runtime_error(where(*methods[m], "core", k, frame));
        if (a.simulated != want.simulated) throw std::runtime_error(where(*methods[m], "simulated", k, frame));
        if (a.contact != want.contact) throw std::runtime_error(where(*methods[m], "contact", k, frame));
        continue;
      }
      bool simulated_within = a.simulated.size() == want.simulated.size();
      for (std::size_t b = 0; simulated_within && b < a.simulated.size(); ++b) {
        simulated_within = a.simulated[b] == 0 || want.simulated[b] != 0;
      }
      if (!simulated_within || !within(a.core, want.core, want.contact) ||
          !within(a.contact, want.contact, {})) {
        throw std::runtime_error("part 4: RegionBuilder's regions of controlled body " + std::to_string(k) +
                                 " at frame " + std::to_string(frame) + " reach past the scan's candidates");
      }
    }
  }
}

}  // namespace

SpatialCost measure_spatial_cost(int objects, int controlled, int frames, int rounds) {
  const WorldSpec spec{objects, controlled};
  const std::unique_ptr<samples::EngineWorld> arena = build_arena(spec);
  Simulation& physics = arena->simulation();
  const std::size_t count = physics.body_count();
  const auto balls = static_cast<std::size_t>(controlled);
  std::vector<float> radii(count);
  for (BodyIndex b = 0; b < count; ++b) radii[b] = physics.bounding_radius(b);
  std::vector<Bot> bots;
  for (std::size_t p = 0; p < balls; ++p) bots.emplace_back(kSeed * 31 + p, objects, *arena);
  const AuthorityConfig config;

  std::vector<std::unique_ptr<RegionMethod>> methods;
  methods.push_back(make_fused_scan());  // the reference, first
  methods.push_back(make_scan());
  for (const float cell : kGridCells) methods.push_back(make_grid(cell));
  methods.push_back(make_tree());
  methods.push_back(make_region_builder(config));
  const std::size_t method_count = methods.size();
  std::vector<std::vector<RegionAnswers>> answers(method_count, std::vector<RegionAnswers>(balls));
  std::vector<Samples> samples(method_count);
  std::vector<std::vector<PhaseTimes>> round_times(method_count,
                                                   std::vector<PhaseTimes>(static_cast<std::size_t>(rounds)));

  std::vector<ObjectState> states(count);
  std::vector<BodyIndex> touched;
  std::vector<BodyInput> inputs(balls);
  std::vector<RegionQuery> queries(balls);
  SpatialCost result;
  result.objects = objects;
  result.controlled = controlled;
  result.frames = frames;
  result.rounds = rounds;
  for (Frame frame = 0; frame < kWarmupFrames + frames; ++frame) {
    for (std::size_t p = 0; p < balls; ++p) {
      const auto ball = static_cast<BodyIndex>(p);
      const auto target = static_cast<BodyIndex>(balls + (bots[p].target(frame) - kFirstObject));
      inputs[p] = {ball, bots[p].toward(physics.read(ball).position, physics.read(target).position)};
    }
    physics.step(frame, inputs);
    for (BodyIndex b = 0; b < count; ++b) states[b] = physics.read(b);
    touched.clear();
    if (const auto changed = physics.changed_bodies()) {
      touched.assign(changed->begin(), changed->end());
    } else {
      for (BodyIndex b = 0; b < count; ++b) touched.push_back(b);
    }
    for (std::size_t k = 0; k < balls; ++k) {
      queries[k] = region_query(static_cast<BodyIndex>(k), states[k], radii[k], config);
    }
    const RegionFrame world{states, radii, touched, queries, config.T_predict};
    if (frame < kWarmupFrames) {
      for (std::size_t m = 0; m < method_count; ++m) methods[m]->run(world, answers[m]);
      continue;
    }

    for (std::size_t round = 0; round < round_times[0].size(); ++round) {
      for (std::size_t i = 0; i < method_count; ++i) {
        const std::size_t m = (static_cast<std::size_t>(frame) + round + i) % method_count;
        round_times[m][round] = methods[m]->run(world, answers[m]);
      }
    }
    check_answers(methods, answers, frame);

    for (std::size_t m = 0; m < method_count; ++m) {
      auto phase = [&](std::int64_t PhaseTimes::*field) {
        std::vector<std::int64_t> ns;
        for (const PhaseTimes& t : round_times[m]) ns.push_back(t.*field);
        return median_ns_to_us(ns);
      };
      std::vector<std::int64_t> totals;
      for (const PhaseTimes& t : round_times[m]) totals.push_back(t.total());
      Samples& s = samples[m];
      s.rebuild.push_back(phase(&PhaseTimes::rebuild));
      s.core.push_back(phase(&PhaseTimes::core));
      s.simulated.push_back(phase(&PhaseTimes::simulated));
      s.contact.push_back(phase(&PhaseTimes::contact));
      s.together.push_back(phase(&PhaseTimes::together));
      s.total.push_back(median_ns_to_us(totals));
      s.ratio.push_back(s.total.back() / samples[0].total.back());
    }
    for (const ObjectState& state : states) result.moving += state.at_rest ? 0 : 1;
    for (const RegionAnswers& a : answers[0]) {
      result.core_found += static_cast<double>(a.core.size());
      result.simulated_found += static_cast<double>(std::count(a.simulated.begin(), a.simulated.end(), 1));
      result.contact_found += static_cast<double>(a.contact.size());
    }
  }
  const double measured = frames;
  result.moving /= measured;
  result.core_found /= measured * controlled;
  result.simulated_found /= measured * controlled;
  result.contact_found /= measured * controlled;
  for (std::size_t m = 0; m < method_count; ++m) {
    const Samples& s = samples[m];
    MethodCost c;
    c.method = methods[m]->name();
    c.rebuild_us = median(s.rebuild);
    if (median(s.together) > 0) {
      c.together_us = median(s.together);
    } else {
      c.core_us = median(s.core);
      c.simulated_us = median(s.simulated);
      c.contact_us = median(s.contact);
    }
    c.total_us = median(s.total);
    c.ratio = median(s.ratio);
    result.methods.push_back(c);
  }
  return result;
}

}  // namespace shoal::bench

namespace shoal::bench {

std::vector<SpatialCost> print_spatial_costs(const std::vector<int>& objects, const std::vector<int>& balls) {
  const AuthorityConfig config;
  std::printf(
      "\n4. Spatial index for region queries: for every controlled body (ball), the bodies whose\n"
      "   bounding sphere is within its core (max(r_min, |v| T) + hysteresis = %.1f m at rest)\n"
      "   and its simulated region (+ %.0f m), and those whose swept sphere over T_predict (%.1f s)\n"
      "   overlaps its own (+ hysteresis): contact candidates. Found by scans over structure-of-\n"
      "   arrays copies (fused: one pass per ball for the three, as RegionBuilder's), a hashed\n"
      "   grid (SpatialGrid) and a tree of bounding volumes (BoundingTree), each\n"
      "   rebuilt every frame from the states; grid and tree index the swept spheres and test\n"
      "   bounding spheres after. Bot-driven arena (ReferencePhysics), %d frames after a warm-up,\n"
      "   the methods alternating %d times a frame; medians, us per frame for all the balls; the\n"
      "   sets are checked to be equal. RegionBuilder: what the authority layer runs today\n"
      "   (rebuild_touched, then compute() per ball with its exact tests), for reference.\n\n",
      static_cast<double>(config.r_min + config.hysteresis), static_cast<double>(config.simulated_radius),
      static_cast<double>(config.T_predict), kFrames, kRounds);
  std::printf("%8s %6s %7s %23s | %-14s %9s %9s %9s %9s %9s %9s %9s\n", "objects", "balls", "moving",
              "found/ball core sim ct", "method", "rebuild", "core", "simulated", "contact", "together",
              "total", "vs_fused");
  std::vector<SpatialCost> results;
  for (const int world : objects) {
    for (const int controlled : balls) {
      const SpatialCost r = measure_spatial_cost(world, controlled, kFrames, kRounds);
      for (std::size_t m = 0; m < r.methods.size(); ++m) {
        const MethodCost& c = r.methods[m];
        if (m == 0) {
          std::printf("%8d %6d %7.1f %7.1f %7.1f %7.1f", r.objects, r.controlled, r.moving, r.core_found,
                      r.simulated_found, r.contact_found);
        } else {
          std::printf("%46s", "");
        }
        std::printf(" | %-14s", c.method.c_str());
        for (const double us : {c.rebuild_us, c.core_us, c.simulated_us, c.contact_us, c.together_us, c.total_us}) {
          print_cost(us);
        }
        std::printf(" %8.2fx\n", c.ratio);
      }
      std::fflush(stdout);
      results.push_back(r);
    }
  }
  return results;
}

void write_spatial_json(std::ostream& out, const std::vector<SpatialCost>& results) {
  out << "  \"spatial_index\": [\n";
  for (std::size_t i = 0; i < results.size(); ++i) {
    const SpatialCost& r = results[i];
    out << "    {\"objects\": " << r.objects << ", \"balls\": " << r.controlled << ", \"frames\": " << r.frames
        << ", \"moving\": " << r.moving << ", \"found_per_ball\": {\"core\": " << r.core_found
        << ", \"simulated\": " << r.simulated_found << ", \"contact\": " << r.contact_found
        << "}, \"us_per_frame\": {";
    for (std::size_t m = 0; m < r.methods.size(); ++m) {
      const MethodCost& c = r.methods[m];
      out << (m == 0 ? "" : ", ") << "\"" << c.method << "\": {\"rebuild\": " << c.rebuild_us;
      if (c.together_us >= 0) {
        out << ", \"queries\": " << c.together_us;
      } else {
        out << ", \"core\": " << c.core_us << ", \"simulated\": " << c.simulated_us
            << ", \"contact\": " << c.contact_us;
      }
      out << ", \"total\": " << c.total_us << ", \"vs_fused_scan\": " << c.ratio << "}";
    }
    out << "}}" << (i + 1 < results.size() ? "," : "") << "\n";
  }
  out << "  ],\n";
}

}  // namespace shoal::bench
