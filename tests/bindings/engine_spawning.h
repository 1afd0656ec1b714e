/* SPDX-License-Identifier: MIT */
/* A lone host on an engine world built from C, with spawn slots handed to the simulation
 * through the world's spawn callbacks: a spawned object appears where it was spawned, is
 * simulated (it falls), carries its spawn bytes, and is gone once removed. Shared by
 * box2d_spawning_test.c and bullet_spawning_test.c. */
#ifndef SHOAL_TESTS_BINDINGS_ENGINE_SPAWNING_H
#define SHOAL_TESTS_BINDINGS_ENGINE_SPAWNING_H

#include "memory_match.h"

#define SPAWNED_TYPE 7

static int host_frames(shoal_memory_network* network, shoal_peer* peer, int64_t* now_us, int frames) {
  int i;
  for (i = 0; i < frames; ++i) {
    *now_us += RENDER_US;
    REQUIRE_OK(shoal_memory_network_set_time_us(network, *now_us));
    REQUIRE_OK(shoal_peer_update_at(peer, *now_us));
  }
  return 0;
}

/* callbacks and spawning: the world's; `controlled`: its shared body's id. */
static int check_engine_spawning(const shoal_simulation_callbacks* callbacks, const shoal_spawn_callbacks* spawning,
                                 uint32_t controlled) {
  shoal_simulation* simulation = NULL;
  shoal_memory_network* network = NULL;
  shoal_transport* transport = NULL;
  shoal_peer* peer = NULL;
  shoal_peer_config config;
  shoal_object_state start, now;
  shoal_spawned_object o;
  const uint8_t bytes[2] = {0xAB, 0xCD};
  uint32_t object = 0, count = 9;
  int64_t now_us = 0;

  CHECK(spawning->spawn_slot_count == 4);
  REQUIRE_OK(shoal_simulation_create(callbacks, &simulation));
  REQUIRE_OK(shoal_simulation_set_spawning(simulation, spawning));
  REQUIRE_OK(shoal_peer_config_default(&config));
  REQUIRE_OK(shoal_memory_network_create(5, &network));
  REQUIRE_OK(shoal_memory_network_create_endpoint(network, 0, 3000, &transport));
  REQUIRE_OK(shoal_peer_create_with_simulation(&config, simulation, transport, &peer));
  REQUIRE_OK(shoal_peer_set_controlled(peer, controlled));
  REQUIRE_OK(shoal_peer_host(peer));
  REQUIRE(host_frames(network, peer, &now_us, 10) == 0);

  REQUIRE_OK(shoal_object_state_default(&start));
  start.position.x = 1;
  start.position.y = 3;
  CHECK_FAILS(shoal_peer_spawn(peer, SPAWNED_TYPE + 1, &start, NULL, 0, &object), SHOAL_ERROR_INVALID_ARGUMENT, "type");
  REQUIRE_OK(shoal_peer_spawn(peer, SPAWNED_TYPE, &start, bytes, 2, &object));
  REQUIRE(host_frames(network, peer, &now_us, 30) == 0);
  REQUIRE_OK(shoal_peer_state(peer, object, &now));
  CHECK(now.position.x == 1.0f);
  CHECK(now.position.y < 3.0f);  /* it fell: the engine simulates it */
  REQUIRE_OK(shoal_peer_spawned_object(peer, object, &o));
  CHECK(o.type == SPAWNED_TYPE && o.byte_count == 2 && o.bytes[1] == 0xCD);

  REQUIRE_OK(shoal_peer_remove(peer, object));
  REQUIRE(host_frames(network, peer, &now_us, 5) == 0);
  REQUIRE_OK(shoal_peer_spawned_objects(peer, NULL, 0, &count));
  CHECK(count == 0);

  REQUIRE_OK(shoal_peer_destroy(peer));
  REQUIRE_OK(shoal_simulation_destroy(simulation));
  REQUIRE_OK(shoal_memory_network_destroy(network));
  return 0;
}

#endif
