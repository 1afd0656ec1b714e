// SPDX-License-Identifier: MIT
#include "wire/control_messages.hpp"
#include "wire/state_checks.hpp"

#include "shoal/simulation.hpp"

#include <cereal/archives/portable_binary.hpp>
#include <cereal/cereal.hpp>

#include <cmath>
#include <istream>
#include <limits>
#include <ostream>
#include <streambuf>

namespace shoal::wire {
namespace {

// Cereal's portable archive starts with one byte naming the byte order it wrote; Shoal always
// writes little-endian and rejects anything else, so the format has one byte order only.
constexpr std::uint8_t kLittleEndianMarker = 1;

// Thrown from inside serialisation, caught at the API boundary.
struct EncodeRefused {};
struct DecodeRefused {
  DropReason reason;
};

// Appends what Cereal writes to a byte vector.
class VectorWriter : public std::streambuf {
 public:
  explicit VectorWriter(std::vector<std::uint8_t>& out) : out_(out) {}

 protected:
  int_type overflow(int_type c) override {
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    out_.push_back(static_cast<std::uint8_t>(c));
    return c;
  }
  std::streamsize xsputn(const char* data, std::streamsize count) override {
    const auto* bytes = reinterpret_cast<const std::uint8_t*>(data);
    out_.insert(out_.end(), bytes, bytes + count);
    return count;
  }

 private:
  std::vector<std::uint8_t>& out_;
};

// Lets Cereal read a span without copying it, and tells the bounded containers below how many
// bytes are left, so that no announced size can exceed what the datagram could hold.
class SpanReader : public std::streambuf {
 public:
  explicit SpanReader(std::span<const std::uint8_t> bytes) {
    // The get area is only read from; streambuf's interface just lacks a const variant.
    char* begin = const_cast<char*>(reinterpret_cast<const char*>(bytes.data()));
    setg(begin, begin, begin + bytes.size());
  }
  std::size_t remaining() const { return static_cast<std::size_t>(egptr() - gptr()); }
};

// Constructing a std::istream or std::ostream (its ios_base, its locale) cost more than most
// control messages take to encode or decode, and a peer handles several every frame: each
// thread keeps one of each, lent to one message at a time. Cereal's portable archives only
// hand the stream's buffer the bytes (sgetn, sputn), so the stream keeps no state between
// messages.
template <class Stream>
class LentStream {
 public:
  explicit LentStream(std::streambuf& buffer) : stream_(held()) { stream_.rdbuf(&buffer); }
  ~LentStream() { stream_.rdbuf(nullptr); }  // the buffer dies with the message
  LentStream(const LentStream&) = delete;
  LentStream& operator=(const LentStream&) = delete;
  Stream& get() { return stream_; }

 private:
  static Stream& held() {
    thread_local Stream stream(nullptr);
    return stream;
  }
  Stream& stream_;
};

// Cereal hands serialisation functions its own archive type; this one also knows the reader.
class ReadArchive : public cereal::PortableBinaryInputArchive {
 public:
  ReadArchive(const SpanReader& reader, std::istream& stream)
      : PortableBinaryInputArchive(stream), reader_(reader) {}
  std::size_t remaining() const { return reader_.remaining(); }

 private:
  const SpanReader& reader_;
};

std::size_t bytes_remaining(cereal::PortableBinaryInputArchive& archive) {
  // Every decode reads through a ReadArchive; a failed cast throws and is caught as malformed.
  return dynamic_cast<ReadArchive&>(archive).remaining();
}

// Smallest encoding of one element, used to reject counts the remaining bytes cannot hold
// before anything is allocated.
constexpr std::size_t kCountBytes = sizeof(std::uint32_t);
template <class T> constexpr std::size_t min_encoded_size();
template <> constexpr std::size_t min_encoded_size<Member>() { return 2 + kCountBytes + 2; }
template <> constexpr std::size_t min_encoded_size<UsedInvitation>() { return 32 + 2; }
template <> constexpr std::size_t min_encoded_size<OwnershipChange>() { return 4 + 2 + 4 + 2 + 4; }
template <> constexpr std::size_t min_encoded_size<ObjectHash>() { return 4 + 4; }
template <> constexpr std::size_t min_encoded_size<BaselineObject>() { return 4 + 13 * 4 + 1 + 1; }
template <> constexpr std::size_t min_encoded_size<Spawn>() { return 4 + 4 + 4 + 2 + 13 * 4 + 1 + 1; }
template <> constexpr std::size_t min_encoded_size<Removal>() { return 4 + 4; }

// A string with a 32-bit length prefix, at most kMaxNameLength bytes.
struct BoundedString {
  std::string& text;

  template <class Archive>
  void save(Archive& archive) const {
    if (text.size() > kMaxNameLength) throw EncodeRefused{};
    archive(static_cast<std::uint32_t>(text.size()));
    archive(cereal::binary_data(text.data(), text.size()));
  }
  template <class Archive>
  void load(Archive& archive) {
    std::uint32_t length = 0;
    archive(length);
    if (length > kMaxNameLength) throw DecodeRefused{DropReason::malformed};
    if (length > bytes_remaining(archive)) throw DecodeRefused{DropReason::truncated};
    text.resize(length);
    archive(cereal::binary_data(text.data(), text.size()));
  }
};

// User or spawn bytes with an 8-bit size prefix, at most their capacity.
template <std::size_t N>
struct BoundedBytes {
  FixedBytes<N>& bytes;

  template <class Archive>
  void save(Archive& archive) const {
    if (bytes.size > N) throw EncodeRefused{};
    archive(bytes.size);
    archive(cereal::binary_data(bytes.data.data(), bytes.size));
  }
  template <class Archive>
  void load(Archive& archive) {
    std::uint8_t size = 0;
    archive(size);
    if (size > N) throw DecodeRefused{DropReason::malformed};
    if (size > bytes_remaining(archive)) throw DecodeRefused{DropReason::truncated};
    bytes.size = size;
    bytes.data = {};
    archive(cereal::binary_data(bytes.data.data(), bytes.size));
  }
};
template <std::size_t N> BoundedBytes(FixedBytes<N>&) -> BoundedBytes<N>;

// A bool as one byte, 0 or 1. Cereal reads a bool as its raw byte, so any other value would
// become a bool no program may hold (undefined behaviour where it is read): refused instead.
// Found by the peer and recording fuzz targets (tests/fuzz).
struct StrictBool {
  bool& value;

  template <class Archive>
  void save(Archive& archive) const {
    archive(static_cast<std::uint8_t>(value ? 1 : 0));
  }
  template <class Archive>
  void load(Archive& archive) {
    std::uint8_t byte = 0;
    archive(byte);
    if (byte > 1) throw DecodeRefused{DropReason::malformed};
    value = byte == 1;
  }
};

// A vector with a 32-bit count prefix whose count is checked before resizing.
template <class T>
struct BoundedVector {
  std::vector<T>& items;

  template <class Archive>
  void save(Archive& archive) const {
    // Anything longer could not fit in any datagram; refuse before serialising it all.
    if (items.size() > kMaxControlDatagram / min_encoded_size<T>()) throw EncodeRefused{};
    archive(static_cast<std::uint32_t>(items.size()));
    for (const T& item : items) archive(item);
  }
  template <class Archive>
  void load(Archive& archive) {
    std::uint32_t count = 0;
    archive(count);
    if (count > bytes_remaining(archive) / min_encoded_size<T>()) {
      throw DecodeRefused{DropReason::truncated};
    }
    items.resize(count);
    for (T& item : items) archive(item);
  }
};

}  // namespace

// Field order here is the wire order; SPEC.md documents it.
template <class Archive> void serialize(Archive& a, EncodingSettings& m) {
  a(StrictBool{m.quantize}, StrictBool{m.velocities_at_rest}, StrictBool{m.delta}, m.world_min.x, m.world_min.y, m.world_min.z,
    m.world_max.x, m.world_max.y, m.world_max.z, m.position_units_per_m, m.orientation_bits,
    m.max_linear_speed_mps, m.max_angular_speed_radps, m.velocity_units_per_mps,
    m.max_baseline_age_frames, m.input_bytes, m.max_spawn_bytes);
}
template <class Archive> void serialize(Archive& a, JoinRequest& m) {
  a(BoundedString{m.session}, m.listen_port, m.rejoin_id, m.secret, m.encoding);
}
template <class Archive> void serialize(Archive& a, Member& m) {
  a(m.id, BoundedString{m.host}, m.port);
}
template <class Archive> void serialize(Archive& a, UsedInvitation& m) {
  a(cereal::binary_data(m.key.data(), m.key.size()), m.peer);
}
template <class Archive> void serialize(Archive& a, Welcome& m) {
  a(m.your_id, m.host_frame, BoundedVector<Member>{m.members}, m.default_owner, m.encoding,
    BoundedVector<UsedInvitation>{m.used_invitations});
}
template <class Archive> void serialize(Archive& a, Hello& m) {
  a(m.id, BoundedString{m.session}, m.secret, m.encoding);
}
template <class Archive> void serialize(Archive& a, PeerLeft& m) { a(m.id); }
template <class Archive> void serialize(Archive& a, OwnershipChange& m) {
  a(m.object, m.new_owner, m.sequence, m.author, m.frame);
}
template <class Archive> void serialize(Archive& a, Ownership& m) {
  a(BoundedVector<OwnershipChange>{m.changes}, StrictBool{m.records});
}
template <class Archive> void serialize(Archive& a, ObjectHash& m) { a(m.object, m.hash); }
template <class Archive> void serialize(Archive& a, Checksum& m) {
  a(m.frame, BoundedVector<ObjectHash>{m.objects});
}
template <class Archive> void serialize(Archive&, BaselineRequest&) {}
template <class Archive> void serialize(Archive& a, BaselineObject& m) {
  ObjectState& s = m.state;
  a(m.object, s.position.x, s.position.y, s.position.z, s.orientation.w, s.orientation.x,
    s.orientation.y, s.orientation.z, s.linear_velocity.x, s.linear_velocity.y,
    s.linear_velocity.z, s.angular_velocity.x, s.angular_velocity.y, s.angular_velocity.z,
    StrictBool{s.at_rest}, BoundedBytes{m.user_bytes});
}
template <class Archive> void serialize(Archive& a, Baseline& m) {
  a(m.frame, BoundedVector<BaselineObject>{m.objects}, StrictBool{m.last});
}
template <class Archive> void serialize(Archive& a, Spawn& m) {
  ObjectState& s = m.state;
  a(m.frame, m.object, m.slot, m.type, s.position.x, s.position.y, s.position.z, s.orientation.w,
    s.orientation.x, s.orientation.y, s.orientation.z, s.linear_velocity.x, s.linear_velocity.y,
    s.linear_velocity.z, s.angular_velocity.x, s.angular_velocity.y, s.angular_velocity.z,
    StrictBool{s.at_rest}, BoundedBytes{m.bytes});
}
template <class Archive> void serialize(Archive& a, Removal& m) { a(m.frame, m.object); }
template <class Archive> void serialize(Archive& a, WorldChanges& m) {
  a(BoundedVector<Spawn>{m.spawns}, BoundedVector<Removal>{m.removals}, StrictBool{m.live_set});
}
template <class Archive> void serialize(Archive& a, Ping& m) { a(m.sent_us); }
template <class Archive> void serialize(Archive& a, Pong& m) {
  a(m.echoed_sent_us, m.wall_frame, m.pace_wall, m.pace_match, m.pace_rate, m.lag_frames);
}

namespace {

// Checks on values that parse but cannot be meant; only messages with such values override it.
template <class Message> bool plausible(const Message&) { return true; }
bool plausible(const Pong& pong) {
  return std::isfinite(pong.wall_frame) && std::isfinite(pong.pace_wall) && std::isfinite(pong.pace_match) &&
         std::isfinite(pong.pace_rate) && pong.pace_rate > 0 && pong.pace_rate <= 1;
}
bool plausible(const Baseline& baseline) {
  for (const BaselineObject& o : baseline.objects) {
    if (!is_plausible(o.state)) return false;
  }
  return true;
}

bool plausible(const WorldChanges& changes) {
  for (const Spawn& spawn : changes.spawns) {
    if (!is_plausible(spawn.state) || spawn.frame < 0 || (spawn.object & kSpawnedIdBit) == 0) return false;
  }
  for (const Removal& removal : changes.removals) {
    if (removal.frame < 0 || (removal.object & kSpawnedIdBit) == 0) return false;
  }
  return true;
}

template <class Message>
bool encode_message(MessageKind kind, const Message& message, std::vector<std::uint8_t>& out) {
  write_header(kind, out);
  try {
    VectorWriter writer(out);
    LentStream<std::ostream> stream(writer);
    cereal::PortableBinaryOutputArchive archive(
        stream.get(), cereal::PortableBinaryOutputArchive::Options::LittleEndian());
    archive(message);
  } catch (const EncodeRefused&) {
    out.clear();
    return false;
  }
  if (out.size() > max_datagram_size(kind)) {
    out.clear();
    return false;
  }
  return true;
}

template <class Message>
DecodeStatus decode_message(MessageKind kind, std::span<const std::uint8_t> datagram,
                            Message& message) {
  if (const DecodeStatus header = expect_header(datagram, kind); !header) return header;
  const std::span<const std::uint8_t> body = datagram.subspan(kHeaderSize);
  if (body.empty()) return DropReason::truncated;
  if (body[0] != kLittleEndianMarker) return DropReason::malformed;
  SpanReader reader(body);
  try {
    LentStream<std::istream> stream(reader);
    ReadArchive archive(reader, stream.get());
    archive(message);
  } catch (const DecodeRefused& refused) {
    return refused.reason;
  } catch (const cereal::Exception&) {
    return DropReason::truncated;  // Cereal's only failure here is reading past the end
  } catch (...) {
    return DropReason::malformed;
  }
  if (reader.remaining() != 0) return DropReason::malformed;  // trailing bytes
  if (!plausible(message)) return DropReason::malformed;
  return DecodeStatus::success();
}

}  // namespace

bool encode(const JoinRequest& m, std::vector<std::uint8_t>& out) {
  return encode_message(MessageKind::join_request, m, out);
}
bool encode(const Welcome& m, std::vector<std::uint8_t>& out) {
  return encode_message(MessageKind::welcome, m, out);
}
bool encode(const Hello& m, std::vector<std::uint8_t>& out) {
  return encode_message(MessageKind::hello, m, out);
}
bool encode(const PeerLeft& m, std::vector<std::uint8_t>& out) {
  return encode_message(MessageKind::peer_left, m, out);
}
bool encode(const Ownership& m, std::vector<std::uint8_t>& out) {
  return encode_message(MessageKind::ownership, m, out);
}
bool encode(const Checksum& m, std::vector<std::uint8_t>& out) {
  return encode_message(MessageKind::checksum, m, out);
}
bool encode(const BaselineRequest& m, std::vector<std::uint8_t>& out) {
  return encode_message(MessageKind::baseline_request, m, out);
}
bool encode(const Baseline& m, std::vector<std::uint8_t>& out) {
  return encode_message(MessageKind::baseline, m, out);
}
bool encode(const WorldChanges& m, std::vector<std::uint8_t>& out) {
  return encode_message(MessageKind::world_changes, m, out);
}
bool encode(const Ping& m, std::vector<std::uint8_t>& out) {
  return encode_message(MessageKind::ping, m, out);
}
bool encode(const Pong& m, std::vector<std::uint8_t>& out) {
  return encode_message(MessageKind::pong, m, out);
}

DecodeStatus decode(std::span<const std::uint8_t> d, JoinRequest& m) {
  return decode_message(MessageKind::join_request, d, m);
}
DecodeStatus decode(std::span<const std::uint8_t> d, Welcome& m) {
  return decode_message(MessageKind::welcome, d, m);
}
DecodeStatus decode(std::span<const std::uint8_t> d, Hello& m) {
  return decode_message(MessageKind::hello, d, m);
}
DecodeStatus decode(std::span<const std::uint8_t> d, PeerLeft& m) {
  return decode_message(MessageKind::peer_left, d, m);
}
DecodeStatus decode(std::span<const std::uint8_t> d, Ownership& m) {
  return decode_message(MessageKind::ownership, d, m);
}
DecodeStatus decode(std::span<const std::uint8_t> d, Checksum& m) {
  return decode_message(MessageKind::checksum, d, m);
}
DecodeStatus decode(std::span<const std::uint8_t> d, BaselineRequest& m) {
  return decode_message(MessageKind::baseline_request, d, m);
}
DecodeStatus decode(std::span<const std::uint8_t> d, Baseline& m) {
  return decode_message(MessageKind::baseline, d, m);
}
DecodeStatus decode(std::span<const std::uint8_t> d, WorldChanges& m) {
  return decode_message(MessageKind::world_changes, d, m);
}
DecodeStatus decode(std::span<const std::uint8_t> d, Ping& m) {
  return decode_message(MessageKind::ping, d, m);
}
DecodeStatus decode(std::span<const std::uint8_t> d, Pong& m) {
  return decode_message(MessageKind::pong, d, m);
}

}  // namespace shoal::wire
