// SPDX-License-Identifier: MIT
// PeerConfig::snapshot_interval_frames sets how often owners send, by priority or not;
// SnapshotConfig::coasting_interval_frames how often objects no player is about to touch go.
#include <doctest/doctest.h>

#include <functional>
#include <map>
#include <memory>
#include <utility>

#include "match_harness.hpp"
#include "shoal/forwarding_transport.hpp"
#include "wire/snapshot_codec.hpp"

using namespace shoal;
using namespace shoal::test;

namespace {

struct Sent {
  std::uint64_t packets = 0, bytes = 0;
  bool settled_alike = false;
};

Sent play(bool prioritize, int interval) {
  ArenaSpec spec{2, 12, 10};
  PeerConfig config;
  config.snapshots.prioritize = prioritize;
  config.snapshot_interval_frames = interval;
  FakeMatch m(2, spec, config, 61);
  m.network().set_conditions(link(30, 0.02f, 5));
  REQUIRE(m.connect(5));
  const PeerStats before = m.players[1].peer->stats();
  m.enable_bots(5);
  m.run(6);
  const PeerStats after = m.players[1].peer->stats();
  Sent s;
  s.packets = after.snapshots_sent - before.snapshots_sent;
  s.bytes = after.snapshot_bytes_sent - before.snapshot_bytes_sent;
  m.settle(15);
  s.settled_alike = divergence(m.players, all_ids(spec)).bitwise;
  return s;
}

// Shows every record of the snapshots a peer sends, with its link and frame, to `see`.
class SnapshotSpy final : public ForwardingTransport {
 public:
  using See = std::function<void(ConnectionId, Frame, const wire::ObjectRecord&)>;
  SnapshotSpy(std::unique_ptr<Transport> inner, See see) : ForwardingTransport(std::move(inner)), see_(std::move(see)) {}
  bool send(ConnectionId c, Channel channel, std::span<const std::uint8_t> bytes) override {
    if (channel == Channel::state && wire::decode(bytes, quantizer_.limits(), snapshot_)) {
      for (const wire::ObjectRecord& r : snapshot_.objects) see_(c, snapshot_.frame, r);
    }
    return inner().send(c, channel, bytes);
  }

 private:
  See see_;
  wire::Quantizer quantizer_{SnapshotConfig{}};
  wire::Snapshot snapshot_;
};

// Counts the records of the snapshots a peer sends: of the players' balls, and of the other
// objects while they move.
struct RecordCounts {
  std::uint64_t balls = 0, moving_objects = 0;
};

std::unique_ptr<Transport> count_records(std::unique_ptr<Transport> inner, RecordCounts& counts, BodyIndex balls) {
  return std::make_unique<SnapshotSpy>(std::move(inner), [&counts, balls](ConnectionId, Frame, const wire::ObjectRecord& r) {
    if (r.index < balls) {
      ++counts.balls;  // bodies are indexed in the order they were added: balls first
    } else if (!r.at_rest) {
      ++counts.moving_objects;
    }
  });
}

// Per link and object (the players' balls apart: they go every frame), the frames between two
// records at rest with no record in motion between: how soon an object that came to rest is
// sent again.
struct RestResends {
  std::uint64_t came_to_rest = 0, repeats = 0, within_two_frames = 0;
};

std::unique_ptr<Transport> count_rest_resends(std::unique_ptr<Transport> inner, RestResends& counts, BodyIndex balls) {
  auto last_at_rest = std::make_shared<std::map<std::pair<ConnectionId, BodyIndex>, Frame>>();
  return std::make_unique<SnapshotSpy>(
      std::move(inner), [&counts, balls, last_at_rest](ConnectionId c, Frame frame, const wire::ObjectRecord& r) {
        if (r.index < balls) return;
        Frame& last = last_at_rest->try_emplace({c, r.index}, kNoFrame).first->second;
        if (!r.at_rest) {
          last = kNoFrame;
          return;
        }
        if (last == kNoFrame) {
          ++counts.came_to_rest;
        } else {
          ++counts.repeats;
          if (frame - last <= 2) ++counts.within_two_frames;
        }
        last = frame;
      });
}

struct CoastingRun {
  RecordCounts sent;
  bool settled_alike = false;
};

CoastingRun play_coasting(int coasting_interval) {
  const ArenaSpec spec{2, 40, 14};
  PeerConfig config;
  config.snapshots.coasting_interval_frames = coasting_interval;
  RecordCounts counts;
  FakeMatch m(2, spec, config, 71, -1, [&](int, std::unique_ptr<Transport> inner) {
    return count_records(std::move(inner), counts, static_cast<BodyIndex>(spec.balls));
  });
  m.network().set_conditions(link(30, 0.02f, 5));
  REQUIRE(m.connect(5));
  counts = {};
  m.enable_bots(8);
  m.run(8);
  CoastingRun run;
  run.sent = counts;
  run.settled_alike = m.settle(15) && divergence(m.players, all_ids(spec)).bitwise;
  return run;
}

}  // namespace

TEST_CASE("objects no player is about to touch go every coasting_interval_frames, the players' balls every frame") {
  const CoastingRun every = play_coasting(1);
  const CoastingRun coasting = play_coasting(4);
  CAPTURE(every.sent.moving_objects);
  CAPTURE(coasting.sent.moving_objects);
  CAPTURE(every.sent.balls);
  CAPTURE(coasting.sent.balls);
  // Bots push objects about for 8 s. Those a ball is about to touch go every frame; the others,
  // rolling on alone (inside a ball's core sphere or not), a quarter as often.
  REQUIRE(every.sent.moving_objects > 1000);
  CHECK(coasting.sent.moving_objects * 4 < every.sent.moving_objects * 3);
  // A controlled ball is in its owner's core: every frame to the other peer (two peers, 8 s).
  CHECK(every.sent.balls >= 2 * 8 * 60 * 9 / 10);
  CHECK(coasting.sent.balls * 10 >= every.sent.balls * 9);
  CHECK(every.settled_alike);
  CHECK(coasting.settled_alike);
}

TEST_CASE("snapshot_interval_frames = 3 sends a third of the snapshots, by priority or not") {
  for (const bool prioritize : {true, false}) {
    CAPTURE(prioritize);
    const Sent every = play(prioritize, 1);
    const Sent third = play(prioritize, 3);
    CAPTURE(every.packets);
    CAPTURE(third.packets);
    // 6 s at 60 Hz to one peer: about 360 snapshots every frame, 120 every third.
    CHECK(every.packets >= 330);
    CHECK(third.packets * 10 >= every.packets * 3);
    CHECK(third.packets * 10 <= every.packets * 4);
    CHECK(third.bytes < every.bytes);
    CHECK(every.settled_alike);
    CHECK(third.settled_alike);
  }
}

TEST_CASE("an object at rest goes once per round trip until acknowledged, not every frame") {
  const ArenaSpec spec{2, 40, 14};
  RestResends counts;
  FakeMatch m(2, spec, PeerConfig{}, 73, -1, [&](int, std::unique_ptr<Transport> inner) {
    return count_rest_resends(std::move(inner), counts, static_cast<BodyIndex>(spec.balls));
  });
  m.network().set_conditions(link(30, 0.05f, 5));  // 60 ms round trip: about 4 frames
  REQUIRE(m.connect(5));
  counts = {};
  m.enable_bots(8);
  m.run(8);
  CAPTURE(counts.came_to_rest);
  CAPTURE(counts.repeats);
  CAPTURE(counts.within_two_frames);
  // Objects come to rest all the time under the bots; each is sent again only when its ack is
  // overdue (lost), or as a settled refresh, never on the next frames while the ack is coming.
  REQUIRE(counts.came_to_rest > 50);
  CHECK(counts.within_two_frames * 20 < counts.came_to_rest);
  CHECK(m.settle(15));
  CHECK(divergence(m.players, all_ids(spec)).bitwise);
  CHECK(counts.within_two_frames * 20 < counts.came_to_rest);
}
