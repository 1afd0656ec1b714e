// SPDX-License-Identifier: MIT
#include "bench_json.hpp"

#include <fstream>
#include <stdexcept>

#ifndef SHOAL_BENCH_BUILD_TYPE
#define SHOAL_BENCH_BUILD_TYPE "unknown"
#endif

namespace shoal::bench {
namespace {

void write_figures(std::ofstream& out, const char* name, const OverheadFigures& f) {
  out << "\"" << name << "\": {\"blocks\": " << f.blocks << ", \"physics_step_us\": " << f.step_us
      << ", \"sdk_us_per_frame\": " << f.sdk_us << ", \"ratio\": " << f.ratio
      << ", \"ratio_q1\": " << f.ratio_low << ", \"ratio_q3\": " << f.ratio_high << "}";
}

}  // namespace

void write_json(const std::string& path, const std::vector<OverheadResult>& overhead,
                const std::vector<CatchupResult>& catchup, const SettleCost& settle,
                const std::vector<SpatialCost>& spatial, const std::vector<EngineVerdict>& verdicts,
                const std::optional<ProjectileCost>& projectiles) {
  std::ofstream out(path);
  if (!out) throw std::runtime_error("cannot write --json file '" + path + "'");
  out << "{\n  \"build_type\": \"" << SHOAL_BENCH_BUILD_TYPE << "\",\n"
      << "  \"targets\": {\"sdk_overhead_ratio_at_1000\": 0.1, \"catchup_ratio\": 1.1},\n"
      << "  \"sdk_overhead\": [\n";
  for (std::size_t i = 0; i < overhead.size(); ++i) {
    const OverheadResult& r = overhead[i];
    out << "    {\"physics\": \"" << samples::name(r.physics) << "\", \"objects\": " << r.objects
        << ", \"peers\": " << r.peers << ", \"frames\": " << r.frames
        << ", \"input_delay_frames\": " << r.input_delay_frames << ", \"freeze_outside_simulated_region\": "
        << (r.freeze_outside_simulated_region ? "true" : "false") << ", ";
    write_figures(out, "shared", r.shared);
    out << ", ";
    write_figures(out, "alone", r.alone);
    out << ", \"overrides_per_s\": " << r.overrides_per_s
        << ", \"catchup_frames_per_s\": " << r.catchup_frames_per_s
        << ", \"ownership_changes_per_s\": " << r.ownership_changes_per_s
        << ", \"snaps_per_s\": " << r.snaps_per_s << ", \"owned_objects\": " << r.owned_objects
        << ", \"kbps_out\": " << r.kbps_out << ", \"kbps_in\": " << r.kbps_in
        << ", \"bytes_per_object\": " << r.bytes_per_object
        << ", \"phases_us_per_frame\": {\"receive\": " << r.phases.receive_us
        << ", \"correct\": " << r.phases.correct_us << ", \"step\": " << r.phases.step_us
        << ", \"authority\": " << r.phases.authority_us << ", \"send\": " << r.phases.send_us
        << ", \"present\": " << r.phases.present_us << ", \"session\": " << r.phases.session_us
        << ", \"sdk\": " << r.phases.sdk_us() << ", \"physics\": " << r.phases.physics_us
        << ", \"resimulated_physics\": " << r.phases.resimulated_physics_us << "}";
    out << ", \"security\": {\"update_us_secured\": " << r.security.update_us_secured
        << ", \"update_us_clear\": " << r.security.update_us_clear << ", \"security_us\": " << r.security.security_us
        << ", \"share\": " << r.security.share << ", \"messages_per_frame\": " << r.security.messages_per_frame << "}";
    if (r.recording.measured) {
      out << ", \"recording\": {\"update_us_off\": " << r.recording.update_us_off
          << ", \"update_us_on\": " << r.recording.update_us_on << ", \"share\": " << r.recording.share
          << ", \"bytes_per_s\": " << r.recording.bytes_per_s << "}";
    }
    out << "}" << (i + 1 < overhead.size() ? "," : "") << "\n";
  }
  out << "  ],\n  \"catchup\": [\n";
  for (std::size_t i = 0; i < catchup.size(); ++i) {
    const CatchupResult& r = catchup[i];
    out << "    {\"physics\": \"" << samples::name(r.physics) << "\", \"objects\": " << r.objects
        << ", \"frames\": " << kCatchupDepth
        << ", \"reps\": " << r.reps << ", \"straight_us\": " << r.straight_us
        << ", \"catchup_us\": " << r.catchup_us << ", \"ratio\": " << r.ratio
        << ", \"ratio_q1\": " << r.ratio_low << ", \"ratio_q3\": " << r.ratio_high
        << ", \"ratio_to_bare_physics\": " << r.ratio_to_physics << "}"
        << (i + 1 < catchup.size() ? "," : "") << "\n";
  }
  out << "  ],\n  \"settle\": {\"states\": " << settle.states << ", \"reps\": " << settle.reps
      << ", \"one_at_a_time_ns\": " << settle.one_at_a_time_ns << ", \"together_ns\": " << settle.together_ns
      << ", \"ratio\": " << settle.ratio << "},\n";
  write_spatial_json(out, spatial);
  if (projectiles) {
    const ProjectileCost& c = *projectiles;
    out << "  \"projectiles\": {\"physics\": \"reference\", \"objects\": " << c.objects << ", \"peers\": " << c.peers
        << ", \"per_second_per_bot\": " << c.rate << ", \"frames\": " << c.frames << ", \"runs\": " << c.runs
        << ", \"sdk_us_per_frame_without\": " << c.sdk_us_without << ", \"sdk_us_per_frame_with\": " << c.sdk_us_with
        << ", \"physics_step_us_without\": " << c.step_us_without << ", \"physics_step_us_with\": " << c.step_us_with
        << ", \"catchup_frames_per_s_without\": " << c.catchup_frames_per_s_without
        << ", \"catchup_frames_per_s_with\": " << c.catchup_frames_per_s_with << ", \"live_spawned\": " << c.live << ", \"spawns_per_s\": " << c.spawns_per_s
        << ", \"sdk_ns_per_fixed_body\": " << c.ns_per_body << ", \"sdk_ns_per_live_spawned\": " << c.ns_per_spawned
        << "},\n";
  }
  out << "  \"targets_met\": [\n";
  for (std::size_t i = 0; i < verdicts.size(); ++i) {
    const EngineVerdict& v = verdicts[i];
    out << "    {\"physics\": \"" << samples::name(v.physics) << "\", \"sdk_overhead\": {\"shared\": "
        << (v.shared_met() ? "true" : "false") << ", \"alone\": " << (v.alone_met() ? "true" : "false")
        << ", \"alone_with_input_delay\": " << (v.alone_delayed_met() ? "true" : "false")
        << "}, \"catchup\": " << (v.catchup_met() ? "true" : "false") << ", \"worst_catchup_ratio\": "
        << v.worst_catchup << "}" << (i + 1 < verdicts.size() ? "," : "") << "\n";
  }
  out << "  ]\n}\n";
  if (!out) throw std::runtime_error("writing --json file '" + path + "' failed");
}

}  // namespace shoal::bench
