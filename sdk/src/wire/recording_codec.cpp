// SPDX-License-Identifier: MIT
#include "wire/recording_codec.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <stdexcept>
#include <string>

namespace shoal::wire {
namespace {

constexpr std::uint8_t kMagic[4] = {'S', 'H', 'R', 'C'};
constexpr std::size_t kMaxString = 255;
constexpr std::size_t kMaxWorld = 16u << 20;  // a world description, not a world
constexpr std::uint32_t kMaxBodies = 1u << 24;
// Events a game takes between two records: the queue's 4096 and what the updates between
// emitted, far below this.
constexpr std::uint64_t kMaxEventsTaken = 1u << 20;

// Little-endian fixed-width values and LEB128 varints; one Out and one In so that the
// config's field list (visit_config) serves both directions.
struct Out {
  std::vector<std::uint8_t>& bytes;
  void u8(std::uint8_t v) { bytes.push_back(v); }
  void fixed(std::uint64_t v, int size) {
    for (int i = 0; i < size; ++i) bytes.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
  }
  void varint(std::uint64_t v) {
    for (; v >= 0x80; v >>= 7) bytes.push_back(static_cast<std::uint8_t>(v | 0x80));
    bytes.push_back(static_cast<std::uint8_t>(v));
  }
  void signed_varint(std::int64_t v) {  // zigzag
    varint((static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63));
  }
  void raw(std::span<const std::uint8_t> data) { bytes.insert(bytes.end(), data.begin(), data.end()); }

  void operator()(bool& v) { u8(v ? 1 : 0); }
  void operator()(float& v) { fixed(std::bit_cast<std::uint32_t>(v), 4); }
  void operator()(int& v) { signed_varint(v); }
  void operator()(std::uint16_t& v) { varint(v); }
  void operator()(std::uint32_t& v) { varint(v); }
  void operator()(std::uint64_t& v) { fixed(v, 8); }
  void operator()(std::string& v) {
    varint(v.size());
    raw({reinterpret_cast<const std::uint8_t*>(v.data()), v.size()});
  }
  void operator()(Vec3& v) { (*this)(v.x), (*this)(v.y), (*this)(v.z); }
  // An input's game bytes: varint count up to the last non-zero one, then those bytes.
  void operator()(std::array<std::uint8_t, kMaxInputBytes>& v) {
    std::size_t count = 0;
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (v[i] != 0) count = i + 1;
    }
    varint(count);
    raw(std::span<const std::uint8_t>(v.data(), count));
  }
  template <class Enum>
    requires std::is_enum_v<Enum>
  void operator()(Enum& v) { u8(static_cast<std::uint8_t>(v)); }
};

struct In {
  std::span<const std::uint8_t> bytes;
  std::size_t& at;
  bool ok = true;
  DropReason why = DropReason::truncated;

  void fail(DropReason reason) {
    if (ok) why = reason;
    ok = false;
  }
  std::uint8_t u8() {
    if (at >= bytes.size()) {
      fail(DropReason::truncated);
      return 0;
    }
    return bytes[at++];
  }
  std::uint64_t fixed(int size) {
    std::uint64_t v = 0;
    for (int i = 0; i < size; ++i) v |= std::uint64_t{u8()} << (8 * i);
    return v;
  }
  std::uint64_t varint() {
    std::uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      const std::uint8_t b = u8();
      v |= std::uint64_t{b & 0x7Fu} << shift;
      if ((b & 0x80) == 0) return v;
    }
    fail(DropReason::malformed);  // more than ten bytes
    return 0;
  }
  std::int64_t signed_varint() {
    const std::uint64_t v = varint();
    return static_cast<std::int64_t>(v >> 1) ^ -static_cast<std::int64_t>(v & 1);
  }
  template <class Int>
  Int bounded(std::uint64_t v, std::uint64_t most) {
    if (v > most) fail(DropReason::malformed);
    return static_cast<Int>(v > most ? 0 : v);
  }
  std::span<const std::uint8_t> raw(std::size_t size) {
    if (bytes.size() - at < size) {
      fail(DropReason::truncated);
      at = bytes.size();
      return {};
    }
    const std::span<const std::uint8_t> view = bytes.subspan(at, size);
    at += size;
    return view;
  }

  void operator()(bool& v) {
    const std::uint8_t b = u8();
    if (b > 1) fail(DropReason::malformed);
    v = b == 1;
  }
  void operator()(float& v) { v = std::bit_cast<float>(static_cast<std::uint32_t>(fixed(4))); }
  void operator()(int& v) {
    const std::int64_t wide = signed_varint();
    if (wide < INT32_MIN || wide > INT32_MAX) fail(DropReason::malformed);
    v = static_cast<int>(wide);
  }
  void operator()(std::uint16_t& v) { v = bounded<std::uint16_t>(varint(), 0xFFFF); }
  void operator()(std::uint32_t& v) { v = bounded<std::uint32_t>(varint(), 0xFFFFFFFFu); }
  void operator()(std::uint64_t& v) { v = fixed(8); }
  void operator()(std::string& v) {
    const auto size = bounded<std::size_t>(varint(), kMaxString);
    const std::span<const std::uint8_t> text = raw(size);
    v.assign(text.begin(), text.end());
  }
  void operator()(Vec3& v) { (*this)(v.x), (*this)(v.y), (*this)(v.z); }
  void operator()(std::array<std::uint8_t, kMaxInputBytes>& v) {
    const auto count = bounded<std::size_t>(varint(), kMaxInputBytes);
    const std::span<const std::uint8_t> taken = raw(count);
    v = {};
    std::copy(taken.begin(), taken.end(), v.begin());
    if (count > 0 && taken.size() == count && v[count - 1] == 0) fail(DropReason::malformed);  // not the shortest
  }
  template <class Enum>
    requires std::is_enum_v<Enum>
  void operator()(Enum& v) { v = static_cast<Enum>(u8()); }
};

// Every PeerConfig field that changes what a peer simulates, sends or emits. A field added to
// PeerConfig belongs here too, and bumps kRecordingVersion.
template <class Visitor>
void visit_config(Visitor& v, PeerConfig& c) {
  v(c.session), v(c.tick_hz), v(c.history_frames), v(c.max_clock_catchup_frames), v(c.max_resimulated_frames);
  v(c.snapshot_interval_frames), v(c.rest_snapshot_interval_frames), v(c.input_redundancy);
  v(c.input_delay_frames), v(c.checksum_interval_frames), v(c.ping_interval_ms), v(c.rejoin_grace_ms);
  v(c.join_timeout_ms);
  CompareTolerance& t = c.compare;
  v(t.exact), v(t.position_m), v(t.rotation_rad), v(t.linear_velocity_mps), v(t.angular_velocity_radps);
  v(t.tolerated_frames);
  SnapshotConfig& s = c.snapshots;
  v(s.quantize), v(s.velocities_at_rest), v(s.delta), v(s.world_min), v(s.world_max), v(s.position_units_per_m);
  v(s.orientation_bits), v(s.max_linear_speed_mps), v(s.max_angular_speed_radps), v(s.velocity_units_per_mps);
  v(s.max_baseline_age_frames), v(s.prioritize), v(s.packet_budget_bytes), v(s.bytes_per_second);
  v(s.rest_priority), v(s.controlled_priority), v(s.came_to_rest_priority), v(s.settled_refresh_s);
  v(s.coasting_interval_frames), v(s.lod_near_m), v(s.lod_far_m), v(s.lod_far_factor);
  v(s.input_bytes);  // since version 2
  v(c.catchup), v(c.freeze_outside_simulated_region);
  AuthorityConfig& a = c.authority;
  v(a.r_min), v(a.T), v(a.T_predict), v(a.hysteresis), v(a.simulated_radius), v(a.max_owner_changes_per_second);
  v(a.default_owner);
  v(c.sync_test_frames), v(c.measure_update_cost);
  // Since version 2. Written from a copy and read into a fresh config, so the locals serve
  // both directions.
  SpawnConfig& sp = c.spawning;
  std::uint64_t per_peer = sp.max_objects_per_peer;
  v(per_peer), v(sp.max_spawns_per_second);
  sp.max_objects_per_peer = static_cast<std::size_t>(per_peer);
  auto types = static_cast<std::uint16_t>(std::min<std::size_t>(sp.removed_on_leave.size(), 0xFFFF));
  v(types);
  sp.removed_on_leave.resize(types);
  for (std::uint16_t& type : sp.removed_on_leave) v(type);
  // Since version 3.
  PaceConfig& p = c.pace;
  v(p.enabled), v(p.min_rate), v(p.lag_frames), v(p.decrease), v(p.increase), v(p.interval_ms), v(p.recover_ms);
  // Since version 4: what a peer accepts of others' game messages decides the events it emits.
  MessageConfig& m = c.messages;
  std::uint64_t message_bytes = m.max_message_bytes, bytes_per_second = m.max_bytes_per_second, queued = m.max_queued;
  v(message_bytes), v(bytes_per_second), v(m.max_messages_per_second), v(queued);
  m.max_message_bytes = static_cast<std::size_t>(message_bytes);
  m.max_bytes_per_second = static_cast<std::size_t>(bytes_per_second);
  m.max_queued = static_cast<std::size_t>(queued);
  // Since version 4, too: what a spawn may carry.
  auto spawn_bytes = static_cast<std::uint16_t>(std::min<std::size_t>(sp.max_spawn_bytes, 0xFFFF));
  v(spawn_bytes);
  sp.max_spawn_bytes = spawn_bytes;
}

template <class Visitor>
void visit_smoothing(Visitor& v, SmoothingRule& r) {
  v(r.warp_distance_m), v(r.warp_angle_rad), v(r.blend_threshold_m), v(r.blend_threshold_rad), v(r.slow_speed);
  v(r.slow_blend_threshold_m), v(r.slow_blend_threshold_rad), v(r.low_speed), v(r.high_speed);
  v(r.blend_rate_low_speed), v(r.blend_rate_high_speed), v(r.min_closing_speed_low), v(r.min_closing_speed_high);
  v(r.min_closing_angular_speed_low), v(r.min_closing_angular_speed_high);
}

template <class Visitor>
void visit_check(Visitor& v, RecordedCheck& c) {
  v(c.states), v(c.events), v(c.sends);
}

void write_address(Out& out, const Address& a) {
  std::string host = a.host;
  out(host);
  out.fixed(a.port, 2);
}

Address read_address(In& in) {
  Address a;
  in(a.host);
  a.port = static_cast<std::uint16_t>(in.fixed(2));
  return a;
}

void write_state(Out& out, ObjectState s) {
  out(s.position), out(s.orientation.w), out(s.orientation.x), out(s.orientation.y), out(s.orientation.z);
  out(s.linear_velocity), out(s.angular_velocity), out(s.at_rest);
}

ObjectState read_state(In& in) {
  ObjectState s;
  in(s.position), in(s.orientation.w), in(s.orientation.x), in(s.orientation.y), in(s.orientation.z);
  in(s.linear_velocity), in(s.angular_velocity), in(s.at_rest);
  return s;
}

DecodeStatus status_of(const In& in) { return in.ok ? DecodeStatus::success() : DecodeStatus(in.why); }

}  // namespace

void RecordingWriter::header(const RecordingHeader& h) {
  Out out{out_};
  out.raw(kMagic);
  out.fixed(kRecordingVersion, 2);
  RecordingHeader copy = h;  // the visitors take references (the reader's need them)
  visit_config(out, copy.config);
  SmoothingRule rule = copy.config.smoothing.default_rule();
  visit_smoothing(out, rule);
  out.varint(copy.world.size());
  out.raw(copy.world);
  out(copy.secret), out(copy.has_controlled), out(copy.controlled);
  out(copy.input.axis), out(copy.input.buttons), out(copy.input.bytes);
  out(copy.body_count), out(copy.world_states);
}

void RecordingWriter::update(std::int64_t now_us) {
  Out out{out_};
  out.u8(static_cast<std::uint8_t>(RecordKind::update));
  out.signed_varint(now_us - last_update_us_);
  last_update_us_ = now_us;
}

void RecordingWriter::poll(const TransportEvent* event) {
  Out out{out_};
  if (event == nullptr) return out.u8(static_cast<std::uint8_t>(RecordKind::poll_empty));
  out.u8(static_cast<std::uint8_t>(RecordKind::poll));
  out.u8(static_cast<std::uint8_t>(event->kind));
  out.varint(event->connection);
  if (event->kind != TransportEventKind::message) return;
  out.u8(static_cast<std::uint8_t>(event->channel));
  out.varint(event->payload.size());
  out.raw(event->payload);
}

void RecordingWriter::connect(ConnectionId result) {
  Out out{out_};
  out.u8(static_cast<std::uint8_t>(RecordKind::connect));
  out.varint(result);
}

void RecordingWriter::local_address(const Address& address) {
  Out out{out_};
  out.u8(static_cast<std::uint8_t>(RecordKind::local_address));
  write_address(out, address);
}

void RecordingWriter::remote_address(ConnectionId connection, const Address& address) {
  Out out{out_};
  out.u8(static_cast<std::uint8_t>(RecordKind::remote_address));
  out.varint(connection);
  write_address(out, address);
}

void RecordingWriter::input(const Input& input) {
  Out out{out_};
  out.u8(static_cast<std::uint8_t>(RecordKind::input));
  Input copy = input;
  out(copy.axis), out(copy.buttons), out(copy.bytes);
}

void RecordingWriter::controlled(ObjectId object) {
  Out out{out_};
  out.u8(static_cast<std::uint8_t>(RecordKind::controlled));
  out.varint(object);
}

void RecordingWriter::host() { out_.push_back(static_cast<std::uint8_t>(RecordKind::host)); }

void RecordingWriter::join(const Address& address) {
  Out out{out_};
  out.u8(static_cast<std::uint8_t>(RecordKind::join));
  write_address(out, address);
}

void RecordingWriter::leave() { out_.push_back(static_cast<std::uint8_t>(RecordKind::leave)); }

void RecordingWriter::spawn(std::uint16_t type, const ObjectState& state, std::span<const std::uint8_t> bytes,
                            ObjectId object) {
  Out out{out_};
  out.u8(static_cast<std::uint8_t>(RecordKind::spawn));
  out.varint(type);
  write_state(out, state);
  out.varint(bytes.size());
  out.raw(bytes);
  out.varint(object);
}

void RecordingWriter::remove(ObjectId object) {
  Out out{out_};
  out.u8(static_cast<std::uint8_t>(RecordKind::remove));
  out.varint(object);
}

void RecordingWriter::message(PeerId to, Delivery delivery, Frame frame, std::span<const std::uint8_t> bytes,
                              bool sent) {
  Out out{out_};
  out.u8(static_cast<std::uint8_t>(RecordKind::message));
  out.varint(to);
  out.u8(static_cast<std::uint8_t>(delivery));
  out.signed_varint(frame);
  out.varint(bytes.size());
  out.raw(bytes);
  out.u8(sent ? 1 : 0);
}

void RecordingWriter::events_taken(std::uint64_t count) {
  Out out{out_};
  out.u8(static_cast<std::uint8_t>(RecordKind::events_taken));
  out.varint(count);
}

void RecordingWriter::check(const RecordedCheck& check) {
  Out out{out_};
  out.u8(static_cast<std::uint8_t>(RecordKind::check));
  out.signed_varint(check.frame);
  RecordedCheck copy = check;
  visit_check(out, copy);
}

void RecordingWriter::end(const RecordedCheck& check, std::span<const ObjectState> states) {
  Out out{out_};
  out.u8(static_cast<std::uint8_t>(RecordKind::end));
  out.signed_varint(check.frame);
  RecordedCheck copy = check;
  visit_check(out, copy);
  out.varint(states.size());
  for (const ObjectState& s : states) write_state(out, s);
}

DecodeStatus RecordingReader::header(RecordingHeader& h) {
  In in{bytes_, at_};
  const std::span<const std::uint8_t> magic = in.raw(sizeof kMagic);
  if (!in.ok) return status_of(in);
  if (std::memcmp(magic.data(), kMagic, sizeof kMagic) != 0) return DropReason::bad_magic;
  if (in.fixed(2) != kRecordingVersion) return in.ok ? DecodeStatus(DropReason::unsupported_version) : status_of(in);
  visit_config(in, h.config);
  SmoothingRule rule;
  visit_smoothing(in, rule);
  // Past a truncation every field reads as zero, which no smoothing rule accepts; and an
  // intact rule may be out of range. SmoothingRules throws on either: the reader must not.
  if (!in.ok) return status_of(in);
  try {
    h.config.smoothing = SmoothingRules(rule);
  } catch (const std::invalid_argument&) {
    return DropReason::malformed;
  }
  const auto world_size = in.bounded<std::size_t>(in.varint(), kMaxWorld);
  const std::span<const std::uint8_t> world = in.raw(world_size);
  h.world.assign(world.begin(), world.end());
  in(h.secret), in(h.has_controlled), in(h.controlled);
  in(h.input.axis), in(h.input.buttons), in(h.input.bytes);
  in(h.body_count), in(h.world_states);
  if (in.ok && h.body_count > kMaxBodies) in.fail(DropReason::malformed);
  return status_of(in);
}

DecodeStatus RecordingReader::next(Record& r, bool& at_end) {
  at_end = at_ >= bytes_.size();
  if (at_end) return DecodeStatus::success();
  In in{bytes_, at_};
  r.kind = static_cast<RecordKind>(in.u8());
  switch (r.kind) {
    case RecordKind::update:
      // A damaged delta can take the clock past what an int64 holds (found by libFuzzer).
      if (__builtin_add_overflow(last_update_us_, in.signed_varint(), &r.time_us)) in.fail(DropReason::malformed);
      last_update_us_ = r.time_us;
      break;
    case RecordKind::poll: {
      const std::uint8_t kind = in.u8();
      if (kind > static_cast<std::uint8_t>(TransportEventKind::message)) in.fail(DropReason::malformed);
      r.event = static_cast<TransportEventKind>(kind);
      r.connection = in.bounded<ConnectionId>(in.varint(), 0xFFFFFFFFu);
      r.payload = {};
      if (r.event == TransportEventKind::message) {
        const std::uint8_t channel = in.u8();
        if (channel >= kChannelCount) in.fail(DropReason::malformed);
        r.channel = static_cast<Channel>(channel);
        r.payload = in.raw(in.bounded<std::size_t>(in.varint(), bytes_.size()));
      }
      break;
    }
    case RecordKind::poll_empty:
    case RecordKind::host:
    case RecordKind::leave:
      break;
    case RecordKind::connect: r.connection = in.bounded<ConnectionId>(in.varint(), 0xFFFFFFFFu); break;
    case RecordKind::local_address:
    case RecordKind::join: r.address = read_address(in); break;
    case RecordKind::remote_address:
      r.connection = in.bounded<ConnectionId>(in.varint(), 0xFFFFFFFFu);
      r.address = read_address(in);
      break;
    case RecordKind::input: in(r.input.axis), in(r.input.buttons), in(r.input.bytes); break;
    case RecordKind::controlled:
    case RecordKind::remove: r.object = in.bounded<ObjectId>(in.varint(), 0xFFFFFFFFu); break;
    case RecordKind::spawn: {
      r.type = in.bounded<std::uint16_t>(in.varint(), 0xFFFF);
      r.state = read_state(in);
      const std::span<const std::uint8_t> bytes = in.raw(in.bounded<std::size_t>(in.varint(), kMaxSpawnBytes));
      r.spawn_bytes.assign(bytes);
      r.object = in.bounded<ObjectId>(in.varint(), 0xFFFFFFFFu);
      break;
    }
    case RecordKind::message: {
      r.peer = in.bounded<PeerId>(in.varint(), kNoPeer);
      const std::uint8_t delivery = in.u8();
      if (delivery > static_cast<std::uint8_t>(Delivery::unreliable)) in.fail(DropReason::malformed);
      r.delivery = static_cast<Delivery>(delivery);
      int frame = 0;
      in(frame);
      if (frame < kNoFrame) in.fail(DropReason::malformed);
      r.frame = frame;
      r.payload = in.raw(in.bounded<std::size_t>(in.varint(), kMaxReliableMessageBytes));
      in(r.sent);
      break;
    }
    case RecordKind::events_taken: r.count = in.bounded<std::uint64_t>(in.varint(), kMaxEventsTaken); break;
    case RecordKind::check:
    case RecordKind::end: {
      int frame = 0;
      in(frame);
      r.check.frame = frame;
      visit_check(in, r.check);
      r.states.clear();
      if (r.kind == RecordKind::end) {
        const auto count = in.bounded<std::size_t>(in.varint(), kMaxBodies);
        for (std::size_t i = 0; i < count && in.ok; ++i) r.states.push_back(read_state(in));
      }
      break;
    }
    default: in.fail(DropReason::unknown_kind); break;
  }
  return status_of(in);
}

}  // namespace shoal::wire
