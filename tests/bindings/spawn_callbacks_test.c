/* SPDX-License-Identifier: MIT */
/* Spawn slots of a C simulation (shoal_simulation_set_spawning): the settings are checked,
 * refused once a peer drives the simulation, and a peer over a world with slots runs without
 * ever asking a slot's id (Shoal names spawned objects itself) or touching an empty slot
 * through add_body / remove_body while nothing is spawned. */
#include "memory_match.h"

#define FIXED 2
#define SLOTS 3
#define BODIES (FIXED + SLOTS)

typedef struct slot_world {
  shoal_object_state states[BODIES];
  long slot_ids_asked, adds, removes, steps;
} slot_world;

static void slot_step(void* user, int32_t frame, const shoal_body_input* inputs, uint32_t count) {
  slot_world* w = (slot_world*)user;
  uint32_t i;
  (void)frame;
  (void)inputs;
  (void)count;
  ++w->steps;
  for (i = 0; i < FIXED; ++i) w->states[i].position.x += w->states[i].linear_velocity.x / 60.0f;
}

static uint32_t slot_body_count(void* user) {
  (void)user;
  return BODIES;
}

static uint32_t slot_body_id(void* user, uint32_t body) {
  if (body >= FIXED) ++((slot_world*)user)->slot_ids_asked;
  return 1 + body;
}

static float slot_radius(void* user, uint32_t body) {
  (void)user;
  return body < FIXED ? 0.5f : 0.0f;
}

static void slot_read(void* user, uint32_t body, shoal_object_state* out) { *out = ((slot_world*)user)->states[body]; }

static void slot_write(void* user, uint32_t body, const shoal_object_state* state) {
  if (body < FIXED) ((slot_world*)user)->states[body] = *state;  /* an empty slot ignores writes */
}

static void slot_add(void* user, uint32_t body, uint16_t type, const shoal_object_state* state) {
  slot_world* w = (slot_world*)user;
  (void)type;
  ++w->adds;
  w->states[body] = *state;
}

static void slot_remove(void* user, uint32_t body) {
  slot_world* w = (slot_world*)user;
  ++w->removes;
  shoal_object_state_default(&w->states[body]);
  w->states[body].at_rest = 1;
}

int main(void) {
  slot_world world;
  shoal_simulation_callbacks callbacks;
  shoal_spawn_callbacks spawning;
  shoal_simulation* simulation = NULL;
  shoal_memory_network* network = NULL;
  shoal_transport* transport = NULL;
  shoal_peer* peer = NULL;
  shoal_peer_config config;
  int32_t frame = -1;
  int64_t now_us = 0;
  int i;

  memset(&world, 0, sizeof world);
  for (i = 0; i < BODIES; ++i) {
    shoal_object_state_default(&world.states[i]);
    world.states[i].at_rest = i >= FIXED;
  }
  world.states[0].linear_velocity.x = 1.0f;
  memset(&callbacks, 0, sizeof callbacks);
  callbacks.struct_size = sizeof callbacks;
  callbacks.user = &world;
  callbacks.step = slot_step;
  callbacks.body_count = slot_body_count;
  callbacks.body_id = slot_body_id;
  callbacks.bounding_radius = slot_radius;
  callbacks.read = slot_read;
  callbacks.write = slot_write;
  REQUIRE_OK(shoal_simulation_create(&callbacks, &simulation));

  memset(&spawning, 0, sizeof spawning);
  spawning.struct_size = sizeof spawning;
  spawning.spawn_slot_count = SLOTS;
  CHECK_FAILS(shoal_simulation_set_spawning(simulation, &spawning), SHOAL_ERROR_INVALID_ARGUMENT, "add_body");
  spawning.add_body = slot_add;
  spawning.remove_body = slot_remove;
  spawning.spawn_slot_count = BODIES + 1;
  CHECK_FAILS(shoal_simulation_set_spawning(simulation, &spawning), SHOAL_ERROR_INVALID_ARGUMENT, "spawn_slot_count");
  CHECK_FAILS(shoal_simulation_set_spawning(NULL, &spawning), SHOAL_ERROR_NULL_ARGUMENT, "simulation");
  spawning.spawn_slot_count = SLOTS;
  REQUIRE_OK(shoal_simulation_set_spawning(simulation, &spawning));

  REQUIRE_OK(shoal_peer_config_default(&config));
  REQUIRE_OK(shoal_memory_network_create(3, &network));
  REQUIRE_OK(shoal_memory_network_create_endpoint(network, 0, 3000, &transport));
  REQUIRE_OK(shoal_peer_create_with_simulation(&config, simulation, transport, &peer));
  CHECK_FAILS(shoal_simulation_set_spawning(simulation, &spawning), SHOAL_ERROR_INVALID_STATE, "drives a peer");
  REQUIRE_OK(shoal_peer_set_controlled(peer, 1));
  REQUIRE_OK(shoal_peer_host(peer));
  for (i = 0; i < 60; ++i) {
    now_us += RENDER_US;
    REQUIRE_OK(shoal_memory_network_set_time_us(network, now_us));
    REQUIRE_OK(shoal_peer_update_at(peer, now_us));
  }
  REQUIRE_OK(shoal_peer_frame(peer, &frame));
  CHECK(frame > 30);
  CHECK(world.steps >= frame);
  CHECK(world.slot_ids_asked == 0);  /* Shoal never asks a slot's id */
  CHECK(world.adds == 0 && world.removes == 0);  /* nothing was spawned */
  CHECK(world.states[0].position.x > 0.4f);  /* the fixed body moved */

  REQUIRE_OK(shoal_peer_destroy(peer));
  REQUIRE_OK(shoal_simulation_destroy(simulation));
  REQUIRE_OK(shoal_memory_network_destroy(network));
  return check_exit_status();
}
