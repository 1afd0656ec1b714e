// SPDX-License-Identifier: MIT
// Recording a peer and replaying it: bit for bit, without a clock, and where a replay goes its
// own way, the first difference named.
#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "match_harness.hpp"
#include "shoal/forwarding_simulation.hpp"
#include "shoal/recording.hpp"

using namespace shoal;
using namespace shoal::test;

namespace {

// A file in the temporary folder, removed at the end of the test.
struct TempFile {
  explicit TempFile(const std::string& name)
      : path((std::filesystem::temp_directory_path() / (name + "-" + std::to_string(::getpid()) + ".shoalrec")).string()) {}
  ~TempFile() { std::filesystem::remove(path); }
  std::string path;
};

const std::vector<std::uint8_t> kWorld = {'a', 'r', 'e', 'n', 'a', ' ', '3'};

// A 3-peer match on the in-process network in which peer `recorded` is recorded from before
// it joins until it is destroyed; returns that peer's newest frame.
Frame play_recorded_match(const ArenaSpec& spec, const std::string& path, int recorded) {
  PeerConfig config;
  FakeMatch m(3, spec, config, 31, 1);
  m.network().set_conditions(link(25, 0.1f, 5));
  m.players[static_cast<std::size_t>(recorded)].peer->record(path, kWorld);
  m.join_late(1);
  m.join_late(2);
  REQUIRE(m.connect(5));
  REQUIRE(m.play_then_settle(7, 4, 8));
  const Frame newest = m.players[static_cast<std::size_t>(recorded)].peer->frame();
  m.players[static_cast<std::size_t>(recorded)].peer.reset();  // writes the end of the recording
  return newest;
}

std::unique_ptr<ReferencePhysics> fresh_world(const ArenaSpec& spec) {
  auto physics = std::make_unique<ReferencePhysics>(arena_physics(spec));
  build_arena(*physics, spec);
  return physics;
}

// The world, except that one body is nudged at one frame: the replay must notice.
class NudgedSimulation final : public ForwardingSimulation {
 public:
  NudgedSimulation(Simulation& inner, Frame at) : ForwardingSimulation(inner), at_(at) {}
  void step(Frame frame, std::span<const BodyInput> inputs) override {
    ForwardingSimulation::step(frame, inputs);
    if (frame != at_ || nudged_) return;
    nudged_ = true;
    ObjectState s = read(0);
    s.position.x += 0.01f;
    write(0, s);
  }

 private:
  Frame at_;
  bool nudged_ = false;
};

}  // namespace

TEST_CASE("recording: a joiner of a 3-peer match at 10% loss replays bit for bit, alone and without a clock") {
  const ArenaSpec spec{3, 10, 10};
  TempFile file("joiner");
  const Frame recorded_newest = play_recorded_match(spec, file.path, 2);

  const Replay replay(file.path);
  CHECK(replay.complete());
  CHECK(std::vector<std::uint8_t>(replay.world().begin(), replay.world().end()) == kWorld);
  CHECK(replay.config().session == PeerConfig{}.session);
  auto physics = fresh_world(spec);
  const ReplayReport report = replay.run(*physics);
  INFO(report.first_difference);
  CHECK(report.identical);
  CHECK(report.first_difference.empty());
  CHECK(report.final_frame == recorded_newest);
  CHECK(report.checks > 100);
  CHECK(report.updates >= report.checks);
  CHECK(report.stats.overrides > 0);  // the replayed peer really was corrected by its owners

  // Twice: nothing in a replay depends on when it runs.
  auto again = fresh_world(spec);
  const ReplayReport second = replay.run(*again);
  CHECK(second.identical);
  CHECK(second.final_frame == report.final_frame);
  CHECK(second.stats.overrides == report.stats.overrides);
  CHECK(second.stats.catchup_frames == report.stats.catchup_frames);
}

TEST_CASE("recording: a replay that goes its own way names the update, the frame and what differed") {
  const ArenaSpec spec{3, 10, 10};
  TempFile file("nudged");
  play_recorded_match(spec, file.path, 1);
  const Replay replay(file.path);
  auto physics = fresh_world(spec);
  NudgedSimulation nudged(*physics, 120);
  const ReplayReport report = replay.run(nudged);
  CHECK_FALSE(report.identical);
  INFO(report.first_difference);
  CHECK(report.first_difference.find("frame 120") != std::string::npos);
  CHECK(report.first_difference.find("the states of frame 120") != std::string::npos);
  CHECK(report.final_frame == 120);  // it stopped at the first difference
}

TEST_CASE("recording: a replay refuses another world, and a damaged file says where") {
  const ArenaSpec spec{3, 10, 10};
  TempFile file("damaged");
  play_recorded_match(spec, file.path, 1);
  const Replay replay(file.path);
  auto other = fresh_world(ArenaSpec{3, 11, 10});
  CHECK_THROWS_AS(replay.run(*other), std::invalid_argument);

  // Cut short in the middle of a record.
  std::ifstream in(file.path, std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  in.close();
  REQUIRE(bytes.size() > 1000);
  TempFile cut("cut");
  std::ofstream(cut.path, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size() - 7));
  try {
    const Replay damaged(cut.path);
    FAIL("a recording cut short was read");
  } catch (const std::runtime_error& e) {
    CHECK(std::string(e.what()).find("damaged at byte") != std::string::npos);
  }
  TempFile garbage("garbage");
  std::ofstream(garbage.path, std::ios::binary) << "not a recording at all";
  CHECK_THROWS_WITH_AS(Replay(garbage.path), doctest::Contains("is not a Shoal recording"), std::runtime_error);
  CHECK_THROWS_WITH_AS(Replay(garbage.path + ".missing"), doctest::Contains("cannot read"), std::runtime_error);
}

TEST_CASE("recording: record() is refused once the peer has started, and for a folder it cannot write") {
  const ArenaSpec spec{2, 2};
  MemoryNetwork net(1);
  Player player = make_player(spec, 0, PeerConfig{}, net.create_endpoint());
  CHECK_THROWS_WITH_AS(player.peer->record("/nonexistent-folder/x.shoalrec"), doctest::Contains("cannot write"),
                       std::runtime_error);
  player.peer->host();
  CHECK_THROWS_AS(player.peer->record("/tmp/never.shoalrec"), std::logic_error);
}

TEST_CASE("recording: a peer that sends game messages and takes its events now and then replays bit for bit") {
  // Its own rate refuses some of its sends, and its queue (3 a sender) drops what arrives
  // while it does not poll: both depend on when the game called, which the recording keeps.
  const ArenaSpec spec{3, 10, 10};
  TempFile file("messages");
  PeerConfig config;
  config.messages.max_messages_per_second = 20;
  config.messages.max_queued = 3;
  FakeMatch m(3, spec, config, 37, 1);
  m.network().set_conditions(link(25, 0.1f, 5));
  Peer& recorded = *m.players[2].peer;
  recorded.record(file.path, kWorld);
  m.join_late(1);
  m.join_late(2);
  REQUIRE(m.connect(5));
  m.enable_bots(9);
  std::uint64_t refused = 0, taken = 0;
  int frame = 0;
  m.run(4, [&] {
    ++frame;
    const std::uint8_t bytes[] = {static_cast<std::uint8_t>(frame), 7, 7};
    for (int p = 0; p < 2; ++p) (void)m.players[static_cast<std::size_t>(p)].peer->send_message(recorded.id(), bytes);
    refused += recorded.send_message(kNoPeer, bytes, Delivery::reliable, recorded.frame()) ? 0 : 1;
    if (frame % 5 == 0) (void)recorded.send_message(m.players[0].peer->id(), bytes, Delivery::unreliable);
    if (frame % 7 == 0) {
      for (Event e; recorded.poll_event(e);) ++taken;
    }
  });
  const PeerStats stats = recorded.stats();
  m.players[2].peer.reset();  // writes the end of the recording
  REQUIRE(refused > 0);
  REQUIRE(stats.dropped[DropReason::over_limit] > 0);
  REQUIRE(stats.messages_received > 0);
  REQUIRE(taken > 0);

  const Replay replay(file.path);
  REQUIRE(replay.complete());
  auto physics = fresh_world(spec);
  const ReplayReport report = replay.run(*physics);
  INFO(report.first_difference);
  CHECK(report.identical);
  CHECK(report.stats.messages_sent == stats.messages_sent);
  CHECK(report.stats.messages_received == stats.messages_received);
  CHECK(report.stats.dropped[DropReason::over_limit] == stats.dropped[DropReason::over_limit]);
}
