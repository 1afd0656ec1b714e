// SPDX-License-Identifier: MIT
// Seeded fuzzing of every decoder: random and mutated datagrams must be accepted or dropped
// with a reason, never crash (ASan/UBSan watch), and anything accepted must re-encode to the
// very same bytes (the format has exactly one encoding per value).
#include <doctest/doctest.h>

#include <chrono>
#include <random>
#include <vector>

#include "shoal/simulation.hpp"
#include "wire/game_message.hpp"
#include "wire/control_messages.hpp"
#include "wire/dismissal.hpp"
#include "wire/refusal.hpp"
#include "wire/snapshot_codec.hpp"

using namespace shoal;
using namespace shoal::wire;

namespace {

// The bodies whose type has user bytes, as every receiver in the fuzzed match knows them.
std::vector<std::uint8_t> user_bytes_sizes() {
  std::vector<std::uint8_t> sizes(32, 0);
  sizes[20] = 3;
  sizes[21] = 2;
  return sizes;
}

struct Decoders {
  JoinRequest join;
  Welcome welcome;
  Hello hello;
  PeerLeft peer_left;
  Ownership ownership;
  Checksum checksum;
  BaselineRequest baseline_request;
  Baseline baseline;
  WorldChanges world_changes;
  Ping ping;
  Pong pong;
  Snapshot snapshot;
  SnapshotAckMessage ack;
  Refusal refusal;
  Dismissal dismissal;
  LinkNotice notice;
  Quantizer quantizer{SnapshotConfig{}};
  std::vector<std::uint8_t> sizes = user_bytes_sizes();
  std::vector<std::uint8_t> reencoded;

  template <class Message>
  DecodeStatus check(std::span<const std::uint8_t> datagram, Message& message) {
    const DecodeStatus status = decode(datagram, message);
    if (status) {
      REQUIRE(encode(message, reencoded));
      CHECK(std::equal(datagram.begin(), datagram.end(), reencoded.begin(), reencoded.end()));
    }
    return status;
  }
  // A refusal has its own fixed layout (wire/refusal.hpp), read whatever its version.
  DecodeStatus check_refusal(std::span<const std::uint8_t> datagram) {
    if (!decode_refusal(datagram, refusal)) return DropReason::malformed;
    encode(refusal, reencoded);
    CHECK(std::equal(datagram.begin(), datagram.end(), reencoded.begin(), reencoded.end()));
    return DecodeStatus::success();
  }
  // The dismissal and the link notice have fixed layouts too, and no failing encode.
  template <class Message>
  DecodeStatus check_fixed(std::span<const std::uint8_t> datagram, Message& message) {
    const DecodeStatus status = decode(datagram, message);
    if (status) {
      encode(message, reencoded);
      CHECK(std::equal(datagram.begin(), datagram.end(), reencoded.begin(), reencoded.end()));
    }
    return status;
  }
  DecodeStatus check_game_message(std::span<const std::uint8_t> datagram, bool reliable) {
    GameMessage message;
    const DecodeStatus status = decode(datagram, message);
    if (status) {
      REQUIRE(encode(message, reliable, reencoded));
      CHECK(std::equal(datagram.begin(), datagram.end(), reencoded.begin(), reencoded.end()));
    }
    return status;
  }
  DecodeStatus check_snapshot(std::span<const std::uint8_t> datagram) {
    const DecodeStatus status = decode(datagram, quantizer.limits(), snapshot, sizes);
    if (status) {
      REQUIRE(encode(snapshot, quantizer.limits(), reencoded));
      CHECK(std::equal(datagram.begin(), datagram.end(), reencoded.begin(), reencoded.end()));
      // What a receiver then does with each record must not crash either.
      static const QuantizedState kBaseline;
      for (const ObjectRecord& r : snapshot.objects) {
        if (snapshot.quantized) (void)apply_record(r, &kBaseline, quantizer);
      }
    }
    return status;
  }

  // What a receiver does: read the header, then decode by kind.
  DecodeStatus receive(std::span<const std::uint8_t> datagram) {
    MessageKind kind{};
    if (const DecodeStatus header = read_header(datagram, kind); !header) return header;
    switch (kind) {
      case MessageKind::join_request: return check(datagram, join);
      case MessageKind::welcome: return check(datagram, welcome);
      case MessageKind::hello: return check(datagram, hello);
      case MessageKind::peer_left: return check(datagram, peer_left);
      case MessageKind::ownership: return check(datagram, ownership);
      case MessageKind::checksum: return check(datagram, checksum);
      case MessageKind::ping: return check(datagram, ping);
      case MessageKind::pong: return check(datagram, pong);
      case MessageKind::snapshot: return check_snapshot(datagram);
      case MessageKind::snapshot_ack: return check(datagram, ack);
      case MessageKind::baseline_request: return check(datagram, baseline_request);
      case MessageKind::baseline: return check(datagram, baseline);
      case MessageKind::world_changes: return check(datagram, world_changes);
      case MessageKind::refusal: return check_refusal(datagram);
      case MessageKind::dismissal: return check_fixed(datagram, dismissal);
      case MessageKind::link_notice: return check_fixed(datagram, notice);
      case MessageKind::game_message:
      case MessageKind::game_datagram: return check_game_message(datagram, kind == MessageKind::game_message);
    }
    return DropReason::unknown_kind;
  }
};

std::vector<std::vector<std::uint8_t>> valid_datagrams() {
  std::vector<std::vector<std::uint8_t>> all;
  auto add = [&](const auto& message) {
    std::vector<std::uint8_t> bytes;
    REQUIRE(encode(message, bytes));
    all.push_back(bytes);
  };
  const Quantizer quantizer{SnapshotConfig{}};
  auto add_snapshot = [&](const Snapshot& snapshot) {
    std::vector<std::uint8_t> bytes;
    REQUIRE(encode(snapshot, quantizer.limits(), bytes));
    all.push_back(bytes);
  };
  add(JoinRequest{"session", 7777});
  add(Welcome{2, 600, {{0, "10.0.0.1", 4000}, {1, "10.0.0.2", 4001}}, 0, {}, {{{}, 1}}});
  add(Hello{2, "session"});
  add(PeerLeft{1});
  add(Ownership{{{10, 1, 5, 1, 300}, {11, 2, 6, 2, 301}}});
  add(Checksum{300, {{10, 0xDEADBEEF}, {11, 7}}});
  add(BaselineRequest{});
  for (const bool reliable : {true, false}) {
    const std::vector<std::uint8_t> note{'g', 'g'};
    std::vector<std::uint8_t> bytes;
    REQUIRE(encode(GameMessage{42, note}, reliable, bytes));
    all.push_back(bytes);
  }
  {
    WorldChanges changes;
    changes.spawns.push_back({40, kSpawnedIdBit | (1u << 16) | 2u, 3, 11, {}, {}});
    const std::uint8_t spawn_bytes[] = {1, 2, 3, 4};
    changes.spawns.back().bytes.assign(spawn_bytes);
    changes.removals.push_back({41, kSpawnedIdBit | (1u << 16) | 1u});
    add(changes);
  }
  ObjectState sliding;
  sliding.position = {1, 2, 3};
  sliding.linear_velocity = {0.5f, 0, -1};
  add(Baseline{300, {{10, sliding, {}}, {11, ObjectState{}, {}}}});
  add(Ping{123456});
  add(Pong{123456, 600.5, 590.25, 12.0, 0.85f, 3});
  Snapshot snapshot;
  snapshot.sender = 1;
  snapshot.frame = 300;
  snapshot.controlled = 10;
  snapshot.inputs = {{300, {{1, 0, 0}, 1}}};
  snapshot.has_ack = true;
  snapshot.ack = {77, 0xF0F0F0F0, {3, 9}};
  ObjectState moving;
  moving.position = {1, 2, 3};
  moving.orientation = axis_angle({0, 1, 0}, 0.5f);
  moving.linear_velocity = {0, 0, 1};
  ObjectState resting = moving;
  resting.at_rest = true;
  resting.linear_velocity = {};
  const QuantizedState base = quantizer.quantize(moving);
  moving.position.x += 0.01f;
  moving.orientation = axis_angle({0, 1, 0}, 0.51f);
  const QuantizedState slightly_moved = quantizer.quantize(moving);
  moving.position.z += 3;
  snapshot.objects = {make_record(10, quantizer.quantize(resting), nullptr, 0),
                      make_record(11, slightly_moved, &base, 5),
                      make_record(300, quantizer.quantize(moving), &base, 40),
                      make_record(301, base, &base, 2)};
  add_snapshot(snapshot);
  Snapshot raw = snapshot;
  raw.quantized = false;
  raw.objects.clear();
  for (const BodyIndex index : {2u, 3u}) {
    ObjectRecord r;
    r.index = index;
    r.raw = index == 2 ? moving : resting;
    r.at_rest = r.raw.at_rest;
    raw.objects.push_back(r);
  }
  add_snapshot(raw);
  Snapshot with_user_bytes = snapshot;
  with_user_bytes.objects = {make_record(20, base, nullptr, 0), make_record(21, slightly_moved, &base, 3)};
  const std::vector<std::uint8_t> bytes20{1, 2, 3}, bytes21{4, 5};
  set_user_bytes(with_user_bytes.objects[0], bytes20, {});
  set_user_bytes(with_user_bytes.objects[1], bytes21, bytes21);
  add_snapshot(with_user_bytes);
  with_user_bytes.objects[1].user_bytes_unchanged = false;
  add_snapshot(with_user_bytes);
  Baseline baseline_with_bytes{301, {{20, sliding, {}}}};
  baseline_with_bytes.objects[0].user_bytes.assign(bytes20);
  add(baseline_with_bytes);
  add(SnapshotAckMessage{1, {5, 1, {7}}});
  std::vector<std::uint8_t> refusal;
  encode(Refusal{kProtocolVersion, 9, "wire versions differ"}, refusal);
  all.push_back(refusal);
  std::vector<std::uint8_t> fixed;
  encode(Dismissal{DismissalCause::revoked, "the session's authority revoked this invitation: cheating"}, fixed);
  all.push_back(fixed);
  LinkNotice identity;
  identity.key.fill(0xA5);
  identity.single_use = true;
  encode(identity, fixed);
  all.push_back(fixed);
  encode(LinkNotice{LinkNoticeKind::revoked, {}, false, "cheating"}, fixed);
  all.push_back(fixed);
  return all;
}

}  // namespace

TEST_CASE("fuzz: random and mutated datagrams never crash and always get a verdict") {
  constexpr int kIterations = 20000;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  std::mt19937 rng(20261122);
  const auto seeds = valid_datagrams();
  Decoders decoders;
  DropCounters drops;
  std::size_t accepted = 0;
  std::vector<std::uint8_t> datagram;
  datagram.reserve(kMaxControlDatagram + 64);

  auto pick = [&](std::size_t bound) {
    return std::uniform_int_distribution<std::size_t>(0, bound - 1)(rng);
  };
  int iteration = 0;
  for (; iteration < kIterations && std::chrono::steady_clock::now() < deadline; ++iteration) {
    const std::size_t strategy = pick(4);
    if (strategy == 0) {  // pure noise, sometimes behind a valid header
      datagram.resize(pick(1400));
      for (auto& byte : datagram) byte = static_cast<std::uint8_t>(rng());
      if (datagram.size() >= kHeaderSize && pick(2) == 0) {
        const auto& seed = seeds[pick(seeds.size())];
        std::copy(seed.begin(), seed.begin() + kHeaderSize, datagram.begin());
      }
    } else {  // a valid datagram with a few bytes changed, cut or extended
      datagram = seeds[pick(seeds.size())];
      const std::size_t edits = 1 + pick(4);
      for (std::size_t e = 0; e < edits; ++e) {
        switch (pick(4)) {
          case 0: datagram[pick(datagram.size())] = static_cast<std::uint8_t>(rng()); break;
          case 1: datagram[pick(datagram.size())] ^= static_cast<std::uint8_t>(1u << pick(8)); break;
          case 2: datagram.resize(pick(datagram.size()) + 1); break;
          case 3: datagram.push_back(static_cast<std::uint8_t>(rng())); break;
        }
      }
      if (strategy == 3 && datagram.size() > kHeaderSize) {  // a body byte set to a count-like max
        datagram[kHeaderSize + pick(datagram.size() - kHeaderSize)] = 0xFF;
      }
    }
    const DecodeStatus status = decoders.receive(datagram);
    if (status) {
      ++accepted;
    } else {
      REQUIRE(status.reason() < DropReason::count);
      drops.add(status.reason());
    }
  }
  MESSAGE("iterations: " << iteration << ", accepted: " << accepted
                         << ", dropped: " << drops.total());
  CHECK(iteration == kIterations);
  CHECK(accepted + drops.total() == static_cast<std::uint64_t>(iteration));
  // The mix must reach past the header checks into every body decoder's rejections.
  CHECK(accepted > 0);
  for (const DropReason reason : {DropReason::bad_magic, DropReason::unsupported_version,
                                  DropReason::unknown_kind, DropReason::truncated,
                                  DropReason::malformed}) {
    CAPTURE(to_string(reason));
    CHECK(drops[reason] > 0);
  }
}
