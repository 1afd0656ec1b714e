/* SPDX-License-Identifier: MIT */
/* Spawning from C (since version 12): two reference-physics peers on the in-process network at
 * 5% loss, their worlds given spawn shapes and slots through shoal_world_*; each spawns objects
 * with spawn bytes, and both end with the same live set, the same bytes, type, spawner and
 * frame of each, and the same states bit for bit; a removal reaches both; misuse returns
 * codes with messages. */
#include "memory_match.h"

#define PROJECTILE 11
#define PICKUP 12
#define SLOTS_PER_PEER 8
#define MAX_LIVE 16

static const uint32_t ball_ids[2] = {1, 2};

static int build_world(shoal_world** out) {
  shoal_world_config config;
  shoal_object_state state;
  int p;
  REQUIRE_OK(shoal_world_config_default(&config));
  config.linear_damping = 0.8f;
  config.angular_damping = 0.8f;
  REQUIRE_OK(shoal_world_create(&config, out));
  REQUIRE_OK(shoal_object_state_default(&state));
  for (p = 0; p < 2; ++p) {
    state.position.x = p == 0 ? -3.0f : 3.0f;
    state.position.y = 0.5f;
    REQUIRE_OK(shoal_world_add_sphere(*out, ball_ids[p], 0.5f, 2.0f, &state));
  }
  REQUIRE_OK(shoal_world_set_spawn_sphere(*out, PROJECTILE, 0.15f, 0.3f));
  REQUIRE_OK(shoal_world_set_spawn_box(*out, PICKUP, 0.25f, 0.25f, 0.25f, 0.5f));
  REQUIRE_OK(shoal_world_add_spawn_slots(*out, 4 * SLOTS_PER_PEER));
  return 0;
}

static int run_frames(memory_match* m, int frames) {
  int i;
  for (i = 0; i < frames; ++i) REQUIRE_OK(memory_match_frame(m));
  return 0;
}

int main(void) {
  memory_match m;
  shoal_world* worlds[2] = {NULL, NULL};
  shoal_peer_config config;
  static const uint16_t vanish[] = {PROJECTILE};
  uint32_t made[4];
  uint32_t live[2][MAX_LIVE];
  uint32_t live_count[2] = {0, 0};
  uint16_t ids[2] = {SHOAL_NO_PEER, SHOAL_NO_PEER};
  int p, i, frame;
  int32_t common;

  REQUIRE_OK(memory_match_open(&m, 12, 20, 0.05f));
  REQUIRE_OK(shoal_peer_config_default(&config));
  CHECK(config.max_spawn_bytes == 32 && config.max_objects_per_peer == 64 && config.input_bytes == 0);
  config.max_objects_per_peer = SLOTS_PER_PEER;
  config.max_spawns_per_second = 20;
  config.max_spawn_bytes = 6;
  config.removed_on_leave = vanish;
  config.removed_on_leave_count = 1;
  for (p = 0; p < 2; ++p) {
    shoal_transport* transport = NULL;
    REQUIRE(build_world(&worlds[p]) == 0);
    REQUIRE_OK(shoal_memory_network_create_endpoint(m.network, (uint16_t)(p + 1), 2000, &transport));
    REQUIRE_OK(shoal_peer_create_with_world(&config, worlds[p], transport, &m.peers[p]));
    REQUIRE_OK(shoal_peer_set_controlled(m.peers[p], ball_ids[p]));
  }
  CHECK_FAILS(shoal_world_add_spawn_slots(worlds[0], 4), SHOAL_ERROR_INVALID_STATE, "drives a peer");
  {
    shoal_object_state s;
    uint32_t id = 0;
    shoal_object_state_default(&s);
    CHECK_FAILS(shoal_peer_spawn(m.peers[0], PICKUP, &s, NULL, 0, &id), SHOAL_ERROR_INVALID_STATE, "not in a match");
  }
  REQUIRE_OK(memory_match_connect(&m));
  for (p = 0; p < 2; ++p) REQUIRE_OK(shoal_peer_id(m.peers[p], &ids[p]));

  /* Each peer spawns a pickup with bytes and a projectile without. */
  for (p = 0; p < 2; ++p) {
    shoal_object_state s;
    const uint8_t bytes[6] = {(uint8_t)(40 + p), 1, 2, 3, 4, (uint8_t)(200 + p)};
    shoal_object_state_default(&s);
    s.position.x = p == 0 ? -1.0f : 1.0f;
    s.position.y = 0.3f;
    s.position.z = 2;
    REQUIRE_OK(shoal_peer_spawn(m.peers[p], PICKUP, &s, bytes, 6, &made[2 * p]));
    s.position.z = -2;
    s.linear_velocity.z = -3;
    REQUIRE_OK(shoal_peer_spawn(m.peers[p], PROJECTILE, &s, NULL, 0, &made[2 * p + 1]));
    CHECK((made[2 * p] & 0x80000000u) != 0);
  }
  REQUIRE(run_frames(&m, 120) == 0);
  for (p = 0; p < 2; ++p) {
    REQUIRE_OK(shoal_peer_spawned_objects(m.peers[p], live[p], MAX_LIVE, &live_count[p]));
  }
  CHECK(live_count[0] == 4 && live_count[1] == 4);
  CHECK(memcmp(live[0], live[1], 4 * sizeof live[0][0]) == 0);
  for (p = 0; p < 2; ++p) {
    shoal_game_stats g;
    REQUIRE_OK(shoal_peer_game_stats(m.peers[p], &g));
    CHECK(g.objects_spawned == 4);  /* its own two and the other's */
    CHECK(g.objects_removed == 0);
  }
  for (p = 0; p < 2; ++p) {
    for (i = 0; i < 2; ++i) {
      shoal_spawned_object o;
      REQUIRE_OK(shoal_peer_spawned_object(m.peers[p], made[2 * i], &o));
      CHECK(o.object == made[2 * i]);
      CHECK(o.type == PICKUP);
      CHECK(o.spawner == ids[i] && o.owner == ids[i]);
      CHECK(o.frame > 0);
      CHECK(o.byte_count == 6 && o.bytes[0] == 40 + i && o.bytes[5] == 200 + i);
      REQUIRE_OK(shoal_peer_spawned_object(m.peers[p], made[2 * i + 1], &o));
      CHECK(o.type == PROJECTILE && o.byte_count == 0);
    }
  }

  /* Misuse: too many bytes, a type without a shape, another peer's object, unknown ids. */
  {
    shoal_object_state s;
    const uint8_t seven[7] = {0};
    uint32_t id = 0;
    shoal_spawned_object o;
    shoal_object_state_default(&s);
    s.position.y = 1;
    CHECK_FAILS(shoal_peer_spawn(m.peers[0], PICKUP, &s, seven, 7, &id), SHOAL_ERROR_INVALID_ARGUMENT, "max_spawn_bytes");
    CHECK_FAILS(shoal_peer_spawn(m.peers[0], 99, &s, NULL, 0, &id), SHOAL_ERROR_INVALID_ARGUMENT, "type 99");
    CHECK_FAILS(shoal_peer_spawn(m.peers[0], PICKUP, &s, NULL, 3, &id), SHOAL_ERROR_NULL_ARGUMENT, "bytes");
    CHECK_FAILS(shoal_peer_spawn(m.peers[0], PICKUP, &s, NULL, 0, NULL), SHOAL_ERROR_NULL_ARGUMENT, "out_object");
    CHECK_FAILS(shoal_peer_remove(m.peers[0], made[2]), SHOAL_ERROR_INVALID_STATE, "owned by peer");
    CHECK_FAILS(shoal_peer_remove(m.peers[0], ball_ids[0]), SHOAL_ERROR_UNKNOWN_OBJECT, "no live spawned object");
    CHECK_FAILS(shoal_peer_spawned_object(m.peers[0], ball_ids[0], &o), SHOAL_ERROR_UNKNOWN_OBJECT, "no live spawned");
    CHECK_FAILS(shoal_peer_spawned_objects(m.peers[0], NULL, 4, &live_count[0]), SHOAL_ERROR_NULL_ARGUMENT, "out_ids");
  }

  /* The joiner removes its projectile: gone on both. */
  REQUIRE_OK(shoal_peer_remove(m.peers[1], made[3]));
  REQUIRE(run_frames(&m, 60) == 0);
  for (p = 0; p < 2; ++p) {
    shoal_spawned_object o;
    REQUIRE_OK(shoal_peer_spawned_objects(m.peers[p], live[p], MAX_LIVE, &live_count[p]));
    CHECK(live_count[p] == 3);
    CHECK(shoal_peer_spawned_object(m.peers[p], made[3], &o) == SHOAL_ERROR_UNKNOWN_OBJECT);
  }

  /* Everything comes to rest: the same states of every spawned object, bit for bit. */
  for (frame = 0; frame < 1200; ++frame) {
    int resting = 1;
    for (p = 0; p < 2 && resting; ++p) {
      for (i = 0; i < 3 && resting; ++i) {
        shoal_object_state s;
        resting = shoal_peer_state(m.peers[p], made[i], &s) == SHOAL_OK && s.at_rest;
      }
    }
    if (resting) break;
    REQUIRE_OK(memory_match_frame(&m));
  }
  REQUIRE(run_frames(&m, 120) == 0);
  common = memory_match_common_frame(&m);
  for (i = 0; i < 3; ++i) {
    shoal_object_state a, b;
    REQUIRE_OK(shoal_peer_state_at(m.peers[0], made[i], common, &a));
    REQUIRE_OK(shoal_peer_state_at(m.peers[1], made[i], common, &b));
    CHECK(same_vec3(a.position, b.position));
    CHECK(a.at_rest && b.at_rest);
  }

  for (p = 0; p < 2; ++p) REQUIRE_OK(shoal_peer_destroy(m.peers[p]));
  for (p = 0; p < 2; ++p) REQUIRE_OK(shoal_world_destroy(worlds[p]));
  REQUIRE_OK(shoal_memory_network_destroy(m.network));
  return check_exit_status();
}
