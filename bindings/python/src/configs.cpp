// SPDX-License-Identifier: MIT
// PeerConfig and everything in it, with the C++ defaults: timing, comparison tolerances, the
// snapshot encoding and budget, regions and ownership, pacing, spawning, game messages,
// smoothing rules and the log hook. Values are checked where C++ checks them (when a Peer is
// built), and a wrong one raises shoal.InvalidArgument naming the field.
#include <memory>
#include <string_view>

#include <pybind11/functional.h>

#include "bind.hpp"
#include "shoal/peer_config.hpp"

namespace shoal::python {
namespace {

using namespace pybind11::literals;

/// The log hook's Python callable, called from inside a peer's update() (whose GIL is released):
/// takes the GIL back for the call. An exception it raises goes to sys.unraisablehook, as
/// Python does for errors in callbacks nobody can catch, and the peer carries on.
struct PythonLogCallback {
  std::shared_ptr<py::object> function;

  void operator()(LogLevel level, std::string_view text) const {
    py::gil_scoped_acquire gil;
    try {
      (*function)(level, py::str(text.data(), text.size()));
    } catch (py::error_already_set& e) {
      e.discard_as_unraisable(*function);
    }
  }
};

// The callable is released with the GIL held, wherever the last copy of the config goes.
std::shared_ptr<py::object> hold(py::object function) {
  return {new py::object(std::move(function)), [](py::object* held) {
            py::gil_scoped_acquire gil;
            delete held;
          }};
}

void bind_enums(py::module_& m) {
  py::enum_<CatchupScope>(m, "CatchupScope", "What a catch-up re-simulates.")
      .value("region", CatchupScope::region, "the whole simulated region from the overridden frame")
      .value("object", CatchupScope::object, "the overridden objects and what they touch; the rest replays");
  py::enum_<ControlMode>(m, "ControlMode", "Whether an object is driven by a player or only by physics.")
      .value("uncontrolled", ControlMode::uncontrolled)
      .value("controlled", ControlMode::controlled);
  py::enum_<Delivery>(m, "Delivery", "How a game message travels (Peer.send_message).")
      .value("reliable", Delivery::reliable, "arrives once, in the order sent, whatever the network loses")
      .value("unreliable", Delivery::unreliable, "may be lost or reordered; never waits for a lost one");
  py::enum_<LogLevel>(m, "LogLevel", "How much a log line matters.")
      .value("debug", LogLevel::debug)
      .value("info", LogLevel::info)
      .value("warn", LogLevel::warn)
      .value("error", LogLevel::error)
      .value("off", LogLevel::off);
}

void bind_peer_parts(py::module_& m) {
  Struct<CompareTolerance>(m, "CompareTolerance", "When an owner frame differs enough to override this peer's own.")
      .field("exact", &CompareTolerance::exact, "bitwise for every frame; else the tolerances below while moving")
      .field("position_m", &CompareTolerance::position_m, "position difference tolerated while moving")
      .field("rotation_rad", &CompareTolerance::rotation_rad, "orientation difference tolerated while moving")
      .field("linear_velocity_mps", &CompareTolerance::linear_velocity_mps, "linear velocity difference tolerated")
      .field("angular_velocity_radps", &CompareTolerance::angular_velocity_radps, "angular velocity difference tolerated")
      .field("tolerated_frames", &CompareTolerance::tolerated_frames,
             "frames a difference within tolerance may stand before it is caught up on by itself (>= 1)");
  Struct<PaceConfig>(m, "PaceConfig", "Slowing the match's timeline while a peer cannot keep up.")
      .field("enabled", &PaceConfig::enabled, "False: the timeline always runs at tick_hz")
      .field("min_rate", &PaceConfig::min_rate, "the slowest the match may run, as a fraction of tick_hz, (0, 1]")
      .field("lag_frames", &PaceConfig::lag_frames, "frames due and not simulated that count as lagging, >= 1")
      .field("decrease", &PaceConfig::decrease, "the rate is multiplied by this while someone lags, (0, 1)")
      .field("increase", &PaceConfig::increase, "and raised by this once nobody lagged for recover_ms, (0, 1]")
      .field("interval_ms", &PaceConfig::interval_ms, "how often the rate may change, >= 1")
      .field("recover_ms", &PaceConfig::recover_ms, "how long nobody must lag before the match speeds up, >= 1");
  Struct<SpawnConfig>(m, "SpawnConfig", "Limits of objects spawned during play (Peer.spawn).")
      .field("max_objects_per_peer", &SpawnConfig::max_objects_per_peer, "live spawned objects per peer, 1..65535")
      .field("max_spawns_per_second", &SpawnConfig::max_spawns_per_second, "spawns per second one peer may make, 1..10000")
      .field("max_spawn_bytes", &SpawnConfig::max_spawn_bytes, "the most spawn bytes one spawn may carry, 0..MAX_SPAWN_BYTES")
      .field("removed_on_leave", &SpawnConfig::removed_on_leave,
             "types whose objects are removed when their owner leaves (assign a whole list)");
  Struct<AuthorityConfig>(m, "AuthorityConfig", "Core and simulated regions, and how ownership claims are rate-limited.")
      .field("r_min", &AuthorityConfig::r_min, "smallest core radius around a controlled object (m)")
      .field("T", &AuthorityConfig::T, "velocity horizon (s): the core radius is max(r_min, |v| * T)")
      .field("T_predict", &AuthorityConfig::T_predict, "collision prediction horizon (s)")
      .field("hysteresis", &AuthorityConfig::hysteresis, "how much farther out a member may go before it leaves a region (m)")
      .field("simulated_radius", &AuthorityConfig::simulated_radius, "extra radius of the simulated region (m)")
      .field("max_owner_changes_per_second", &AuthorityConfig::max_owner_changes_per_second, "per object")
      .field("default_owner", &AuthorityConfig::default_owner, "owner of what no core holds; NO_PEER = the lowest live id");
  Struct<SnapshotConfig>(m, "SnapshotConfig",
                         "How snapshots are encoded (the same on every peer) and what each remote peer is sent within its "
                         "byte budget.")
      .field("quantize", &SnapshotConfig::quantize, "quantise states on owners and receivers after every step")
      .field("velocities_at_rest", &SnapshotConfig::velocities_at_rest, "also send the zero velocities of resting objects")
      .field("delta", &SnapshotConfig::delta, "encode against the newest state the receiver acknowledged")
      .field("world_min", &SnapshotConfig::world_min, "positions outside the bounds are clamped (and counted)")
      .field("world_max", &SnapshotConfig::world_max, "see world_min")
      .field("position_units_per_m", &SnapshotConfig::position_units_per_m, "position resolution")
      .field("orientation_bits", &SnapshotConfig::orientation_bits, "per smallest-three component, 8..20")
      .field("max_linear_speed_mps", &SnapshotConfig::max_linear_speed_mps, "faster is clamped")
      .field("max_angular_speed_radps", &SnapshotConfig::max_angular_speed_radps, "faster spins are clamped")
      .field("velocity_units_per_mps", &SnapshotConfig::velocity_units_per_mps, "velocity resolution")
      .field("max_baseline_age_frames", &SnapshotConfig::max_baseline_age_frames, "older baselines are not used, 1..1056")
      .field("input_bytes", &SnapshotConfig::input_bytes, "bytes of the game's own input per frame, 0..MAX_INPUT_BYTES")
      .field("prioritize", &SnapshotConfig::prioritize, "send by priority within the budget")
      .field("packet_budget_bytes", &SnapshotConfig::packet_budget_bytes, "largest snapshot datagram, 64..1200")
      .field("bytes_per_second", &SnapshotConfig::bytes_per_second, "per remote peer")
      .field("rest_priority", &SnapshotConfig::rest_priority, "moving objects have priority 1")
      .field("controlled_priority", &SnapshotConfig::controlled_priority, "any peer's controlled object")
      .field("came_to_rest_priority", &SnapshotConfig::came_to_rest_priority, "at rest, until acknowledged at rest")
      .field("settled_refresh_s", &SnapshotConfig::settled_refresh_s, "how rarely acknowledged resting objects are resent")
      .field("coasting_interval_frames", &SnapshotConfig::coasting_interval_frames, "moving objects nobody touches, 1..600")
      .field("lod_near_m", &SnapshotConfig::lod_near_m, "priority falls from 1 here...")
      .field("lod_far_m", &SnapshotConfig::lod_far_m, "...to lod_far_factor here")
      .field("lod_far_factor", &SnapshotConfig::lod_far_factor, "priority factor at and beyond lod_far_m");
  Struct<MessageConfig>(m, "MessageConfig", "Limits of game messages, sent and received (Peer.send_message).")
      .field("max_message_bytes", &MessageConfig::max_message_bytes, "the most bytes one message may carry")
      .field("max_bytes_per_second", &MessageConfig::max_bytes_per_second, "bytes one peer may send per second")
      .field("max_messages_per_second", &MessageConfig::max_messages_per_second, "messages one peer may send per second")
      .field("max_queued", &MessageConfig::max_queued, "messages from one peer waiting for poll_event, 1..4096");
}

void bind_smoothing(py::module_& m) {
  Struct<SmoothingRule>(m, "SmoothingRule", "How corrections of one body type are blended into what is drawn.")
      .field("warp_distance_m", &SmoothingRule::warp_distance_m, "above it the object snaps")
      .field("warp_angle_rad", &SmoothingRule::warp_angle_rad, "above it the orientation snaps")
      .field("blend_threshold_m", &SmoothingRule::blend_threshold_m, "above it the error closes by a fraction per 1/30 s")
      .field("blend_threshold_rad", &SmoothingRule::blend_threshold_rad, "the same for the orientation")
      .field("slow_speed", &SmoothingRule::slow_speed, "m/s: below it the tighter thresholds apply")
      .field("slow_blend_threshold_m", &SmoothingRule::slow_blend_threshold_m, "blend threshold of slow objects")
      .field("slow_blend_threshold_rad", &SmoothingRule::slow_blend_threshold_rad, "the same for the orientation")
      .field("low_speed", &SmoothingRule::low_speed, "m/s")
      .field("high_speed", &SmoothingRule::high_speed, "m/s")
      .field("blend_rate_low_speed", &SmoothingRule::blend_rate_low_speed, "fraction of the error removed per 1/30 s, (0, 1)")
      .field("blend_rate_high_speed", &SmoothingRule::blend_rate_high_speed, "the same above high_speed")
      .field("min_closing_speed_low", &SmoothingRule::min_closing_speed_low, "m/s")
      .field("min_closing_speed_high", &SmoothingRule::min_closing_speed_high, "m/s")
      .field("min_closing_angular_speed_low", &SmoothingRule::min_closing_angular_speed_low, "rad/s")
      .field("min_closing_angular_speed_high", &SmoothingRule::min_closing_angular_speed_high, "rad/s");
  m.def("validate_smoothing_rule", py::overload_cast<const SmoothingRule&>(&validate), "rule"_a,
        "Raises InvalidArgument naming the field when the rule is unusable.");
  m.def("validate_authority_config", py::overload_cast<const AuthorityConfig&>(&validate), "config"_a,
        "Raises InvalidArgument naming the first bad field.");
  py::class_<SmoothingRules>(m, "SmoothingRules", "The rules table, keyed by (object type, control mode), with a default.")
      .def(py::init<SmoothingRule>(), "default_rule"_a = SmoothingRule{})
      .def("set", &SmoothingRules::set, "object_type"_a, "mode"_a, "rule"_a,
           "Adds or replaces the rule of one (type, mode); validates it first.")
      .def("find", &SmoothingRules::find, "object_type"_a, "mode"_a, py::return_value_policy::copy,
           "The rule of (type, mode), or the default rule.")
      .def_property_readonly("default_rule", &SmoothingRules::default_rule, py::return_value_policy::copy,
                             "the rule of types without one of their own")
      .def("__copy__", [](const SmoothingRules& r) { return r; })
      .def("__deepcopy__", [](const SmoothingRules& r, py::handle) { return r; }, "memo"_a);
}

void bind_log(py::module_& m) {
  Struct<LogConfig>(m, "LogConfig",
                    "Where a peer's log lines go: callback(level, text) is called from inside the peer's calls, with the "
                    "GIL held; an exception it raises goes to sys.unraisablehook.")
      .property(
          "callback",
          [](const LogConfig& c) -> py::object {
            if (const auto* python = c.callback.target<PythonLogCallback>()) return *python->function;
            if (!c.callback) return py::none();
            return py::cpp_function(c.callback);
          },
          [](LogConfig& c, py::object function) {
            if (function.is_none()) {
              c.callback = nullptr;
              return;
            }
            if (!PyCallable_Check(function.ptr())) throw py::type_error("LogConfig.callback: expected a callable or None");
            c.callback = PythonLogCallback{hold(std::move(function))};
          },
          "callable(level: LogLevel, text: str), or None (the default: nothing is formatted)")
      .field("level", &LogConfig::level, "the least level passed to the callback");
}

void bind_peer_config(py::module_& m) {
  Struct<PeerConfig>(m, "PeerConfig",
                     "Everything a Peer is configured with; the defaults suit a 60 Hz game. Fields that decide what every "
                     "peer simulates (tick_hz, the snapshot encoding) must be equal on every peer.")
      .field("session", &PeerConfig::session, "peers join only a host of the same session name")
      .field("tick_hz", &PeerConfig::tick_hz, "fixed steps per second, the same on every peer")
      .field("history_frames", &PeerConfig::history_frames, "how far back a correction can re-simulate")
      .field("max_clock_catchup_frames", &PeerConfig::max_clock_catchup_frames, "frames one update may advance when behind")
      .field("max_resimulated_frames", &PeerConfig::max_resimulated_frames, "catch-up work per update, in frames")
      .field("snapshot_interval_frames", &PeerConfig::snapshot_interval_frames, "owners send every N frames")
      .field("rest_snapshot_interval_frames", &PeerConfig::rest_snapshot_interval_frames, "resting objects this rarely")
      .field("input_redundancy", &PeerConfig::input_redundancy, "past inputs carried by each snapshot")
      .field("input_delay_frames", &PeerConfig::input_delay_frames, "frames between set_input and its frame, 0..16")
      .field("checksum_interval_frames", &PeerConfig::checksum_interval_frames, "0 disables desync detection")
      .field("ping_interval_ms", &PeerConfig::ping_interval_ms, "time sync pings")
      .field("rejoin_grace_ms", &PeerConfig::rejoin_grace_ms, "how long a timed-out peer keeps its id and objects")
      .field("join_timeout_ms", &PeerConfig::join_timeout_ms, "how long join() may take, 100..600000")
      .field("compare", &PeerConfig::compare, "when an owner frame differs enough to override")
      .field("snapshots", &PeerConfig::snapshots, "encoding, priority and byte budget")
      .field("catchup", &PeerConfig::catchup, "what a catch-up re-simulates")
      .field("pace", &PeerConfig::pace, "slowing the match while a peer cannot keep up")
      .field("freeze_outside_simulated_region", &PeerConfig::freeze_outside_simulated_region,
             "simulate only the simulated region; freeze the rest")
      .field("authority", &PeerConfig::authority, "regions, ownership claims and hand-over")
      .field("smoothing", &PeerConfig::smoothing, "how corrections are blended into what is drawn")
      .field("spawning", &PeerConfig::spawning, "limits of objects spawned during play")
      .field("messages", &PeerConfig::messages, "limits of game messages")
      .field("log", &PeerConfig::log, "where log lines go")
      .field("sync_test_frames", &PeerConfig::sync_test_frames, "roll back this many frames every frame and compare; 0 = off")
      .field("measure_update_cost", &PeerConfig::measure_update_cost, "time each phase of update() (PeerStats.cost)");
}

}  // namespace

void bind_configs(py::module_& m) {
  bind_enums(m);
  bind_peer_parts(m);
  bind_smoothing(m);
  bind_log(m);
  bind_peer_config(m);
}

}  // namespace shoal::python
