// SPDX-License-Identifier: MIT
// Conversions of the configs, events and statistics between shoal.h and the C++ API. Each
// to_cpp starts from a default-constructed C++ value, so fields the C struct leaves out keep
// their C++ defaults; range checks stay with the C++ constructors, which name the field.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "convert.hpp"

namespace shoal_c {
namespace {

// shoal_event_kind's explicit values are EventKind's; a new or reordered kind must fail here.
template <shoal::EventKind kind, int value>
constexpr bool same_kind = static_cast<int>(kind) == value;
static_assert(same_kind<shoal::EventKind::joined_match, SHOAL_EVENT_JOINED_MATCH>);
static_assert(same_kind<shoal::EventKind::peer_joined, SHOAL_EVENT_PEER_JOINED>);
static_assert(same_kind<shoal::EventKind::peer_left, SHOAL_EVENT_PEER_LEFT>);
static_assert(same_kind<shoal::EventKind::peer_lost, SHOAL_EVENT_PEER_LOST>);
static_assert(same_kind<shoal::EventKind::peer_rejoined, SHOAL_EVENT_PEER_REJOINED>);
static_assert(same_kind<shoal::EventKind::ownership_changed, SHOAL_EVENT_OWNERSHIP_CHANGED>);
static_assert(same_kind<shoal::EventKind::override_applied, SHOAL_EVENT_OVERRIDE_APPLIED>);
static_assert(same_kind<shoal::EventKind::snapped, SHOAL_EVENT_SNAPPED>);
static_assert(same_kind<shoal::EventKind::desync, SHOAL_EVENT_DESYNC>);
static_assert(same_kind<shoal::EventKind::join_failed, SHOAL_EVENT_JOIN_FAILED>);
static_assert(same_kind<shoal::EventKind::incompatible_peer, SHOAL_EVENT_INCOMPATIBLE_PEER>);
static_assert(same_kind<shoal::EventKind::message, SHOAL_EVENT_MESSAGE>);
static_assert(static_cast<int>(shoal::LogLevel::off) == SHOAL_LOG_OFF && static_cast<int>(shoal::LogLevel::warn) == SHOAL_LOG_WARN);
static_assert(shoal::kMaxReliableMessageBytes == SHOAL_MAX_RELIABLE_MESSAGE_BYTES);
static_assert(shoal::kMaxUnreliableMessageBytes == SHOAL_MAX_UNRELIABLE_MESSAGE_BYTES);

// A count from C, or an Error naming the field when it is negative (the C++ checks the rest).
std::size_t count_from_c(std::int32_t value, const char* field) {
  if (value < 0) throw Error(SHOAL_ERROR_INVALID_ARGUMENT, std::string(field) + " is " + std::to_string(value) + ", expected >= 0");
  return static_cast<std::size_t>(value);
}

void messages_and_log_to_cpp(const shoal_peer_config& c, shoal::PeerConfig& p) {
  p.messages.max_message_bytes = count_from_c(c.max_message_bytes, "shoal_peer_config.max_message_bytes");
  p.messages.max_bytes_per_second = count_from_c(c.message_bytes_per_second, "shoal_peer_config.message_bytes_per_second");
  p.messages.max_messages_per_second = c.messages_per_second;
  p.messages.max_queued = count_from_c(c.max_queued_messages, "shoal_peer_config.max_queued_messages");
  if (c.log_level < SHOAL_LOG_DEBUG || c.log_level > SHOAL_LOG_OFF) {
    throw Error(SHOAL_ERROR_INVALID_ARGUMENT, "shoal_peer_config.log_level is " + std::to_string(c.log_level) +
                                                  ", expected a shoal_log_level (SHOAL_LOG_DEBUG 0 .. SHOAL_LOG_OFF 4)");
  }
  p.log.level = static_cast<shoal::LogLevel>(c.log_level);
  if (c.log_callback == nullptr) return;
  // The text as C wants it: NUL-terminated. Only lines the level lets through get here.
  p.log.callback = [callback = c.log_callback, user = c.log_user](shoal::LogLevel level, std::string_view text) {
    const std::string line(text);
    callback(user, static_cast<std::int32_t>(level), line.c_str());
  };
}
static_assert(static_cast<int>(shoal::JoinStep::failed) == SHOAL_JOIN_FAILED);
static_assert(static_cast<int>(shoal::JoinFailure::host_lost) == SHOAL_JOIN_FAILURE_HOST_LOST);
static_assert(static_cast<int>(shoal::JoinFailure::incompatible) == SHOAL_JOIN_FAILURE_INCOMPATIBLE);

static_assert(SHOAL_NO_PEER == shoal::kNoPeer && SHOAL_NO_FRAME == shoal::kNoFrame);
static_assert(SHOAL_SESSION_CAPACITY == 256, "PeerConfig accepts session names up to 255 bytes");

}  // namespace

shoal::ObjectState to_cpp_finite(const shoal_object_state& s, const char* field) {
  const float numbers[] = {s.position.x, s.position.y, s.position.z, s.orientation.w, s.orientation.x,
                           s.orientation.y, s.orientation.z, s.linear_velocity.x, s.linear_velocity.y,
                           s.linear_velocity.z, s.angular_velocity.x, s.angular_velocity.y, s.angular_velocity.z};
  for (float n : numbers) {
    if (!std::isfinite(n)) throw Error(SHOAL_ERROR_INVALID_ARGUMENT, std::string(field) + " has a number that is not finite");
  }
  return to_cpp(s);
}

shoal::SmoothingRule to_cpp(const shoal_smoothing_rule& r) {
  return {r.warp_distance_m, r.warp_angle_rad, r.blend_threshold_m, r.blend_threshold_rad,
          r.slow_speed, r.slow_blend_threshold_m, r.slow_blend_threshold_rad, r.low_speed,
          r.high_speed, r.blend_rate_low_speed, r.blend_rate_high_speed, r.min_closing_speed_low,
          r.min_closing_speed_high, r.min_closing_angular_speed_low, r.min_closing_angular_speed_high};
}

shoal_smoothing_rule to_c(const shoal::SmoothingRule& r) {
  return {r.warp_distance_m, r.warp_angle_rad, r.blend_threshold_m, r.blend_threshold_rad,
          r.slow_speed, r.slow_blend_threshold_m, r.slow_blend_threshold_rad, r.low_speed,
          r.high_speed, r.blend_rate_low_speed, r.blend_rate_high_speed, r.min_closing_speed_low,
          r.min_closing_speed_high, r.min_closing_angular_speed_low, r.min_closing_angular_speed_high};
}

namespace {

// The rules table: the default rule, then every row (each validated by SmoothingRules).
shoal::SmoothingRules smoothing_to_cpp(const shoal_peer_config& c) {
  if (c.smoothing_rule_count < 0 || (c.smoothing_rule_count > 0 && c.smoothing_rules == nullptr)) {
    throw Error(SHOAL_ERROR_INVALID_ARGUMENT,
                "shoal_peer_config.smoothing_rule_count is " + std::to_string(c.smoothing_rule_count) +
                    " with smoothing_rules " + (c.smoothing_rules == nullptr ? "NULL" : "set") +
                    ": expected 0, or a count >= 1 with that many rows");
  }
  // Rules are validated where they are built: the message gets the field's place in front.
  auto rule_of = [](const shoal_smoothing_rule& rule, const std::string& name) {
    const shoal::SmoothingRule r = to_cpp(rule);
    try {
      shoal::validate(r);
    } catch (const std::invalid_argument& e) {
      throw Error(SHOAL_ERROR_INVALID_ARGUMENT, name + ": " + e.what());
    }
    return r;
  };
  shoal::SmoothingRules rules(rule_of(c.smoothing_default, "shoal_peer_config.smoothing_default"));
  for (int32_t i = 0; i < c.smoothing_rule_count; ++i) {
    const shoal_smoothing_entry& row = c.smoothing_rules[i];
    const std::string name = "shoal_peer_config.smoothing_rules[" + std::to_string(i) + "]";
    if (row.control_mode != SHOAL_UNCONTROLLED && row.control_mode != SHOAL_CONTROLLED) {
      throw Error(SHOAL_ERROR_INVALID_ARGUMENT,
                  name + ".control_mode is " + std::to_string(row.control_mode) +
                      ": expected SHOAL_UNCONTROLLED (0) or SHOAL_CONTROLLED (1)");
    }
    const auto mode = row.control_mode == SHOAL_CONTROLLED ? shoal::ControlMode::controlled
                                                           : shoal::ControlMode::uncontrolled;
    rules.set(row.object_type, mode, rule_of(row.rule, name + ".rule"));
  }
  return rules;
}

// The snapshot fields since version 5 (and 6); range checks stay with the C++ side (Peer, Quantizer).
void snapshots_to_cpp(const shoal_peer_config& c, shoal::PeerConfig& p) {
  shoal::SnapshotConfig& s = p.snapshots;
  s.velocities_at_rest = c.velocities_at_rest != 0;
  s.delta = c.delta != 0;
  s.orientation_bits = c.orientation_bits;
  s.velocity_units_per_mps = c.velocity_units_per_mps;
  s.max_baseline_age_frames = c.max_baseline_age_frames;
  s.prioritize = c.prioritize != 0;
  s.packet_budget_bytes = c.packet_budget_bytes;
  s.rest_priority = c.rest_priority;
  s.controlled_priority = c.controlled_priority;
  s.came_to_rest_priority = c.came_to_rest_priority;
  s.settled_refresh_s = c.settled_refresh_s;
  s.lod_near_m = c.lod_near_m;
  s.lod_far_m = c.lod_far_m;
  s.lod_far_factor = c.lod_far_factor;
  p.rest_snapshot_interval_frames = c.rest_snapshot_interval_frames;
  p.input_redundancy = c.input_redundancy;
  p.input_delay_frames = c.input_delay_frames;
  p.max_clock_catchup_frames = c.max_clock_catchup_frames;
  s.coasting_interval_frames = c.coasting_interval_frames;
}

void snapshots_to_c(const shoal::PeerConfig& p, shoal_peer_config& c) {
  const shoal::SnapshotConfig& s = p.snapshots;
  c.velocities_at_rest = s.velocities_at_rest ? 1 : 0;
  c.delta = s.delta ? 1 : 0;
  c.orientation_bits = s.orientation_bits;
  c.velocity_units_per_mps = s.velocity_units_per_mps;
  c.max_baseline_age_frames = s.max_baseline_age_frames;
  c.prioritize = s.prioritize ? 1 : 0;
  c.packet_budget_bytes = s.packet_budget_bytes;
  c.rest_priority = s.rest_priority;
  c.controlled_priority = s.controlled_priority;
  c.came_to_rest_priority = s.came_to_rest_priority;
  c.settled_refresh_s = s.settled_refresh_s;
  c.lod_near_m = s.lod_near_m;
  c.lod_far_m = s.lod_far_m;
  c.lod_far_factor = s.lod_far_factor;
  c.rest_snapshot_interval_frames = p.rest_snapshot_interval_frames;
  c.input_redundancy = p.input_redundancy;
  c.input_delay_frames = p.input_delay_frames;
  c.max_clock_catchup_frames = p.max_clock_catchup_frames;
  c.coasting_interval_frames = s.coasting_interval_frames;
}

// The fields since version 12; range checks stay with the C++ side (Peer).
void spawning_to_cpp(const shoal_peer_config& c, shoal::PeerConfig& p) {
  if (c.removed_on_leave_count > 0 && c.removed_on_leave == nullptr) {
    throw Error(SHOAL_ERROR_INVALID_ARGUMENT, "shoal_peer_config.removed_on_leave is NULL with removed_on_leave_count " +
                                                  std::to_string(c.removed_on_leave_count) +
                                                  ": expected 0, or a count with that many types");
  }
  p.snapshots.input_bytes = c.input_bytes;
  p.spawning.max_objects_per_peer = c.max_objects_per_peer;
  p.spawning.max_spawns_per_second = c.max_spawns_per_second;
  p.spawning.max_spawn_bytes = c.max_spawn_bytes;
  p.spawning.removed_on_leave.assign(c.removed_on_leave, c.removed_on_leave + c.removed_on_leave_count);
}

}  // namespace

shoal::PeerConfig to_cpp(const shoal_peer_config& c) {
  require_sized(&c, "config", "shoal_peer_config");
  shoal::PeerConfig p;
  p.session = from_c_array(c.session, "shoal_peer_config.session");
  p.tick_hz = c.tick_hz;
  p.history_frames = c.history_frames;
  p.max_resimulated_frames = c.max_resimulated_frames;
  p.snapshot_interval_frames = c.snapshot_interval_frames;
  p.checksum_interval_frames = c.checksum_interval_frames;
  p.ping_interval_ms = c.ping_interval_ms;
  p.rejoin_grace_ms = c.rejoin_grace_ms;
  p.join_timeout_ms = c.join_timeout_ms;
  switch (c.catchup) {
    case SHOAL_CATCHUP_REGION: p.catchup = shoal::CatchupScope::region; break;
    case SHOAL_CATCHUP_OBJECT: p.catchup = shoal::CatchupScope::object; break;
    default:
      throw Error(SHOAL_ERROR_INVALID_ARGUMENT,
                  "shoal_peer_config.catchup is " + std::to_string(c.catchup) +
                      ": expected SHOAL_CATCHUP_REGION (0) or SHOAL_CATCHUP_OBJECT (1)");
  }
  p.compare.exact = c.exact_compare != 0;
  p.snapshots.quantize = c.quantize != 0;
  p.snapshots.bytes_per_second = c.bytes_per_second;
  p.freeze_outside_simulated_region = c.freeze_outside_simulated_region != 0;
  p.sync_test_frames = c.sync_test_frames;
  p.snapshots.world_min = to_cpp(c.world_min);
  p.snapshots.world_max = to_cpp(c.world_max);
  p.snapshots.position_units_per_m = c.position_units_per_m;
  p.snapshots.max_linear_speed_mps = c.max_linear_speed_mps;
  p.snapshots.max_angular_speed_radps = c.max_angular_speed_radps;
  p.authority.r_min = c.core_min_radius_m;
  p.authority.T = c.core_velocity_horizon_s;
  p.authority.simulated_radius = c.simulated_radius_m;
  p.smoothing = smoothing_to_cpp(c);
  snapshots_to_cpp(c, p);
  messages_and_log_to_cpp(c, p);
  spawning_to_cpp(c, p);
  return p;
}

shoal_peer_config to_c(const shoal::PeerConfig& p) {
  shoal_peer_config c{};
  c.struct_size = sizeof c;
  to_c_array(p.session, c.session, "shoal::PeerConfig::session");
  c.tick_hz = p.tick_hz;
  c.history_frames = p.history_frames;
  c.max_resimulated_frames = p.max_resimulated_frames;
  c.snapshot_interval_frames = p.snapshot_interval_frames;
  c.checksum_interval_frames = p.checksum_interval_frames;
  c.ping_interval_ms = p.ping_interval_ms;
  c.rejoin_grace_ms = p.rejoin_grace_ms;
  c.join_timeout_ms = p.join_timeout_ms;
  c.catchup = p.catchup == shoal::CatchupScope::object ? SHOAL_CATCHUP_OBJECT : SHOAL_CATCHUP_REGION;
  c.exact_compare = p.compare.exact ? 1 : 0;
  c.quantize = p.snapshots.quantize ? 1 : 0;
  c.bytes_per_second = p.snapshots.bytes_per_second;
  c.freeze_outside_simulated_region = p.freeze_outside_simulated_region ? 1 : 0;
  c.sync_test_frames = p.sync_test_frames;
  c.world_min = to_c(p.snapshots.world_min);
  c.world_max = to_c(p.snapshots.world_max);
  c.position_units_per_m = p.snapshots.position_units_per_m;
  c.max_linear_speed_mps = p.snapshots.max_linear_speed_mps;
  c.max_angular_speed_radps = p.snapshots.max_angular_speed_radps;
  c.core_min_radius_m = p.authority.r_min;
  c.core_velocity_horizon_s = p.authority.T;
  c.simulated_radius_m = p.authority.simulated_radius;
  c.smoothing_default = to_c(p.smoothing.default_rule());
  c.smoothing_rules = nullptr;  // C++ defaults name no (type, mode)
  c.smoothing_rule_count = 0;
  snapshots_to_c(p, c);
  c.max_message_bytes = static_cast<std::int32_t>(p.messages.max_message_bytes);
  c.message_bytes_per_second = static_cast<std::int32_t>(p.messages.max_bytes_per_second);
  c.messages_per_second = p.messages.max_messages_per_second;
  c.max_queued_messages = static_cast<std::int32_t>(p.messages.max_queued);
  c.log_callback = nullptr;  // a C++ callback has no C form
  c.log_user = nullptr;
  c.log_level = static_cast<std::int32_t>(p.log.level);
  c.input_bytes = p.snapshots.input_bytes;
  c.max_objects_per_peer = static_cast<uint32_t>(p.spawning.max_objects_per_peer);
  c.max_spawns_per_second = p.spawning.max_spawns_per_second;
  c.max_spawn_bytes = static_cast<uint32_t>(p.spawning.max_spawn_bytes);
  c.removed_on_leave = nullptr;  // C++ defaults name no type
  c.removed_on_leave_count = 0;
  return c;
}

shoal::ReferencePhysicsConfig to_cpp(const shoal_world_config& c) {
  require_sized(&c, "config", "shoal_world_config");
  shoal::ReferencePhysicsConfig r;
  r.dt = c.dt;
  r.gravity = to_cpp(c.gravity);
  r.arena_half_x = c.arena_half_x;
  r.arena_half_z = c.arena_half_z;
  r.restitution = c.restitution;
  r.friction = c.friction;
  r.linear_damping = c.linear_damping;
  r.angular_damping = c.angular_damping;
  r.solver_iterations = c.solver_iterations;
  r.allow_sleep = c.allow_sleep != 0;
  r.sleep_linear_speed = c.sleep_linear_speed;
  r.sleep_angular_speed = c.sleep_angular_speed;
  r.sleep_frames = c.sleep_frames;
  r.push_acceleration = c.push_acceleration;
  r.max_push_speed = c.max_push_speed;
  r.history_frames = c.history_frames;
  r.grid_cell_size = c.grid_cell_size;
  return r;
}

shoal_world_config to_c(const shoal::ReferencePhysicsConfig& r) {
  shoal_world_config c{};
  c.struct_size = sizeof c;
  c.dt = r.dt;
  c.gravity = to_c(r.gravity);
  c.arena_half_x = r.arena_half_x;
  c.arena_half_z = r.arena_half_z;
  c.restitution = r.restitution;
  c.friction = r.friction;
  c.linear_damping = r.linear_damping;
  c.angular_damping = r.angular_damping;
  c.solver_iterations = r.solver_iterations;
  c.allow_sleep = r.allow_sleep ? 1 : 0;
  c.sleep_linear_speed = r.sleep_linear_speed;
  c.sleep_angular_speed = r.sleep_angular_speed;
  c.sleep_frames = r.sleep_frames;
  c.push_acceleration = r.push_acceleration;
  c.max_push_speed = r.max_push_speed;
  c.history_frames = r.history_frames;
  c.grid_cell_size = r.grid_cell_size;
  return c;
}

shoal::LinkConditions to_cpp(const shoal_link_conditions& c) {
  shoal::LinkConditions l;
  l.latency_ms = c.latency_ms;
  l.jitter_ms = c.jitter_ms;
  l.loss = c.loss;
  l.duplicate = c.duplicate;
  l.reorder = c.reorder;
  l.queue_limit_bytes = c.queue_limit_bytes;
  l.bandwidth_bytes_per_s = c.bandwidth_bytes_per_s;
  return l;
}

shoal_link_conditions to_c(const shoal::LinkConditions& l) {
  shoal_link_conditions c{};
  c.latency_ms = l.latency_ms;
  c.jitter_ms = l.jitter_ms;
  c.loss = l.loss;
  c.duplicate = l.duplicate;
  c.reorder = l.reorder;
  c.queue_limit_bytes = l.queue_limit_bytes;
  c.bandwidth_bytes_per_s = l.bandwidth_bytes_per_s;
  return c;
}

shoal::ConditionerConfig to_cpp(const shoal_conditioner& c) {
  return {to_cpp(c.outbound), to_cpp(c.inbound), c.seed};
}

shoal_conditioner to_c(const shoal::ConditionerConfig& c) {
  return {to_c(c.outbound), to_c(c.inbound), c.seed};
}

shoal::TransportConfig to_cpp(const shoal_enet_config& c) {
  require_sized(&c, "config", "shoal_enet_config");
  shoal::TransportConfig t;
  t.bind_host = from_c_array(c.bind_host, "shoal_enet_config.bind_host");
  t.port = c.port;
  t.max_connections = c.max_connections;
  t.timeout_ms = c.timeout_ms;
  t.conditioner = to_cpp(c.conditioner);
  // Secured by default, as in C++: the clear only when the game says so.
  const std::string credentials = from_c_array(c.credentials, "shoal_enet_config.credentials");
  if (c.insecure != 0 && c.insecure != 1) {
    throw Error(SHOAL_ERROR_INVALID_ARGUMENT, "shoal_enet_config.insecure is " + std::to_string(c.insecure) +
                                                  ": expected 0 (secured, the default) or 1 (in the clear)");
  }
  t.security.enabled = c.insecure == 0;
  if (t.security.enabled && credentials.empty()) {
    throw Error(SHOAL_ERROR_INVALID_ARGUMENT,
                "shoal_enet_config.credentials is empty and insecure is 0: expected this peer's credentials "
                "(shoal_authority_invite), or insecure = 1 to run in the clear on purpose");
  }
  if (!credentials.empty()) {
    const auto parsed = shoal::Credentials::from_text(credentials);
    if (!parsed) {
      throw Error(SHOAL_ERROR_INVALID_ARGUMENT,
                  "shoal_enet_config.credentials are not well-formed: expected the text of shoal_authority_invite");
    }
    t.security.credentials = *parsed;
  }
  t.security.token_grace_ms = c.token_grace_ms;  // the C++ checks its range and names it
  return t;
}

shoal_enet_config to_c(const shoal::TransportConfig& t) {
  shoal_enet_config c{};
  c.struct_size = sizeof c;
  to_c_array(t.bind_host, c.bind_host, "shoal::TransportConfig::bind_host");
  c.port = t.port;
  // The C++ default (64) always fits; a larger value is clamped rather than wrapped.
  c.max_connections = static_cast<std::uint32_t>(std::min<std::size_t>(t.max_connections, UINT32_MAX));
  c.timeout_ms = t.timeout_ms;
  c.conditioner = to_c(t.conditioner);
  c.insecure = t.security.enabled ? 0 : 1;  // credentials stay "": each peer has its own
  c.token_grace_ms = t.security.token_grace_ms;
  return c;
}

shoal::Address to_cpp(const shoal_address& a, const char* field) {
  return {from_c_array(a.host, field), a.port};
}

shoal_address to_c(const shoal::Address& a, const char* field) {
  shoal_address c{};
  to_c_array(a.host, c.host, field);
  c.port = a.port;
  return c;
}

shoal_event to_c(const shoal::Event& e) {
  shoal_event c{};
  c.kind = static_cast<std::int32_t>(e.kind);  // shoal_event_kind mirrors EventKind's order
  c.peer = e.peer;
  c.object = e.object;
  c.frame = e.frame;
  c.depth = e.depth;
  const std::size_t copied = std::min<std::size_t>(e.objects.size(), SHOAL_EVENT_MAX_OBJECTS);
  std::copy_n(e.objects.begin(), copied, c.objects);
  c.object_count = static_cast<std::uint32_t>(copied);
  c.objects_truncated = e.objects.size() > copied ? 1 : 0;
  c.join_step = static_cast<std::int32_t>(e.step);  // shoal_join_step mirrors JoinStep's order
  c.join_failure = static_cast<std::int32_t>(e.failure);
  return c;
}

shoal_stats to_c(const shoal::PeerStats& s) {
  shoal_stats c{};
  c.frame = s.frame;
  c.remote_count = static_cast<std::uint32_t>(s.remotes.size());
  c.overrides = s.overrides;
  c.catchup_frames = s.catchup_frames;
  c.snaps = s.snaps;
  c.ownership_changes = s.ownership_changes;
  c.snapshots_sent = s.snapshots_sent;
  c.snapshots_received = s.snapshots_received;
  c.snapshot_bytes_sent = s.snapshot_bytes_sent;
  c.baseline_misses = s.baseline_misses;
  c.quantization_clamps = s.quantization_clamps;
  c.desyncs = s.desyncs;
  c.owned_objects = s.owned_objects;
  c.frozen_objects = s.frozen_objects;
  c.dropped_packets = s.dropped.total();
  return c;
}

static_assert(SHOAL_OWNERSHIP_HISTORY == shoal::kOwnershipHistory, "a diagnosis lists every owner change the peer keeps");

shoal_object_diagnosis to_c(const shoal::ObjectDiagnosis& d) {
  shoal_object_diagnosis c{};
  c.object = d.object;
  c.frame = d.frame;
  c.held = d.held ? 1 : 0;
  c.confirmed = d.confirmed ? 1 : 0;
  c.state = to_c(d.state);
  c.owner = d.owner;
  c.frozen = d.frozen ? 1 : 0;
  for (const shoal::OwnershipHistoryEntry& e : d.ownership) {
    if (c.ownership_count == SHOAL_OWNERSHIP_HISTORY) break;
    c.ownership[c.ownership_count++] = shoal_ownership_change{e.frame, e.owner, e.author, e.sequence, e.applied_at};
  }
  c.last_owner_frame = d.last_owner_frame;
  c.last_owner_frame_at = d.last_owner_frame_at;
  c.overrides = d.overrides;
  c.owner_said = d.owner_said ? 1 : 0;
  c.owner_said_frame = d.owner_said_frame;
  c.owner_said_state = to_c(d.owner_said_state);
  return c;
}

shoal_remote_stats to_c(const shoal::RemotePeerStats& r) {
  shoal_remote_stats c{};
  c.peer = r.peer;
  c.rtt_ms = r.link.rtt_ms;
  c.rtt_variance_ms = r.link.rtt_variance_ms;
  c.packet_loss = r.link.packet_loss;
  c.packets_out_per_s = r.link.packets_out_per_s;
  c.packets_in_per_s = r.link.packets_in_per_s;
  c.bytes_out_per_s = r.link.bytes_out_per_s;
  c.bytes_in_per_s = r.link.bytes_in_per_s;
  return c;
}

}  // namespace shoal_c
