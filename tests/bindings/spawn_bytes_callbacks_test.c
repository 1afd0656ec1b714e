/* SPDX-License-Identifier: MIT */
/* The game's bytes through a C simulation (since version 12): the input bytes set with
 * shoal_peer_set_input_bytes reach step_with_bytes for the controlled body, kept beside the
 * axis of shoal_peer_set_input; the spawn bytes given to shoal_peer_spawn reach
 * add_body_with_bytes; sizes past the config are refused with a message. */
#include "memory_match.h"

#define FIXED 1
#define SLOTS 4
#define BODIES (FIXED + SLOTS)

typedef struct bytes_world {
  shoal_object_state states[BODIES];
  uint8_t last_input_bytes[SHOAL_MAX_INPUT_BYTES];
  float last_axis_x;
  long steps_with_input, adds;
  uint8_t added_bytes[SHOAL_MAX_SPAWN_BYTES];
  uint32_t added_size;
  uint16_t added_type;
} bytes_world;

static void world_step(void* user, int32_t frame, const shoal_body_input* inputs, const uint8_t* input_bytes,
                       uint32_t count) {
  bytes_world* w = (bytes_world*)user;
  uint32_t i;
  (void)frame;
  for (i = 0; i < count; ++i) {
    if (inputs[i].body != 0) continue;
    ++w->steps_with_input;
    w->last_axis_x = inputs[i].input.axis.x;
    memcpy(w->last_input_bytes, input_bytes + i * SHOAL_MAX_INPUT_BYTES, SHOAL_MAX_INPUT_BYTES);
  }
}

static uint32_t world_body_count(void* user) {
  (void)user;
  return BODIES;
}

static uint32_t world_body_id(void* user, uint32_t body) {
  (void)user;
  return 1 + body;
}

static float world_radius(void* user, uint32_t body) {
  (void)user;
  return body < FIXED ? 0.5f : 0.0f;
}

static void world_read(void* user, uint32_t body, shoal_object_state* out) { *out = ((bytes_world*)user)->states[body]; }

static void world_write(void* user, uint32_t body, const shoal_object_state* state) {
  if (body < FIXED) ((bytes_world*)user)->states[body] = *state;
}

static void world_add(void* user, uint32_t body, uint16_t type, const shoal_object_state* state, const uint8_t* bytes,
                      uint32_t size) {
  bytes_world* w = (bytes_world*)user;
  ++w->adds;
  w->states[body] = *state;
  w->added_type = type;
  w->added_size = size;
  if (size > 0) memcpy(w->added_bytes, bytes, size);
}

static void world_remove(void* user, uint32_t body) {
  bytes_world* w = (bytes_world*)user;
  shoal_object_state_default(&w->states[body]);
  w->states[body].at_rest = 1;
}

static int run(shoal_memory_network* network, shoal_peer* peer, int64_t* now_us, int frames) {
  int i;
  for (i = 0; i < frames; ++i) {
    *now_us += RENDER_US;
    REQUIRE_OK(shoal_memory_network_set_time_us(network, *now_us));
    REQUIRE_OK(shoal_peer_update_at(peer, *now_us));
  }
  return 0;
}

int main(void) {
  bytes_world world;
  shoal_simulation_callbacks callbacks;
  shoal_spawn_callbacks spawning;
  shoal_simulation* simulation = NULL;
  shoal_memory_network* network = NULL;
  shoal_transport* transport = NULL;
  shoal_peer* peer = NULL;
  shoal_peer_config config;
  shoal_input input;
  shoal_spawned_object o;
  const uint8_t mine[5] = {9, 8, 7, 6, 5};
  const uint8_t spawn_bytes[3] = {0xC0, 0xFF, 0xEE};
  uint32_t object = 0;
  int64_t now_us = 0;
  int i;

  memset(&world, 0, sizeof world);
  for (i = 0; i < BODIES; ++i) {
    shoal_object_state_default(&world.states[i]);
    world.states[i].at_rest = i >= FIXED;
  }
  memset(&callbacks, 0, sizeof callbacks);
  callbacks.struct_size = sizeof callbacks;
  callbacks.user = &world;
  callbacks.body_count = world_body_count;
  callbacks.body_id = world_body_id;
  callbacks.bounding_radius = world_radius;
  callbacks.read = world_read;
  callbacks.write = world_write;
  CHECK_FAILS(shoal_simulation_create(&callbacks, &simulation), SHOAL_ERROR_INVALID_ARGUMENT, "step_with_bytes");
  callbacks.step_with_bytes = world_step;  /* no plain step: this one instead */
  REQUIRE_OK(shoal_simulation_create(&callbacks, &simulation));
  memset(&spawning, 0, sizeof spawning);
  spawning.struct_size = sizeof spawning;
  spawning.spawn_slot_count = SLOTS;
  spawning.remove_body = world_remove;
  CHECK_FAILS(shoal_simulation_set_spawning(simulation, &spawning), SHOAL_ERROR_INVALID_ARGUMENT, "add_body_with_bytes");
  spawning.add_body_with_bytes = world_add;  /* no plain add_body either */
  REQUIRE_OK(shoal_simulation_set_spawning(simulation, &spawning));

  REQUIRE_OK(shoal_peer_config_default(&config));
  config.input_bytes = 5;
  config.max_spawn_bytes = 3;
  REQUIRE_OK(shoal_memory_network_create(4, &network));
  REQUIRE_OK(shoal_memory_network_create_endpoint(network, 0, 3000, &transport));
  REQUIRE_OK(shoal_peer_create_with_simulation(&config, simulation, transport, &peer));
  REQUIRE_OK(shoal_peer_set_controlled(peer, 1));
  REQUIRE_OK(shoal_peer_host(peer));
  REQUIRE(run(network, peer, &now_us, 10) == 0);

  CHECK_FAILS(shoal_peer_set_input_bytes(peer, mine, 6), SHOAL_ERROR_INVALID_ARGUMENT, "input_bytes");
  CHECK_FAILS(shoal_peer_set_input_bytes(peer, mine, SHOAL_MAX_INPUT_BYTES + 1), SHOAL_ERROR_INVALID_ARGUMENT, "size");
  CHECK_FAILS(shoal_peer_set_input_bytes(peer, NULL, 2), SHOAL_ERROR_NULL_ARGUMENT, "bytes");
  REQUIRE_OK(shoal_peer_set_input_bytes(peer, mine, 5));
  memset(&input, 0, sizeof input);
  input.axis.x = 0.5f;
  REQUIRE_OK(shoal_peer_set_input(peer, &input));  /* the bytes stay */
  REQUIRE(run(network, peer, &now_us, 10) == 0);
  CHECK(world.steps_with_input > 0);
  CHECK(world.last_axis_x == 0.5f);
  CHECK(memcmp(world.last_input_bytes, mine, 5) == 0);
  CHECK(world.last_input_bytes[5] == 0 && world.last_input_bytes[SHOAL_MAX_INPUT_BYTES - 1] == 0);

  {
    shoal_object_state s;
    const uint8_t four[4] = {1, 2, 3, 4};
    shoal_object_state_default(&s);
    s.position.y = 1;
    CHECK_FAILS(shoal_peer_spawn(peer, 7, &s, four, 4, &object), SHOAL_ERROR_INVALID_ARGUMENT, "max_spawn_bytes (3)");
    REQUIRE_OK(shoal_peer_spawn(peer, 7, &s, spawn_bytes, 3, &object));
  }
  REQUIRE(run(network, peer, &now_us, 5) == 0);
  CHECK(world.adds >= 1);
  CHECK(world.added_type == 7);
  CHECK(world.added_size == 3 && memcmp(world.added_bytes, spawn_bytes, 3) == 0);
  REQUIRE_OK(shoal_peer_spawned_object(peer, object, &o));
  CHECK(o.byte_count == 3 && memcmp(o.bytes, spawn_bytes, 3) == 0 && o.type == 7);

  REQUIRE_OK(shoal_peer_destroy(peer));
  REQUIRE_OK(shoal_simulation_destroy(simulation));
  REQUIRE_OK(shoal_memory_network_destroy(network));
  return check_exit_status();
}
