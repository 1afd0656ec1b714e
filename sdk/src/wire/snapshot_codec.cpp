#include "wire/snapshot_codec.hpp"

#include <bit>
#include <cmath>
#include <cstring>

namespace shoal::wire {
namespace {

static_assert(std::endian::native == std::endian::little,
              "the snapshot codec copies little-endian values directly; add byte swaps first");

constexpr std::uint8_t kAtRestFlag = 0x01;

class Writer {
 public:
  explicit Writer(std::vector<std::uint8_t>& out) : out_(out) {}

  template <class T>
  void put(T value) {
    const std::size_t at = out_.size();
    out_.resize(at + sizeof(T));
    std::memcpy(out_.data() + at, &value, sizeof(T));
  }
  void put(Vec3 v) { put(v.x); put(v.y); put(v.z); }
  void put(Quat q) { put(q.w); put(q.x); put(q.y); put(q.z); }

 private:
  std::vector<std::uint8_t>& out_;
};

// Reads fixed-size values; the caller checks the total size up front, so reads cannot overrun.
class Reader {
 public:
  explicit Reader(std::span<const std::uint8_t> bytes) : bytes_(bytes) {}

  template <class T>
  T get() {
    T value;
    std::memcpy(&value, bytes_.data() + at_, sizeof(T));
    at_ += sizeof(T);
    return value;
  }
  // Sets `finite_` false on NaN or infinity instead of failing at once, so one check per
  // record suffices.
  float get_float() {
    const float value = get<float>();
    finite_ = finite_ && std::isfinite(value);
    return value;
  }
  Vec3 get_vec3() {
    const float x = get_float(), y = get_float(), z = get_float();
    return {x, y, z};
  }
  Quat get_quat() {
    const float w = get_float(), x = get_float(), y = get_float(), z = get_float();
    return {w, x, y, z};
  }
  std::size_t remaining() const { return bytes_.size() - at_; }
  bool all_finite() const { return finite_; }

 private:
  std::span<const std::uint8_t> bytes_;
  std::size_t at_ = 0;
  bool finite_ = true;
};

bool is_unit(Quat q) { return std::fabs(dot(q, q) - 1.0f) <= kUnitQuaternionTolerance; }

}  // namespace

std::size_t encoded_size(const Snapshot& snapshot) {
  return kSnapshotFixedBytes + snapshot.inputs.size() * kInputRecordBytes +
         snapshot.objects.size() * kObjectRecordBytes;
}

bool encode(const Snapshot& snapshot, std::vector<std::uint8_t>& out) {
  if (encoded_size(snapshot) > kMaxUnreliableDatagram) {
    out.clear();
    return false;
  }
  write_header(MessageKind::snapshot, out);
  Writer writer(out);
  writer.put(snapshot.sender);
  writer.put(snapshot.frame);
  writer.put(snapshot.controlled);
  // Both counts fit in 16 bits: the size check above bounds them far lower.
  writer.put(static_cast<std::uint16_t>(snapshot.inputs.size()));
  for (const InputRecord& record : snapshot.inputs) {
    writer.put(record.frame);
    writer.put(record.input.axis);
    writer.put(record.input.buttons);
  }
  writer.put(static_cast<std::uint16_t>(snapshot.objects.size()));
  for (const ObjectRecord& record : snapshot.objects) {
    const ObjectState& state = record.state;
    writer.put(record.id);
    writer.put(state.position);
    writer.put(state.orientation);
    writer.put(state.linear_velocity);
    writer.put(state.angular_velocity);
    writer.put(static_cast<std::uint8_t>(state.at_rest ? kAtRestFlag : 0));
  }
  return true;
}

DecodeStatus decode(std::span<const std::uint8_t> datagram, Snapshot& snapshot) {
  if (const DecodeStatus header = expect_header(datagram, MessageKind::snapshot); !header) {
    return header;
  }
  if (datagram.size() < kSnapshotFixedBytes) return DropReason::truncated;
  Reader reader(datagram.subspan(kHeaderSize));
  snapshot.sender = reader.get<PeerId>();
  snapshot.frame = reader.get<Frame>();
  snapshot.controlled = reader.get<ObjectId>();

  const auto input_count = reader.get<std::uint16_t>();
  // The object count (2 bytes) still follows the inputs.
  if (input_count * kInputRecordBytes + 2 > reader.remaining()) return DropReason::truncated;
  snapshot.inputs.resize(input_count);
  for (InputRecord& record : snapshot.inputs) {
    record.frame = reader.get<Frame>();
    record.input.axis = reader.get_vec3();
    record.input.buttons = reader.get<std::uint32_t>();
  }

  const auto object_count = reader.get<std::uint16_t>();
  if (object_count * kObjectRecordBytes > reader.remaining()) return DropReason::truncated;
  if (object_count * kObjectRecordBytes < reader.remaining()) return DropReason::malformed;
  snapshot.objects.resize(object_count);
  for (ObjectRecord& record : snapshot.objects) {
    ObjectState& state = record.state;
    record.id = reader.get<ObjectId>();
    state.position = reader.get_vec3();
    state.orientation = reader.get_quat();
    state.linear_velocity = reader.get_vec3();
    state.angular_velocity = reader.get_vec3();
    const auto flags = reader.get<std::uint8_t>();
    if ((flags & ~kAtRestFlag) != 0) return DropReason::malformed;  // reserved bits
    state.at_rest = (flags & kAtRestFlag) != 0;
    if (!reader.all_finite() || !is_unit(state.orientation)) return DropReason::malformed;
  }
  if (!reader.all_finite()) return DropReason::malformed;  // a NaN among the inputs
  return DecodeStatus::success();
}

}  // namespace shoal::wire
