// SPDX-License-Identifier: MIT
#include <doctest/doctest.h>

#include <cstring>
#include <limits>
#include <vector>

#include "allocation_counter.hpp"
#include "wire/control_messages.hpp"

using namespace shoal;
using namespace shoal::wire;

namespace {

template <class Message>
Message round_trip(const Message& sent) {
  std::vector<std::uint8_t> bytes;
  REQUIRE(encode(sent, bytes));
  Message received;
  const DecodeStatus status = decode(bytes, received);
  REQUIRE_MESSAGE(status.ok(), to_string(status.reason()));
  return received;
}

void put_u32(std::vector<std::uint8_t>& bytes, std::size_t at, std::uint32_t value) {
  REQUIRE(at + 4 <= bytes.size());
  std::memcpy(bytes.data() + at, &value, 4);  // the wire is little-endian, like the test host
}

// The little-endian bytes of a value, as SPEC.md lays them out (like the test host's).
template <class T>
void append(std::vector<std::uint8_t>& bytes, T value) {
  std::uint8_t raw[sizeof(T)];
  std::memcpy(raw, &value, sizeof(T));
  bytes.insert(bytes.end(), raw, raw + sizeof(T));
}

// Offsets inside encoded bodies: header, then Cereal's one-byte byte-order marker.
constexpr std::size_t kBody = kHeaderSize + 1;

}  // namespace

TEST_CASE("control: every message survives a round trip") {
  const JoinRequest join{"lan-party", 40123};
  CHECK(round_trip(join) == join);

  UsedInvitation used;
  used.key.fill(0xA5);
  used.peer = 3;
  const Welcome welcome{7, 12345,
                        {{0, "127.0.0.1", 5000}, {3, "host.example", 5003}, {9, "", 0}}, 0, {}, {used}};
  CHECK(round_trip(welcome) == welcome);
  CHECK(round_trip(Welcome{}) == Welcome{});

  const Hello hello{4, std::string(kMaxNameLength, 'x')};
  CHECK(round_trip(hello) == hello);

  CHECK(round_trip(PeerLeft{65534}) == PeerLeft{65534});

  const Ownership ownership{{{1, 2, 3, 4, 5}, {0xFFFFFFFE, kNoPeer, 0xFFFFFFFF, 0, -1}}};
  CHECK(round_trip(ownership) == ownership);

  Checksum checksum{600, {}};
  for (std::uint32_t i = 0; i < 100; ++i) checksum.objects.push_back({i, i * 2654435761u});
  CHECK(round_trip(checksum) == checksum);

  CHECK(round_trip(Ping{-5}) == Ping{-5});
  ObjectState s;
  s.position = {-1, 2.5f, 1e6f};
  s.orientation = axis_angle({0, 1, 0}, 0.5f);
  s.angular_velocity = {0, 3, 0};
  const Baseline baseline{1234, {{7, s, {}}, {8, ObjectState{}, {}}}};
  CHECK(round_trip(baseline) == baseline);
  CHECK(round_trip(JoinRequest{"s", 1, 3, 0xFEEDFACECAFEBEEFull}) ==
        JoinRequest{"s", 1, 3, 0xFEEDFACECAFEBEEFull});
  CHECK(round_trip(Ping{std::numeric_limits<std::int64_t>::max()}).sent_us ==
        std::numeric_limits<std::int64_t>::max());
  const Pong pong{1'700'000'000'000'000, 1234.625};
  CHECK(round_trip(pong) == pong);
}

TEST_CASE("control: the byte layout is little-endian and as SPEC.md describes") {
  std::vector<std::uint8_t> bytes;
  REQUIRE(encode(PeerLeft{0x0102}, bytes));
  const std::vector<std::uint8_t> expected{'S', 'H', kProtocolVersion, 4, 1, 0x02, 0x01};
  CHECK(bytes == expected);

  REQUIRE(encode(JoinRequest{"ab", 0x0A0B, 0x0304, 0x0102030405060708ull}, bytes));
  std::vector<std::uint8_t> join{'S', 'H', kProtocolVersion, 1, 1, 2, 0, 0, 0, 'a', 'b', 0x0B, 0x0A,
                                       0x04, 0x03, 8, 7, 6, 5, 4, 3, 2, 1};
  // Then EncodingSettings, the defaults: three bools, then the bounds and steps, then the limits.
  std::vector<std::uint8_t> settings{1, 0, 1};
  for (const float f : {-500.f, -50.f, -500.f, 500.f, 200.f, 500.f, 4096.f}) append(settings, f);
  append(settings, std::int32_t{15});
  for (const float f : {50.f, 50.f, 512.f}) append(settings, f);
  append(settings, std::int32_t{600});
  append(settings, std::int32_t{0});  // input_bytes (version 10)
  append(settings, std::int32_t{32});  // max_spawn_bytes (version 13)
  join.insert(join.end(), settings.begin(), settings.end());
  CHECK(bytes == join);
}

TEST_CASE("control: encode refuses what no receiver would accept") {
  std::vector<std::uint8_t> bytes{1, 2, 3};
  CHECK_FALSE(encode(JoinRequest{std::string(kMaxNameLength + 1, 'x'), 1}, bytes));
  CHECK(bytes.empty());

  Checksum huge{1, std::vector<ObjectHash>(kMaxControlDatagram / 8 + 1)};
  CHECK_FALSE(encode(huge, bytes));
  CHECK(bytes.empty());

  // Just under the limit it works: the limit is the datagram size, not a guess.
  const std::size_t fits = (kMaxControlDatagram - kBody - 4 - 4) / 8;
  Checksum largest{1, std::vector<ObjectHash>(fits)};
  CHECK(encode(largest, bytes));
  CHECK(bytes.size() <= kMaxControlDatagram);
  largest.objects.push_back({});
  CHECK_FALSE(encode(largest, bytes));
}

TEST_CASE("control: hostile counts and lengths are rejected without allocating") {
  std::vector<std::uint8_t> welcome_bytes;
  REQUIRE(encode(Welcome{1, 2, {}, 0, {}, {}}, welcome_bytes));
  welcome_bytes.resize(kBody + 2 + 4 + 4);  // nothing after the count (encoding settings follow it)
  std::vector<std::uint8_t> checksum_bytes;
  REQUIRE(encode(Checksum{3, {}}, checksum_bytes));
  std::vector<std::uint8_t> hello_bytes;
  REQUIRE(encode(Hello{1, ""}, hello_bytes));

  for (const std::uint32_t hostile : {0xFFFFFFFFu, 0x10000000u, 4096u, 1u}) {
    CAPTURE(hostile);
    put_u32(welcome_bytes, kBody + 2 + 4, hostile);  // after your_id, host_frame
    put_u32(checksum_bytes, kBody + 4, hostile);     // after frame
    put_u32(hello_bytes, kBody + 2, hostile);        // after id

    Welcome welcome;
    Checksum checksum;
    Hello hello;
    test::start_counting_allocations();
    const DecodeStatus welcome_status = decode(welcome_bytes, welcome);
    const DecodeStatus checksum_status = decode(checksum_bytes, checksum);
    const DecodeStatus hello_status = decode(hello_bytes, hello);
    const test::AllocationStats allocations = test::counted_allocations();

    CHECK(welcome_status.reason() == DropReason::truncated);
    CHECK(checksum_status.reason() == DropReason::truncated);
    CHECK(hello_status.reason() ==
          (hostile > kMaxNameLength ? DropReason::malformed : DropReason::truncated));
    CHECK(welcome.members.capacity() == 0);
    CHECK(checksum.objects.capacity() == 0);
    // Stream machinery allocates a little; nothing near the announced sizes.
    CHECK(allocations.largest < 4096);
  }
}

TEST_CASE("control: damaged bodies are dropped with a reason") {
  std::vector<std::uint8_t> bytes;
  REQUIRE(encode(Ownership{{{1, 2, 3, 4, 5}}}, bytes));
  Ownership ownership;

  SUBCASE("cut short") {
    for (std::size_t size = kHeaderSize; size < bytes.size(); ++size) {
      CAPTURE(size);
      const std::span<const std::uint8_t> prefix(bytes.data(), size);
      CHECK(decode(prefix, ownership).reason() == DropReason::truncated);
    }
  }
  SUBCASE("trailing bytes") {
    bytes.push_back(0);
    CHECK(decode(bytes, ownership).reason() == DropReason::malformed);
  }
  SUBCASE("big-endian marker") {
    bytes[kHeaderSize] = 0;
    CHECK(decode(bytes, ownership).reason() == DropReason::malformed);
  }
  SUBCASE("pong with a non-finite time or an impossible pace") {
    Pong pong;
    REQUIRE(encode(Pong{1, 600.0, 500.0, 10.0, 0.5f, 2}, bytes));
    CHECK(decode(bytes, pong));  // the same fields, plausible, decode
    CHECK(pong == Pong{1, 600.0, 500.0, 10.0, 0.5f, 2});
    for (const Pong& bad : {Pong{1, std::numeric_limits<double>::quiet_NaN()},
                            Pong{1, std::numeric_limits<double>::infinity()},
                            Pong{1, 600.0, std::numeric_limits<double>::infinity(), 10.0, 0.5f, 0},
                            Pong{1, 600.0, 500.0, std::numeric_limits<double>::quiet_NaN(), 0.5f, 0},
                            Pong{1, 600.0, 500.0, 10.0, 0.0f, 0}, Pong{1, 600.0, 500.0, 10.0, 1.5f, 0}}) {
      REQUIRE(encode(bad, bytes));
      CHECK(decode(bytes, pong).reason() == DropReason::malformed);
    }
  }
}

TEST_CASE("control: a message decodes whole after one that was cut short") {
  // The messages of a thread share one stream: a failed read must leave nothing behind that
  // the next message would trip on.
  const Ownership sent{{{1, 2, 3, 4, 5}}};
  std::vector<std::uint8_t> bytes;
  REQUIRE(encode(sent, bytes));
  Ownership received;
  for (std::size_t size = kBody + 1; size < bytes.size(); ++size) {
    CAPTURE(size);
    REQUIRE(decode(std::span<const std::uint8_t>(bytes.data(), size), received).reason() == DropReason::truncated);
    REQUIRE(decode(bytes, received).ok());
    CHECK(received == sent);
  }
  std::vector<std::uint8_t> again;  // and encoding after those failures writes the same bytes
  REQUIRE(encode(sent, again));
  CHECK(again == bytes);
}

TEST_CASE("control: a baseline with an impossible state is dropped as malformed") {
  for (int field = 0; field < 3; ++field) {
    CAPTURE(field);
    ObjectState s;
    if (field == 0) s.position.x = std::numeric_limits<float>::quiet_NaN();
    if (field == 1) s.linear_velocity.z = std::numeric_limits<float>::infinity();
    if (field == 2) s.orientation = {2, 0, 0, 0};  // not a unit quaternion
    std::vector<std::uint8_t> bytes;
    REQUIRE(encode(Baseline{5, {{1, ObjectState{}, {}}, {2, s, {}}}}, bytes));
    Baseline received;
    const DecodeStatus status = decode(bytes, received);
    REQUIRE_FALSE(status.ok());
    CHECK(status.reason() == DropReason::malformed);
  }
}

// Found by the peer and recording fuzz targets: Cereal read a bool as its raw byte, so an
// ownership message with records = 28 reached the peer as a bool no program may hold (UBSan:
// "load of value 28, which is not a valid value for type 'bool'").
TEST_CASE("control: a bool byte other than 0 or 1 is dropped as malformed") {
  auto refused = [](std::vector<std::uint8_t> bytes, std::size_t at, auto message) {
    REQUIRE(at < bytes.size());
    REQUIRE(bytes[at] <= 1);
    for (const std::uint8_t value : {std::uint8_t{2}, std::uint8_t{28}, std::uint8_t{255}}) {
      bytes[at] = value;
      const DecodeStatus status = decode(bytes, message);
      CHECK_FALSE(status.ok());
      CHECK(status.reason() == DropReason::malformed);
    }
  };
  Ownership records;
  records.records = true;
  std::vector<std::uint8_t> bytes;
  REQUIRE(encode(records, bytes));
  refused(bytes, bytes.size() - 1, Ownership{});  // records: the last field
  REQUIRE(encode(Baseline{5, {}, true}, bytes));
  refused(bytes, bytes.size() - 1, Baseline{});  // last: the last field
  ObjectState resting;
  resting.at_rest = true;
  REQUIRE(encode(Baseline{5, {{1, resting, {}}}, false}, bytes));
  // frame, count, then the object: id, 13 floats, at_rest.
  refused(bytes, kBody + 4 + 4 + 4 + 13 * 4, Baseline{});
}
