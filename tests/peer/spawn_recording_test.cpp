// SPDX-License-Identifier: MIT
// A recording of a match that spawns and removes objects replays bit for bit: the recorded
// peer's own spawns and removals (with their spawn bytes) are replayed as the game made them,
// the others' arrive as the messages they were; a replay whose spawn goes differently says so.
#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <string>

#include "shoal/recording.hpp"
#include "spawn_match.hpp"

using namespace shoal;
using namespace shoal::test;

namespace {

const ArenaSpec kSpec{3, 6, 12};

struct TempFile {
  explicit TempFile(const std::string& name)
      : path((std::filesystem::temp_directory_path() / (name + "-" + std::to_string(::getpid()) + ".shoalrec")).string()) {}
  ~TempFile() { std::filesystem::remove(path); }
  std::string path;
};

struct SpawningWorld {
  SpawningWorld() : physics(arena_physics(kSpec)) {
    build_arena(physics, kSpec);
    simulation = with_spawn_slots(physics);
  }
  ReferencePhysics physics;
  std::unique_ptr<Simulation> simulation;
};

// Peer 2 is recorded from before it joins until it is destroyed, while every peer fires
// projectiles that live a second (peer 2's carry spawn bytes); returns its newest frame.
Frame play_recorded_spawning_match(const std::string& path, int& fired, int& removed) {
  FakeMatch m(3, kSpec, spawn_config(), 361, 1, {}, with_spawn_slots);
  m.network().set_conditions(link(40, 0.08f));
  Peer& recorded = *m.players[2].peer;
  recorded.record(path);
  m.join_late(1);
  m.join_late(2);
  REQUIRE(m.connect(10));
  m.enable_bots(36);
  Guns guns(4, 60);
  m.run(4, [&] { guns.fire(m.players, true); });
  // A few with bytes of its own, and one removed by hand.
  ObjectState s;
  s.position = {1, 0.3f, -5};
  const std::uint8_t bytes[] = {3, 1, 4, 1, 5};
  const ObjectId kept = recorded.spawn(kPickup, s, bytes);
  s.position.x = 2;
  const ObjectId gone = recorded.spawn(kPickup, s, std::span(bytes).first(2));
  m.run(0.5, [&] { guns.fire(m.players, true); });
  recorded.remove(gone);
  for (int i = 0; i < 600 && !guns.all_expired(); ++i) m.run(1.0 / 60, [&] { guns.fire(m.players, false); });
  REQUIRE(m.settle(20));
  CHECK(recorded.spawned_object(kept).has_value());
  fired = guns.fired;
  removed = guns.removed;
  const Frame newest = recorded.frame();
  m.players[2].peer.reset();  // writes the end of the recording
  return newest;
}

}  // namespace

TEST_CASE("recording: a peer of a match that spawns and removes replays bit for bit") {
  TempFile file("spawning");
  int fired = 0, removed = 0;
  const Frame recorded_newest = play_recorded_spawning_match(file.path, fired, removed);
  CHECK(fired > 20);
  CHECK(removed == fired);

  const Replay replay(file.path);
  REQUIRE(replay.complete());
  CHECK(replay.config().spawning.max_objects_per_peer == kSlotsPerPeer);
  CHECK(replay.config().spawning.max_spawn_bytes == SpawnConfig{}.max_spawn_bytes);
  SpawningWorld world;
  const ReplayReport report = replay.run(*world.simulation);
  INFO(report.first_difference);
  CHECK(report.identical);
  CHECK(report.final_frame == recorded_newest);
  CHECK(report.checks > 100);
  // It replayed the spawns it heard of and made, and the removals.
  CHECK(report.stats.objects_spawned >= static_cast<std::uint64_t>(fired / 2));
  CHECK(report.stats.objects_removed >= static_cast<std::uint64_t>(removed / 2));
}

TEST_CASE("recording: a replay on a world that cannot spawn what was spawned says where it went its own way") {
  TempFile file("spawning-elsewhere");
  int fired = 0, removed = 0;
  play_recorded_spawning_match(file.path, fired, removed);
  const Replay replay(file.path);
  // The same bodies and slots, but projectiles no longer spawn: the others' shots are dropped
  // in the replay (or the recorded peer's own fail), so it differs from the recording.
  ReferencePhysics physics(arena_physics(kSpec));
  build_arena(physics, kSpec);
  physics.set_spawn_box(kPickup, {0.25f, 0.25f, 0.25f}, 0.5f);
  physics.add_spawn_slots(kSpawnSlots);
  const ReplayReport report = replay.run(physics);
  CHECK_FALSE(report.identical);
  CHECK(report.first_difference.find("update") != std::string::npos);
}
