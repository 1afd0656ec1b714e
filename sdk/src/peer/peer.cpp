// SPDX-License-Identifier: MIT
// shoal::Peer: construction, config validation and the public API. The tick itself is in
// peer_tick.cpp, message handling in peer_messages.cpp.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>

#include "core/steady_now.hpp"
#include "peer/peer_impl.hpp"

namespace shoal {
namespace {

// Catch-ups mostly re-simulate the few frames a snapshot takes to arrive (a round trip's
// worth): what settling gave in that many recent frames is kept to be looked up then.
constexpr std::size_t kSettleMemoFrames = 8;

void require(bool ok, const std::string& what) {
  if (!ok) throw std::invalid_argument("shoal::PeerConfig: " + what);
}

const PeerConfig& validated(const PeerConfig& c) {
  require(c.tick_hz >= 1 && c.tick_hz <= 1000, "tick_hz is " + std::to_string(c.tick_hz) +
                                                   ", expected 1..1000 frames per second");
  require(c.max_resimulated_frames >= 1,
          "max_resimulated_frames is " + std::to_string(c.max_resimulated_frames) +
              ", expected at least 1");
  require(c.history_frames >= c.max_resimulated_frames + 8 && c.history_frames <= 4096,
          "history_frames is " + std::to_string(c.history_frames) +
              ", expected max_resimulated_frames + 8 (" +
              std::to_string(c.max_resimulated_frames + 8) + ") to 4096");
  require(c.max_clock_catchup_frames >= 1, "max_clock_catchup_frames must be at least 1");
  require(c.snapshot_interval_frames >= 1, "snapshot_interval_frames must be at least 1");
  require(c.rest_snapshot_interval_frames >= 1,
          "rest_snapshot_interval_frames must be at least 1");
  require(c.input_redundancy >= 1 && c.input_redundancy <= 16,
          "input_redundancy is " + std::to_string(c.input_redundancy) + ", expected 1..16");
  require(c.input_delay_frames >= 0 && c.input_delay_frames <= wire::kMaxInputFramesAhead,
          "input_delay_frames is " + std::to_string(c.input_delay_frames) + ", expected 0.." +
              std::to_string(wire::kMaxInputFramesAhead));
  require(c.checksum_interval_frames >= 0, "checksum_interval_frames must be 0 (off) or more");
  require(c.ping_interval_ms >= 10, "ping_interval_ms must be at least 10");
  require(c.rejoin_grace_ms >= 0, "rejoin_grace_ms must be 0 (off) or more");
  require(c.join_timeout_ms >= 100 && c.join_timeout_ms <= 600'000,
          "join_timeout_ms is " + std::to_string(c.join_timeout_ms) + ", expected 100..600000 ms");
  require(c.spawning.max_objects_per_peer >= 1 && c.spawning.max_objects_per_peer <= 65535,
          "spawning.max_objects_per_peer is " + std::to_string(c.spawning.max_objects_per_peer) + ", expected 1..65535");
  require(c.spawning.max_spawns_per_second >= 1 && c.spawning.max_spawns_per_second <= 10000,
          "spawning.max_spawns_per_second is " + std::to_string(c.spawning.max_spawns_per_second) +
              ", expected 1..10000");
  const MessageConfig& m = c.messages;
  require(m.max_message_bytes >= 1 && m.max_message_bytes <= kMaxReliableMessageBytes,
          "messages.max_message_bytes is " + std::to_string(m.max_message_bytes) + ", expected 1.." +
              std::to_string(kMaxReliableMessageBytes));
  require(m.max_bytes_per_second >= m.max_message_bytes && m.max_bytes_per_second <= 1'000'000'000,
          "messages.max_bytes_per_second is " + std::to_string(m.max_bytes_per_second) +
              ", expected max_message_bytes (" + std::to_string(m.max_message_bytes) + ") to 10^9");
  require(m.max_messages_per_second >= 1 && m.max_messages_per_second <= 100'000,
          "messages.max_messages_per_second is " + std::to_string(m.max_messages_per_second) + ", expected 1..100000");
  require(m.max_queued >= 1 && m.max_queued <= 4096,
          "messages.max_queued is " + std::to_string(m.max_queued) + ", expected 1..4096");
  require(c.log.level <= LogLevel::off, "log.level is not a LogLevel");
  require(c.spawning.max_spawn_bytes <= kMaxSpawnBytes,
          "spawning.max_spawn_bytes is " + std::to_string(c.spawning.max_spawn_bytes) + ", expected 0.." +
              std::to_string(kMaxSpawnBytes));
  require(c.sync_test_frames >= 0 && c.sync_test_frames < c.history_frames,
          "sync_test_frames is " + std::to_string(c.sync_test_frames) +
              ", expected 0 (off) up to history_frames - 1");
  require(c.session.size() <= wire::kMaxNameLength, "session name is longer than 255 bytes");
  const CompareTolerance& t = c.compare;
  for (const auto& [value, field] : {std::pair{t.position_m, "position_m"}, std::pair{t.rotation_rad, "rotation_rad"},
                                     std::pair{t.linear_velocity_mps, "linear_velocity_mps"},
                                     std::pair{t.angular_velocity_radps, "angular_velocity_radps"}}) {
    require(std::isfinite(value) && value >= 0,
            std::string("compare.") + field + " is " + std::to_string(value) + ", expected a finite tolerance >= 0");
  }
  require(t.tolerated_frames >= 1,
          "compare.tolerated_frames is " + std::to_string(t.tolerated_frames) + ", expected at least 1");
  const SnapshotConfig& s = c.snapshots;
  require(s.packet_budget_bytes >= 64 && s.packet_budget_bytes <= static_cast<int>(wire::kMaxUnreliableDatagram),
          "snapshots.packet_budget_bytes is " + std::to_string(s.packet_budget_bytes) + ", expected 64..1200");
  require(s.bytes_per_second >= 1000,
          "snapshots.bytes_per_second is " + std::to_string(s.bytes_per_second) +
              ", expected at least 1000 (bytes per second per remote peer)");
  // Priorities and distances scale accumulators that are sorted: an infinite one would make a
  // NaN of them (times a level-of-detail factor of 0), and NaNs have no order.
  auto finite_at_least = [](float value, float least, const std::string& field, const std::string& expected) {
    require(std::isfinite(value) && value >= least,
            "snapshots." + field + " is " + std::to_string(value) + ", expected " + expected);
  };
  finite_at_least(s.rest_priority, 0, "rest_priority", "a finite number >= 0 (a moving object has 1)");
  finite_at_least(s.controlled_priority, 0, "controlled_priority", "a finite number >= 0 (a moving object has 1)");
  finite_at_least(s.came_to_rest_priority, 0, "came_to_rest_priority", "a finite number >= 0 (a moving object has 1)");
  require(s.settled_refresh_s >= 0 && s.settled_refresh_s <= 3600,
          "snapshots.settled_refresh_s is " + std::to_string(s.settled_refresh_s) + ", expected 0..3600 seconds");
  require(s.coasting_interval_frames >= 1 && s.coasting_interval_frames <= 600,
          "snapshots.coasting_interval_frames is " + std::to_string(s.coasting_interval_frames) +
              ", expected 1..600 frames");
  finite_at_least(s.lod_near_m, 0, "lod_near_m", "a finite distance >= 0");
  require(std::isfinite(s.lod_far_m) && s.lod_far_m > s.lod_near_m,
          "snapshots.lod_far_m is " + std::to_string(s.lod_far_m) + ", expected a finite distance beyond lod_near_m (" +
              std::to_string(s.lod_near_m) + ")");
  require(s.lod_far_factor >= 0 && s.lod_far_factor <= 1,
          "snapshots.lod_far_factor is " + std::to_string(s.lod_far_factor) + ", expected 0..1");
  return c;
}

std::vector<std::uint16_t> body_types_of(const Simulation& simulation) {
  std::vector<std::uint16_t> types;
  for (BodyIndex b = 0; b < simulation.body_count(); ++b) types.push_back(simulation.body_type(b));
  return types;
}

// The body of a game's object; throws std::invalid_argument for an unknown one.
BodyIndex body_of(const world::ObjectTable& objects, ObjectId object) {
  if (auto body = objects.find(object)) return *body;
  throw std::invalid_argument("shoal::Peer: object " + std::to_string(object) +
                              " is not one of the simulation's bodies");
}

}  // namespace

std::uint64_t world_digest(const Simulation& simulation) {
  core::Digest digest;
  for (BodyIndex b = 0; b < simulation.body_count(); ++b) digest.add(simulation.read(b));
  return digest.value();
}

Peer::Impl::Impl(const PeerConfig& cfg, Simulation& simulation, std::unique_ptr<Transport> t)
    : config(validated(cfg)),
      sim(simulation),
      transport(std::move(t)),
      objects(simulation),
      body_count(simulation.body_count()),
      user_bytes(world::user_bytes_layout(simulation)),
      history(body_count, config.history_frames, user_bytes.max),
      // Room for every frame a snapshot may carry: the history window plus the quarter of it
      // ahead that on_snapshot accepts, so no two of them share a ring row.
      owner_frames(body_count, config.history_frames + config.history_frames / 4 + 1, user_bytes.max),
      // The history window plus the frames ahead a snapshot's inputs may name: no two share a row.
      inputs(config.history_frames + input_frames_ahead(config) + 1),
      resimulator(simulation, history, owner_frames, inputs),
      cost_clock(config.measure_update_cost, resimulator),
      quantizer(config.snapshots),
      quantize_filter(quantizer, body_count, kSettleMemoFrames),
      authority(config.authority, body_count),
      rest_checks(body_count, std::max(1, static_cast<Frame>(config.tick_hz / 2))),
      visuals(body_count, config.smoothing, body_types_of(simulation), 1.0f / config.tick_hz),
      session(config.tick_hz, config.pace),
      spawning(config.spawning, simulation, config.history_frames),
      messages(config.messages),
      corrections(body_count, config.tick_hz),
      scratch(body_count, user_bytes.max),
      links(body_count, user_bytes.max),
      sender(config, body_count, user_bytes, history, quantizer, quantize_filter, inputs, links, transport, stats) {
  if (!transport) throw std::invalid_argument("shoal::Peer: the transport is null");
  if (config.snapshots.quantize) resimulator.set_state_filter(&quantize_filter);
  resimulator.set_user_bytes(&user_bytes);
  for (BodyIndex b = 0; b < body_count; ++b) authority.radii[b] = sim.bounding_radius(b);
  resimulator.set_world_changes(&spawning.timeline);
  resimulator.set_spawn_bytes(spawning.enabled() ? config.spawning.max_spawn_bytes : 0);
}

Peer::Peer(const PeerConfig& config, Simulation& simulation, std::unique_ptr<Transport> transport)
    : impl_(std::make_unique<Impl>(config, simulation, std::move(transport))) {}
Peer::~Peer() {
  if (!impl_->recorder) return;
  if (impl_->history.empty()) {
    impl_->recorder->finish(kNoFrame, {});
  } else {
    impl_->recorder->finish(impl_->history.newest(), impl_->history.newest_states());
  }
}

void Peer::record(const std::string& path, std::span<const std::uint8_t> world) {
  if (impl_->session.phase != Impl::Phase::idle) throw std::logic_error("shoal::Peer::record: call it before host() or join()");
  if (impl_->recorder) throw std::logic_error("shoal::Peer::record: already recording");
  wire::RecordingHeader header;
  header.config = impl_->config;
  header.world.assign(world.begin(), world.end());
  header.secret = impl_->session.secret;
  header.has_controlled = impl_->controlled.has_value();
  header.controlled = impl_->controlled ? impl_->objects.id(*impl_->controlled) : 0;
  header.input = impl_->current_input;
  header.body_count = static_cast<std::uint32_t>(impl_->body_count);
  header.world_states = world_digest(impl_->sim);
  impl_->recorder = std::make_unique<Recorder>(path, header);
  impl_->transport = std::make_unique<RecordingTransport>(std::move(impl_->transport), *impl_->recorder);
}

void Peer::host() {
  if (impl_->session.phase != Impl::Phase::idle) throw std::logic_error("shoal::Peer::host: already started");
  if (impl_->recorder) impl_->recorder->write().host();
  impl_->session.members.set_self(0);
  impl_->session.is_host = true;
  impl_->session.joining.host();
  impl_->session.phase = Impl::Phase::hosting;  // the match starts at the first update
}

void Peer::join(const Address& host) {
  if (impl_->session.phase != Impl::Phase::idle) throw std::logic_error("shoal::Peer::join: already started");
  if (impl_->recorder) impl_->recorder->write().join(host);
  impl_->session.joining.begin(host, std::int64_t{impl_->config.join_timeout_ms} * 1000);
  impl_->session.host_connection = impl_->transport->connect(host);
  impl_->session.phase = Impl::Phase::joining;
}

void Peer::leave() {
  if (impl_->recorder) impl_->recorder->leave();
  if (impl_->session.members.self() != kNoPeer) impl_->broadcast(wire::PeerLeft{impl_->session.members.self()});
  for (const session::Member& m : impl_->session.members.remotes()) impl_->transport->disconnect(m.connection);
  impl_->session.phase = Impl::Phase::left;
  // Linger briefly (bounded) so the goodbye actually leaves: the others then hand this peer's
  // objects over at once instead of waiting for a timeout and the rejoin grace period.
  constexpr int kLingerMs = 250;
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(kLingerMs);
  TransportEvent ignored;
  // At the last update's time, so a transport driven by update_at's clock stays on it.
  const std::int64_t at = impl_->last_update_us;
  const auto poll_once = [&] { return at < 0 ? impl_->transport->poll(ignored) : impl_->transport->poll(ignored, at); };
  for (int i = 0; i < kLingerMs && std::chrono::steady_clock::now() < until; ++i) {
    while (poll_once()) {}
    impl_->transport->wait(1);
  }
}

void Peer::set_controlled(ObjectId object) {
  const BodyIndex body = body_of(impl_->objects, object);
  if (impl_->controlled) {
    impl_->inputs.untrack(*impl_->controlled);
    impl_->visuals.set_control(*impl_->controlled, ControlMode::uncontrolled);
  }
  if (impl_->recorder) impl_->recorder->write().controlled(object);
  impl_->controlled = body;
  impl_->inputs.track(body);
  impl_->visuals.set_control(body, ControlMode::controlled);
}

void Peer::set_input(const Input& input) {
  const auto used = static_cast<std::size_t>(impl_->config.snapshots.input_bytes);
  const auto past = std::find_if(input.bytes.begin() + static_cast<std::ptrdiff_t>(used), input.bytes.end(),
                                 [](std::uint8_t b) { return b != 0; });
  if (past != input.bytes.end()) {
    // Only the first `used` bytes travel: a game writing more would see its peers disagree.
    throw std::invalid_argument("shoal::Peer::set_input: Input::bytes[" + std::to_string(past - input.bytes.begin()) +
                                "] is " + std::to_string(*past) + ", but only the first " + std::to_string(used) +
                                " bytes travel (SnapshotConfig::input_bytes): expected the game's input in those "
                                "and 0 past them");
  }
  if (impl_->recorder) impl_->recorder->input(input);
  impl_->current_input = input;
}

void Peer::update() { impl_->update(core::steady_now_us()); }
void Peer::update_at(std::int64_t now_us) { impl_->update(now_us); }

void Peer::wait(int timeout_ms) { impl_->transport->wait(timeout_ms); }

bool Peer::poll_event(Event& event) {
  if (impl_->events.empty()) return false;
  event = impl_->events.pop();
  if (event.kind == EventKind::message) impl_->messages.dequeued(event.peer);
  if (impl_->recorder) impl_->recorder->event_taken();
  return true;
}

VisualState Peer::visual(ObjectId object) const { return impl_->visuals.visual(body_of(impl_->objects, object)); }

std::size_t Peer::visuals(std::span<VisualState> out) const {
  const std::size_t bodies = impl_->sim.body_count();
  for (BodyIndex b = 0; b < bodies && b < out.size(); ++b) out[b] = impl_->visuals.visual(b);
  return bodies;
}

ObjectState Peer::state(ObjectId object) const {
  const BodyIndex body = body_of(impl_->objects, object);
  if (impl_->history.empty()) return impl_->sim.read(body);
  return impl_->history.newest_states()[body];
}

std::optional<ObjectState> Peer::state_at(ObjectId object, Frame frame) const {
  const BodyIndex body = body_of(impl_->objects, object);
  if (!impl_->history.has(frame)) return std::nullopt;
  return impl_->history.state(frame, body);
}

JoinProgress Peer::join_progress() const {
  return impl_->session.joining.progress(impl_->join_step(), impl_->session.pongs_received, SessionState::kPongsBeforeStart,
                                 std::max<std::int64_t>(impl_->last_update_us, 0));
}

PeerId Peer::owner(ObjectId object) const { return impl_->authority.owner_of(body_of(impl_->objects, object)); }
PeerId Peer::id() const { return impl_->session.members.self(); }
bool Peer::in_match() const { return impl_->session.phase == Impl::Phase::in_match; }
Frame Peer::frame() const { return impl_->history.empty() ? kNoFrame : impl_->history.newest(); }
std::vector<PeerId> Peer::peers() const { return impl_->session.members.live(); }
Address Peer::address() const { return impl_->transport->local_address(); }
void Peer::set_conditions(const ConditionerConfig& conditions) {
  impl_->transport->set_conditions(conditions);
}

PeerStats Peer::stats() const {
  PeerStats s = impl_->stats;
  s.frame = frame();
  s.quantization_clamps = impl_->quantize_filter.clamped();
  // Empty spawn slots belong to the default owner, but they are no objects.
  const Spawning& sp = impl_->spawning;
  s.owned_objects = static_cast<std::size_t>(std::ranges::count_if(impl_->authority.owned_bodies, [&](BodyIndex b) {
    return !sp.is_slot(b) || sp.slot_object[b - sp.first_slot] != 0;
  }));
  s.pace = impl_->session.pace.rate;
  s.visual_correction_mm = impl_->visuals.smoothing_stats().moved_mm;
  s.messages_queued = impl_->messages.queued();
  // Counted here, not every step: only the stats show it.
  if (impl_->scratch.freezing) {
    s.frozen_objects = static_cast<std::size_t>(std::ranges::count(impl_->scratch.frozen_next, std::uint8_t{1}));
  }
  s.cost = impl_->cost_clock.cost();
  // What the transport dropped (forged, replayed, no token...) never reached the peer's own
  // checks; it is counted with them.
  const DropCounters below = impl_->transport->drops();
  for (std::size_t i = 0; i < s.dropped.counts.size(); ++i) s.dropped.counts[i] += below.counts[i];
  for (const session::Member& m : impl_->session.members.remotes()) {
    RemotePeerStats remote{m.id, impl_->transport->stats(m.connection)};
    // The snapshot stream's own sequence numbers measure the loss of everything the link
    // carries; the transport's figure (ENet's) only counts reliable packets.
    if (const SnapshotLink* link = impl_->links.find(m.id); link && link->received.has_received()) {
      remote.link.packet_loss = link->received.loss();
    }
    s.remotes.push_back(remote);
  }
  return s;
}

ObjectDiagnosis Peer::diagnose(ObjectId object, Frame frame) const {
  return impl_->diagnose(body_of(impl_->objects, object), frame);
}

ObjectDiagnosis Peer::Impl::diagnose(BodyIndex body, Frame frame) const {
  ObjectDiagnosis d;
  d.object = objects.id(body);
  d.frame = frame;
  d.held = history.has(frame);
  if (d.held) {
    d.state = history.state(frame, body);
    d.confirmed = history.confirmed(frame, body);
  }
  d.owner = authority.owner_of(body);
  d.frozen = scratch.freezing && scratch.frozen_next[body] != 0;
  corrections.forensics.describe(body, d);
  if (const SnapshotLink* link = d.owner == session.members.self() ? nullptr : links.find(d.owner)) {
    Frame said = kNoFrame;
    if (const wire::QuantizedState* q = link->received.newest(body, said)) {
      d.owner_said = true;
      d.owner_said_frame = said;
      d.owner_said_state = quantize_filter.dequantize(body, said, *q);
    }
  }
  return d;
}

void Peer::Impl::send_encoded(bool encoded, ConnectionId to) {
  if (!encoded) return;
  const Channel channel = wire::channel_of(static_cast<wire::MessageKind>(scratch.out[3]));
  if (to != kNoConnection) {
    transport->send(to, channel, scratch.out);
    return;
  }
  for (const session::Member& m : session.members.remotes()) transport->send(m.connection, channel, scratch.out);
}

std::span<std::uint8_t> Peer::Impl::held_user_bytes(Frame frame, BodyIndex body) {
  return history.user_bytes(frame, body).first(user_bytes.size[body]);
}

void Peer::Impl::emit(Event event) {
  if (recorder) recorder->event(event);
  if (emitted != nullptr) add_to_digest(*emitted, event);
  // A message the queue pushes out to make room is no longer waiting: its sender may send more.
  if (events.full() && events.front().kind == EventKind::message) messages.dequeued(events.front().peer);
  events.push(std::move(event));
}

void Peer::Impl::drop(DropReason reason) {
  stats.dropped.add(reason);
  // Stale datagrams and a sender's excess are the network's and a busy sender's ordinary lot.
  const bool routine = reason == DropReason::stale || reason == DropReason::over_limit;
  log_line(config.log, routine ? LogLevel::debug : LogLevel::warn, [&] {
    return "dropped an incoming message: " + std::string(to_string(reason)) + " (" +
           std::to_string(stats.dropped[reason]) + " so far)";
  });
}

}  // namespace shoal
