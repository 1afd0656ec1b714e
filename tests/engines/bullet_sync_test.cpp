// SPDX-License-Identifier: MIT
// Sync-test mode on Bullet: a lone peer rolls back K frames every frame and re-simulates; the
// adapter's restore must make the re-simulation reproduce the straight run bit for bit, in a
// scene where stacks topple and bodies fall asleep and wake. Leaving a part of the engine's
// state out of the restore must show up as desyncs.
#include <doctest/doctest.h>

#include "bullet_scene.hpp"
#include "sleep_watch.hpp"

using namespace shoal;
using namespace shoal::test;

TEST_CASE("bullet: sync-test mode reproduces the straight run for K = 1, 4 and 8 over 10,000 frames") {
  for (int k : {1, 4, 8}) {
    CAPTURE(k);
    BulletScene scene;
    SleepWatch watch(scene.simulation);
    const PeerStats stats = run_sync_test(watch, k, 10'000, kFirstBall, BulletScene::kObjects);
    CHECK(stats.desyncs == 0);
    CHECK(stats.catchup_frames == 0);
    // The scene is busy: bodies fell asleep and were woken again, many times.
    CHECK(watch.fell_asleep > 20);
    CHECK(watch.woke_up > 20);
    MESSAGE("k " << k << ": " << watch.fell_asleep << " bodies fell asleep, " << watch.woke_up << " woke up");
  }
}

TEST_CASE("bullet: sync-test mode reports a restore that leaves out the engine's private state") {
  SUBCASE("no restore at all") {
    BulletScene scene;
    NoRestore forgetful(scene.simulation);
    CHECK(run_sync_test(forgetful, 4, 1200, kFirstBall, BulletScene::kObjects).desyncs > 0);
  }
  SUBCASE("contacts left out (warm-start impulses, manifolds)") {
    BulletScene scene;
    scene.simulation.set_restored_parts({.contacts = false});
    CHECK(run_sync_test(scene.simulation, 4, 1200, kFirstBall, BulletScene::kObjects).desyncs > 0);
  }
  SUBCASE("activation states and deactivation timers left out") {
    BulletScene scene;
    scene.simulation.set_restored_parts({.activation = false});
    CHECK(run_sync_test(scene.simulation, 4, 1200, kFirstBall, BulletScene::kObjects).desyncs > 0);
  }
}
