// SPDX-License-Identifier: MIT
#include "wire/snapshot_codec.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

#include "wire/bit_stream.hpp"

namespace shoal::wire {
namespace {

// Signed widths of the small, medium and large relative encodings (SPEC.md). A vector takes
// the smallest class all three of its differences fit; the next code means absolute.
using Classes = std::array<int, 3>;
constexpr Classes kPositionClasses{7, 12, 17};
constexpr Classes kOrientationClasses{6, 10, 13};
constexpr Classes kVelocityClasses{6, 10, 14};
constexpr std::uint32_t kAbsoluteClass = 3;
// A reader takes a vector's three differences in one BitReader::wide_bits call.
static_assert(3 * std::max({kPositionClasses[2], kOrientationClasses[2], kVelocityClasses[2]}) <= 57);
constexpr int kIndexBits = 20;
constexpr std::uint32_t kMaxObjectCount = 2047;
constexpr std::uint32_t kShortAge = 32;
// The fewest bits a quantised record can take (gap, has_baseline, at_rest, two unchanged flags),
// to bound a count before anything is allocated for it.
constexpr std::size_t kMinRecordBits = 5;

constexpr std::int32_t class_low(int bits) { return -(1 << (bits - 1)); }
constexpr std::int32_t class_high(int bits) { return (1 << (bits - 1)) - 1; }

bool is_zero(const std::array<std::int32_t, 3>& v) { return (v[0] | v[1] | v[2]) == 0; }

bool fits(const std::array<std::int32_t, 3>& v, int bits) {
  for (std::int32_t x : v) {
    if (x < class_low(bits) || x > class_high(bits)) return false;
  }
  return true;
}

// The smallest class the differences fit, or kAbsoluteClass.
std::uint32_t class_of(const std::array<std::int32_t, 3>& v, const Classes& classes) {
  for (std::uint32_t c = 0; c < classes.size(); ++c) {
    if (fits(v, classes[c])) return c;
  }
  return kAbsoluteClass;
}

template <class Stream>
bool serialize_absolute(Stream& s, VectorField& f, const std::array<std::uint32_t, 3>& max) {
  if constexpr (Stream::reading) f.coding = Coding::absolute;
  for (std::size_t a = 0; a < 3; ++a) {
    if (!serialize_uint(s, f.value[a], 0, max[a])) return false;
  }
  return true;
}

// One vector field. Without a baseline it is absolute; with one: a changed bit, then a class
// (small, medium, large difference, or absolute). `largest` travels with an absolute
// orientation.
template <class Stream>
bool serialize_vector(Stream& s, VectorField& f, bool with_baseline, const Classes& classes,
                      const std::array<std::uint32_t, 3>& max, std::uint32_t* largest = nullptr) {
  std::uint32_t cls = kAbsoluteClass;
  if (with_baseline) {
    bool changed = f.coding != Coding::unchanged;
    if (!serialize_bool(s, changed)) return false;
    if (!changed) {
      if constexpr (Stream::reading) {
        f.coding = Coding::unchanged;
        f.value = {};
      }
      return true;
    }
    if constexpr (Stream::writing) {
      cls = f.coding == Coding::absolute ? kAbsoluteClass : class_of(f.value, classes);
      if (f.coding == Coding::delta && cls == kAbsoluteClass) return s.fail(DropReason::malformed);
    }
    if (!serialize_uint(s, cls, 0, kAbsoluteClass)) return false;
  }
  if (cls == kAbsoluteClass) {
    if (largest != nullptr && !serialize_uint(s, *largest, 0, 3)) return false;
    return serialize_absolute(s, f, max);
  }
  const int bits = classes[cls];
  if constexpr (Stream::reading) {
    // The three differences are written one after the other (below), so one wide read takes
    // them all. Each class is a power-of-two range: every offset is a valid value.
    std::uint64_t packed = 0;
    if (!s.wide_bits(packed, 3 * bits)) return false;
    for (std::size_t a = 0; a < 3; ++a) {
      const auto offset = static_cast<std::int32_t>((packed >> (a * static_cast<std::size_t>(bits))) & low_mask(bits));
      f.value[a] = class_low(bits) + offset;
    }
    f.coding = Coding::delta;
    // One encoding per value: the smallest class that fits, and no all-zero "change".
    if (is_zero(f.value) || (cls > 0 && fits(f.value, classes[cls - 1]))) return s.fail(DropReason::malformed);
  } else {
    for (std::int32_t& x : f.value) {
      if (!serialize_int(s, x, class_low(bits), class_high(bits))) return false;
    }
  }
  return true;
}

bool same_bits(const Input& a, const Input& b) {
  return std::bit_cast<std::array<std::uint32_t, 3>>(a.axis) == std::bit_cast<std::array<std::uint32_t, 3>>(b.axis) &&
         a.buttons == b.buttons && a.bytes == b.bytes;
}

// The game's input bytes: a 7-bit count up to the last non-zero byte (0..64), then the bytes.
// Trailing zeros are not sent; a count past what the receiver's game uses is oversize.
template <class Stream>
bool serialize_input_bytes(Stream& s, Input& input, std::uint32_t max_bytes) {
  std::uint32_t count = 0;
  if constexpr (Stream::writing) {
    for (std::uint32_t i = 0; i < kMaxInputBytes; ++i) {
      if (input.bytes[i] != 0) count = i + 1;
    }
  }
  if (!s.bits(count, 7)) return false;
  if constexpr (Stream::reading) {
    if (count > max_bytes) return s.fail(DropReason::oversize);
  }
  for (std::uint32_t i = 0; i < count; ++i) {
    std::uint32_t byte = input.bytes[i];
    if (!s.bits(byte, 8)) return false;
    if constexpr (Stream::reading) input.bytes[i] = static_cast<std::uint8_t>(byte);
  }
  if constexpr (Stream::reading) {
    if (count > 0 && input.bytes[count - 1] == 0) return s.fail(DropReason::malformed);  // not the shortest
  }
  return true;
}

template <class Stream>
bool serialize_vec3(Stream& s, Vec3& v) {
  return serialize_float(s, v.x) && serialize_float(s, v.y) && serialize_float(s, v.z);
}

// Index gap from the previous record (next = previous index + 1): '1' = 0, '01' + 3 bits =
// 1..8, '001' + 7 bits = 9..136, '000' + 20 bits = the index itself, gap > 136.
template <class Stream>
bool serialize_index(Stream& s, BodyIndex& index, BodyIndex next) {
  std::uint32_t gap = 0;
  std::uint32_t code = 0;  // number of leading zero bits
  if constexpr (Stream::writing) {
    if (index < next || index >= kMaxBodies) return s.fail(DropReason::malformed);
    gap = index - next;
    code = gap == 0 ? 0 : gap <= 8 ? 1 : gap <= 136 ? 2 : 3;
  }
  for (std::uint32_t i = 0; i < 3; ++i) {
    bool stop = i == code;
    if (!serialize_bool(s, stop)) return false;
    if (stop) {
      code = i;
      break;
    }
    if constexpr (Stream::reading) code = i + 1;
  }
  switch (code) {
    case 0: break;
    case 1: if (!serialize_uint(s, gap, 1, 8)) return false; break;
    case 2: if (!serialize_uint(s, gap, 9, 136)) return false; break;
    default: {
      std::uint32_t absolute = index;
      if (!s.bits(absolute, kIndexBits)) return false;
      if constexpr (Stream::reading) {
        if (absolute < next + 137) return s.fail(DropReason::malformed);  // a shorter code fits
        gap = absolute - next;
      }
    }
  }
  if constexpr (Stream::reading) {
    // A gap code counts from `next`, which after index 2^20 - 1 is past the last index the
    // field holds: what it names is no body, and could not be written again.
    index = next + gap;
    if (index >= kMaxBodies) return s.fail(DropReason::malformed);
  }
  return true;
}

template <class Stream>
bool serialize_state_record(Stream& s, const Snapshot& snapshot, ObjectRecord& r,
                            const QuantizedLimits& limits) {
  if (!serialize_bool(s, r.at_rest)) return false;
  const bool send_velocities = !r.at_rest || snapshot.velocities_at_rest;

  if (!snapshot.quantized) {
    ObjectState& st = r.raw;
    if (!serialize_vec3(s, st.position) || !serialize_float(s, st.orientation.w) ||
        !serialize_float(s, st.orientation.x) || !serialize_float(s, st.orientation.y) ||
        !serialize_float(s, st.orientation.z)) {
      return false;
    }
    if (send_velocities) {
      if (!serialize_vec3(s, st.linear_velocity) || !serialize_vec3(s, st.angular_velocity)) return false;
    } else if constexpr (Stream::reading) {
      st.linear_velocity = st.angular_velocity = {};
    }
    if constexpr (Stream::reading) {
      st.at_rest = r.at_rest;
      if (std::fabs(dot(st.orientation, st.orientation) - 1.0f) > kUnitQuaternionTolerance) {
        return s.fail(DropReason::malformed);
      }
    }
    return true;
  }

  bool has_baseline = r.baseline_age > 0;
  if (!serialize_bool(s, has_baseline)) return false;
  if (has_baseline) {
    bool old = r.baseline_age > kShortAge;
    if (!serialize_bool(s, old)) return false;
    if (!(old ? serialize_uint(s, r.baseline_age, kShortAge + 1, kMaxBaselineAge)
              : serialize_uint(s, r.baseline_age, 1, kShortAge))) {
      return false;
    }
  } else if constexpr (Stream::reading) {
    r.baseline_age = 0;
  }
  const std::array<std::uint32_t, 3> smallest{limits.smallest, limits.smallest, limits.smallest};
  const std::array<std::uint32_t, 3> linear{limits.linear, limits.linear, limits.linear};
  const std::array<std::uint32_t, 3> angular{limits.angular, limits.angular, limits.angular};
  if constexpr (Stream::reading) r.largest = 0;
  if (!serialize_vector(s, r.position, has_baseline, kPositionClasses, limits.position) ||
      !serialize_vector(s, r.orientation, has_baseline, kOrientationClasses, smallest, &r.largest)) {
    return false;
  }
  if (send_velocities) {
    return serialize_vector(s, r.linear_velocity, has_baseline, kVelocityClasses, linear) &&
           serialize_vector(s, r.angular_velocity, has_baseline, kVelocityClasses, angular);
  }
  if constexpr (Stream::reading) {
    r.linear_velocity = r.angular_velocity = VectorField{Coding::unchanged, {}};
  }
  return true;
}

// User bytes end a record of a body whose type has them: with a baseline an unchanged bit,
// then (unless unchanged) the bytes, 8 bits each.
template <class Stream>
bool serialize_user_bytes(Stream& s, ObjectRecord& r, bool with_baseline) {
  UserBytes& u = r.user_bytes;
  if constexpr (Stream::writing) {
    if (u.size > kMaxUserBytes || (r.user_bytes_unchanged && !with_baseline)) {
      return s.fail(DropReason::malformed);
    }
  }
  if (u.size == 0) return true;
  bool unchanged = with_baseline && r.user_bytes_unchanged;
  if (with_baseline && !serialize_bool(s, unchanged)) return false;
  if constexpr (Stream::reading) {
    r.user_bytes_unchanged = unchanged;
    u.data = {};
  }
  if (unchanged) return true;
  for (std::size_t i = 0; i < u.size; ++i) {
    std::uint32_t byte = u.data[i];
    if (!s.bits(byte, 8)) return false;
    if constexpr (Stream::reading) u.data[i] = static_cast<std::uint8_t>(byte);
  }
  return true;
}

// A record after its index code (what encode_record writes once for many packets). `sizes`
// gives a decoded record's user-byte count by body; a written record carries its own.
template <class Stream>
bool serialize_record_payload(Stream& s, const Snapshot& snapshot, ObjectRecord& r,
                              const QuantizedLimits& limits, std::span<const std::uint8_t> sizes) {
  if (!serialize_state_record(s, snapshot, r, limits)) return false;
  if constexpr (Stream::reading) {
    r.user_bytes.size = r.index < sizes.size() ? sizes[r.index] : 0;
    r.user_bytes_unchanged = false;
  }
  return serialize_user_bytes(s, r, snapshot.quantized && r.baseline_age > 0);
}

template <class Stream>
bool serialize_ack(Stream& s, SnapshotAck& ack) {
  std::uint32_t newest = ack.newest, previous = ack.previous;
  if (!s.bits(newest, 16) || !s.bits(previous, 32)) return false;
  std::uint32_t count = static_cast<std::uint32_t>(ack.resets.size());
  if (!serialize_uint(s, count, 0, kMaxAckResets)) return false;
  if constexpr (Stream::reading) {
    ack.newest = static_cast<std::uint16_t>(newest);
    ack.previous = previous;
    ack.resets.resize(count);
  }
  for (BodyIndex& body : ack.resets) {
    if (!serialize_uint(s, body, 0, kMaxBodies - 1)) return false;
  }
  return true;
}

// Everything before the records.
template <class Stream>
bool serialize_header(Stream& s, Snapshot& m, std::uint32_t max_input_bytes = kMaxInputBytes) {
  std::uint32_t sender = m.sender, frame = static_cast<std::uint32_t>(m.frame), sequence = m.sequence;
  bool has_controlled = m.controlled != kNoObject;
  if (!s.bits(sender, 16) || !s.bits(frame, 32) || !s.bits(sequence, 16) ||
      !serialize_bool(s, m.quantized) || !serialize_bool(s, m.velocities_at_rest) ||
      !serialize_bool(s, m.has_ack) || !serialize_bool(s, has_controlled)) {
    return false;
  }
  if constexpr (Stream::reading) {
    m.sender = static_cast<PeerId>(sender);
    m.frame = static_cast<Frame>(frame);
    m.sequence = static_cast<std::uint16_t>(sequence);
  }
  if (m.has_ack && !serialize_ack(s, m.ack)) return false;
  if constexpr (Stream::reading) {
    if (!m.has_ack) m.ack = {};
  }
  if (has_controlled) {
    std::uint32_t controlled = m.controlled;
    if (!s.bits(controlled, 32)) return false;
    if constexpr (Stream::reading) {
      if (controlled == kNoObject) return s.fail(DropReason::malformed);  // say it with the flag
      m.controlled = controlled;
    }
  } else if constexpr (Stream::reading) {
    m.controlled = kNoObject;
  }
  std::uint32_t inputs = static_cast<std::uint32_t>(m.inputs.size());
  if (!serialize_uint(s, inputs, 0, kMaxInputRecords)) return false;
  if constexpr (Stream::reading) m.inputs.resize(inputs);
  for (std::size_t k = 0; k < m.inputs.size(); ++k) {
    InputRecord& r = m.inputs[k];
    // Negative for the frames ahead that a sender's input delay makes known already.
    std::int32_t back = 0;
    if constexpr (Stream::writing) {
      const std::int64_t wide = static_cast<std::int64_t>(m.frame) - r.frame;
      if (wide < -kMaxInputFramesAhead || wide > kMaxInputFramesBack) return s.fail(DropReason::malformed);
      back = static_cast<std::int32_t>(wide);
    }
    if (!serialize_int(s, back, -kMaxInputFramesAhead, kMaxInputFramesBack)) return false;
    if constexpr (Stream::reading) {
      // Near either end of the frame range, `frame - back` may name no frame at all: read as a
      // Frame it would wrap to the other end (and re-encode to another `back`).
      const std::int64_t wide = static_cast<std::int64_t>(m.frame) - back;
      if (wide < std::numeric_limits<Frame>::min() || wide > std::numeric_limits<Frame>::max()) {
        return s.fail(DropReason::malformed);
      }
      r.frame = static_cast<Frame>(wide);
    }
    // Inputs mostly repeat: one bit says "the same as the record before".
    bool same = k > 0 && same_bits(r.input, m.inputs[k - 1].input);
    if (k > 0 && !serialize_bool(s, same)) return false;
    if (same) {
      if constexpr (Stream::reading) r.input = m.inputs[k - 1].input;
      continue;
    }
    if constexpr (Stream::reading) r.input = Input{};
    if (!serialize_vec3(s, r.input.axis) || !s.bits(r.input.buttons, 32) ||
        !serialize_input_bytes(s, r.input, max_input_bytes)) {
      return false;
    }
    if constexpr (Stream::reading) {
      if (k > 0 && same_bits(r.input, m.inputs[k - 1].input)) return s.fail(DropReason::malformed);
    }
  }
  return true;
}

bool read_snapshot(BitReader& s, Snapshot& m, const QuantizedLimits& limits,
                   std::span<const std::uint8_t> user_bytes_sizes) {
  if (!serialize_header(s, m, limits.input_bytes)) return false;
  std::uint32_t count = 0;
  if (!serialize_uint(s, count, 0, kMaxObjectCount)) return false;
  if (count * kMinRecordBits > s.remaining_bits()) return s.fail(DropReason::truncated);
  m.objects.resize(count);
  BodyIndex next = 0;
  for (ObjectRecord& r : m.objects) {
    if (!serialize_index(s, r.index, next) ||
        !serialize_record_payload(s, m, r, limits, user_bytes_sizes)) {
      return false;
    }
    next = r.index + 1;
  }
  return true;
}

// The header, then `count` records, each an index code and the bits `record_at(i)` encoded
// for it (an EncodedRef; a null one fails the whole).
template <class RecordAt>
bool write_snapshot(const Snapshot& snapshot, std::size_t count, RecordAt&& record_at,
                    std::vector<std::uint8_t>& out) {
  write_header(MessageKind::snapshot, out);
  BitWriter writer(out);
  std::size_t written_count = count;
  bool written = serialize_header(writer, const_cast<Snapshot&>(snapshot)) &&
                 serialize_uint(writer, written_count, 0, kMaxObjectCount);
  BodyIndex next = 0;
  for (std::size_t i = 0; written && i < count; ++i) {
    const EncodedRef record = record_at(i);
    BodyIndex index = record.index;
    written = record.encoded != nullptr && serialize_index(writer, index, next);
    if (written) writer.append(record.encoded->words, record.encoded->bits);
    next = index + 1;
  }
  writer.finish();
  if (!written || out.size() > kMaxUnreliableDatagram) {
    out.clear();
    return false;
  }
  return true;
}

template <class Stream>
bool serialize_ack_message(Stream& s, SnapshotAckMessage& m) {
  std::uint32_t sender = m.sender;
  if (!s.bits(sender, 16)) return false;
  if constexpr (Stream::reading) m.sender = static_cast<PeerId>(sender);
  return serialize_ack(s, m.ack);
}

bool vector_changed(const std::array<std::uint32_t, 3>& now, const std::array<std::uint32_t, 3>& base,
                    VectorField& f) {
  for (std::size_t a = 0; a < 3; ++a) {
    f.value[a] = static_cast<std::int32_t>(static_cast<std::int64_t>(now[a]) - base[a]);
  }
  if (is_zero(f.value)) {
    f.coding = Coding::unchanged;
    return false;
  }
  f.coding = Coding::delta;
  return true;
}

VectorField absolute(const std::array<std::uint32_t, 3>& v) {
  return {Coding::absolute, {static_cast<std::int32_t>(v[0]), static_cast<std::int32_t>(v[1]),
                             static_cast<std::int32_t>(v[2])}};
}

// A delta that fits no relative class goes absolute.
void relative(const std::array<std::uint32_t, 3>& now, const std::array<std::uint32_t, 3>& base,
              const Classes& classes, VectorField& f) {
  if (vector_changed(now, base, f) && class_of(f.value, classes) == kAbsoluteClass) f = absolute(now);
}

bool apply_vector(const VectorField& f, const std::array<std::uint32_t, 3>& base,
                  std::array<std::uint32_t, 3>& out) {
  for (std::size_t a = 0; a < 3; ++a) {
    std::int64_t v = base[a];
    if (f.coding == Coding::delta) v += f.value[a];
    if (f.coding == Coding::absolute) v = f.value[a];
    if (v < 0 || v > 0xFFFFFFFFll) return false;
    out[a] = static_cast<std::uint32_t>(v);
  }
  return true;
}

}  // namespace

ObjectRecord make_record(BodyIndex index, const QuantizedState& current, const QuantizedState* baseline,
                         std::uint32_t age) {
  ObjectRecord r;
  r.index = index;
  r.at_rest = current.at_rest;
  if (baseline == nullptr || age == 0 || age > kMaxBaselineAge) {
    r.position = absolute(current.position);
    r.largest = current.largest;
    r.orientation = absolute(current.smallest);
    r.linear_velocity = absolute(current.linear_velocity);
    r.angular_velocity = absolute(current.angular_velocity);
    return r;
  }
  r.baseline_age = age;
  relative(current.position, baseline->position, kPositionClasses, r.position);
  if (current.largest == baseline->largest) {
    relative(current.smallest, baseline->smallest, kOrientationClasses, r.orientation);
  } else {
    r.orientation = absolute(current.smallest);
  }
  if (r.orientation.coding == Coding::absolute) r.largest = current.largest;
  relative(current.linear_velocity, baseline->linear_velocity, kVelocityClasses, r.linear_velocity);
  relative(current.angular_velocity, baseline->angular_velocity, kVelocityClasses, r.angular_velocity);
  return r;
}

std::optional<QuantizedState> apply_record(const ObjectRecord& r, const QuantizedState* baseline,
                                           const Quantizer& quantizer) {
  if (r.baseline_age > 0 && baseline == nullptr) return std::nullopt;
  static const QuantizedState kNone;
  const QuantizedState& base = baseline != nullptr && r.baseline_age > 0 ? *baseline : kNone;
  QuantizedState q;
  q.at_rest = r.at_rest;
  q.largest = r.orientation.coding == Coding::absolute ? r.largest : base.largest;
  if (!apply_vector(r.position, base.position, q.position) ||
      !apply_vector(r.orientation, base.smallest, q.smallest)) {
    return std::nullopt;
  }
  if (r.at_rest) {  // at rest means still, whatever was sent
    q.linear_velocity.fill(quantizer.limits().linear_zero);
    q.angular_velocity.fill(quantizer.limits().angular_zero);
  } else if (!apply_vector(r.linear_velocity, base.linear_velocity, q.linear_velocity) ||
             !apply_vector(r.angular_velocity, base.angular_velocity, q.angular_velocity)) {
    return std::nullopt;
  }
  if (!quantizer.in_range(q)) return std::nullopt;
  return q;
}

void set_user_bytes(ObjectRecord& record, std::span<const std::uint8_t> current,
                    std::span<const std::uint8_t> baseline) {
  record.user_bytes.assign(current);
  record.user_bytes_unchanged =
      record.baseline_age > 0 && std::ranges::equal(record.user_bytes.view(), baseline);
}

bool apply_user_bytes(const ObjectRecord& record, std::span<const std::uint8_t> baseline,
                      std::span<std::uint8_t> out) {
  const std::span<const std::uint8_t> from =
      record.user_bytes_unchanged ? baseline.first(std::min(baseline.size(), out.size()))
                                  : record.user_bytes.view();
  if (from.size() != out.size()) return false;
  std::copy(from.begin(), from.end(), out.begin());
  return true;
}

std::size_t header_bits(const Snapshot& snapshot) {
  BitMeasurer m;
  Snapshot& s = const_cast<Snapshot&>(snapshot);  // a measurer only reads
  serialize_header(m, s);
  std::uint32_t count = 0;
  serialize_uint(m, count, 0, kMaxObjectCount);
  return m.bits_used();
}

std::size_t record_bits(const Snapshot& snapshot, const ObjectRecord& record, BodyIndex gap,
                        const QuantizedLimits& limits) {
  EncodedRecord encoded;
  (void)encode_record(snapshot, record, limits, encoded);  // bits up to a failure, as written
  return index_bits(gap) + encoded.bits;
}

std::size_t index_bits(BodyIndex gap) {
  BitMeasurer m;
  BodyIndex index = gap;
  serialize_index(m, index, 0);
  return m.bits_used();
}

bool encode_record(const Snapshot& snapshot, const ObjectRecord& record, const QuantizedLimits& limits,
                   EncodedRecord& out) {
  WordWriter writer(out.words);
  ObjectRecord& r = const_cast<ObjectRecord&>(record);  // a writer only reads
  const bool written = serialize_record_payload(writer, snapshot, r, limits, {});
  out.bits = static_cast<std::uint32_t>(writer.bits_used());
  return written;
}

bool encode(const Snapshot& snapshot, const QuantizedLimits& limits, std::vector<std::uint8_t>& out) {
  EncodedRecord encoded;  // one record at a time
  return write_snapshot(
      snapshot, snapshot.objects.size(),
      [&](std::size_t i) {
        const ObjectRecord& r = snapshot.objects[i];
        return EncodedRef{r.index, encode_record(snapshot, r, limits, encoded) ? &encoded : nullptr};
      },
      out);
}

bool encode(const Snapshot& snapshot, std::span<const EncodedRef> records, std::vector<std::uint8_t>& out) {
  return write_snapshot(snapshot, records.size(), [&](std::size_t i) { return records[i]; }, out);
}

bool encode(const SnapshotAckMessage& message, std::vector<std::uint8_t>& out) {
  write_header(MessageKind::snapshot_ack, out);
  BitWriter writer(out);
  const bool written = serialize_ack_message(writer, const_cast<SnapshotAckMessage&>(message));
  writer.finish();
  if (!written) {
    out.clear();
    return false;
  }
  return true;
}

DecodeStatus decode(std::span<const std::uint8_t> datagram, const QuantizedLimits& limits,
                    Snapshot& snapshot, std::span<const std::uint8_t> user_bytes_sizes) {
  if (const DecodeStatus header = expect_header(datagram, MessageKind::snapshot); !header) return header;
  BitReader reader(datagram.subspan(kHeaderSize));
  if (!read_snapshot(reader, snapshot, limits, user_bytes_sizes) || !reader.finish()) return reader.reason();
  return DecodeStatus::success();
}

DecodeStatus decode(std::span<const std::uint8_t> datagram, SnapshotAckMessage& message) {
  if (const DecodeStatus header = expect_header(datagram, MessageKind::snapshot_ack); !header) return header;
  BitReader reader(datagram.subspan(kHeaderSize));
  if (!serialize_ack_message(reader, message) || !reader.finish()) return reader.reason();
  return DecodeStatus::success();
}

}  // namespace shoal::wire
