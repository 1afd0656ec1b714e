/* SPDX-License-Identifier: MIT */
/* The optional callbacks of a C simulation: changed_bodies (Shoal reads only what moved),
 * set_frozen (far bodies are left out of the steps), body_type and user bytes (game state that
 * the owner's snapshots carry). A toy world of two balls and crates; the host starts with
 * other user bytes in its crates than the joiner, and as the crates' owner its bytes must
 * reach the joiner. */
#include "memory_match.h"

#define BALLS 2
#define NEAR_CRATES 22                 /* around the balls; the first six drift */
#define FAR_CRATES 16                  /* 300 m away: outside every simulated region */
#define BODIES (BALLS + NEAR_CRATES + FAR_CRATES)
#define DRIFTING 6
#define CRATE_TYPE 7
#define DT (1.0f / 60.0f)
#define PLAY_FRAMES 240
#define REST_FRAMES 300

typedef struct hook_world {
  uint32_t ids[BODIES];
  shoal_object_state states[BODIES];
  uint32_t moved_frames[BODIES];  /* the crates' user bytes: frames spent moving */
  int frozen[BODIES];
  uint32_t changed[BODIES];
  uint32_t changed_count;
  long steps, reads, freezes, thaws, user_reads, user_writes, changed_calls;
} hook_world;

static void hook_step(void* user, int32_t frame, const shoal_body_input* inputs, uint32_t count) {
  hook_world* w = (hook_world*)user;
  uint32_t i;
  (void)frame;
  ++w->steps;
  w->changed_count = 0;
  for (i = 0; i < count; ++i) {
    shoal_object_state* s = &w->states[inputs[i].body];
    s->linear_velocity.x = inputs[i].input.axis.x;
    s->linear_velocity.z = inputs[i].input.axis.z;
  }
  for (i = 0; i < BODIES; ++i) {
    shoal_object_state* s = &w->states[i];
    const shoal_object_state before = *s;
    if (w->frozen[i]) continue;
    s->position.x += s->linear_velocity.x * DT;
    s->position.z += s->linear_velocity.z * DT;
    s->at_rest = s->linear_velocity.x == 0 && s->linear_velocity.z == 0;
    if (i >= BALLS && !s->at_rest) ++w->moved_frames[i];
    if (memcmp(&before, s, sizeof before) != 0 || (i >= BALLS && !s->at_rest)) w->changed[w->changed_count++] = i;
  }
}

static uint32_t hook_body_count(void* user) {
  (void)user;
  return BODIES;
}

static uint32_t hook_body_id(void* user, uint32_t body) { return ((hook_world*)user)->ids[body]; }

static float hook_radius(void* user, uint32_t body) {
  (void)user;
  (void)body;
  return 0.5f;
}

static void hook_read(void* user, uint32_t body, shoal_object_state* out) {
  hook_world* w = (hook_world*)user;
  ++w->reads;
  *out = w->states[body];
}

static void hook_write(void* user, uint32_t body, const shoal_object_state* state) {
  ((hook_world*)user)->states[body] = *state;
}

static int hook_changed(void* user, const uint32_t** out_bodies, uint32_t* out_count) {
  hook_world* w = (hook_world*)user;
  ++w->changed_calls;
  *out_bodies = w->changed;
  *out_count = w->changed_count;
  return 1;
}

static void hook_set_frozen(void* user, uint32_t body, int frozen) {
  hook_world* w = (hook_world*)user;
  w->frozen[body] = frozen;
  if (frozen) {
    ++w->freezes;
  } else {
    ++w->thaws;
  }
}

static uint16_t hook_type(void* user, uint32_t body) {
  (void)user;
  return body < BALLS ? 0 : CRATE_TYPE;
}

static uint32_t hook_user_bytes_size(void* user, uint16_t type) {
  (void)user;
  return type == CRATE_TYPE ? 4 : 0;
}

static void hook_read_user_bytes(void* user, uint32_t body, uint8_t* out, uint32_t size) {
  hook_world* w = (hook_world*)user;
  ++w->user_reads;
  if (size == 4) memcpy(out, &w->moved_frames[body], 4);
}

static void hook_write_user_bytes(void* user, uint32_t body, const uint8_t* bytes, uint32_t size) {
  hook_world* w = (hook_world*)user;
  ++w->user_writes;
  if (size == 4) memcpy(&w->moved_frames[body], bytes, 4);
}

static void hook_world_init(hook_world* w, uint32_t crate_bytes) {
  int i;
  memset(w, 0, sizeof *w);
  for (i = 0; i < BODIES; ++i) {
    shoal_object_state_default(&w->states[i]);
    w->ids[i] = (uint32_t)(1 + i);
    w->states[i].position.y = 0.5f;
    if (i < BALLS + NEAR_CRATES) {
      w->states[i].position.x = -10.0f + 1.5f * (float)(i % 14);
      w->states[i].position.z = -3.0f + 3.0f * (float)(i / 14);
    } else {
      w->states[i].position.x = 300.0f + 2.0f * (float)i;
    }
    if (i >= BALLS) w->moved_frames[i] = crate_bytes;
    if (i >= BALLS && i < BALLS + DRIFTING) w->states[i].linear_velocity.z = 0.2f;
    w->states[i].at_rest = w->states[i].linear_velocity.z == 0;
  }
}

static shoal_simulation_callbacks hook_callbacks(hook_world* w) {
  shoal_simulation_callbacks c;
  memset(&c, 0, sizeof c);
  c.struct_size = sizeof c;
  c.user = w;
  c.step = hook_step;
  c.body_count = hook_body_count;
  c.body_id = hook_body_id;
  c.bounding_radius = hook_radius;
  c.read = hook_read;
  c.write = hook_write;
  c.changed_bodies = hook_changed;
  c.set_frozen = hook_set_frozen;
  c.body_type = hook_type;
  c.user_bytes_size = hook_user_bytes_size;
  c.read_user_bytes = hook_read_user_bytes;
  c.write_user_bytes = hook_write_user_bytes;
  return c;
}

int main(void) {
  memory_match m;
  hook_world worlds[2];
  shoal_simulation* simulations[2] = {NULL, NULL};
  shoal_peer_config config;
  shoal_stats stats[2];
  int p, i;
  int32_t common;

  /* Half the user-bytes callbacks is refused, naming what goes together. */
  {
    shoal_simulation_callbacks half = hook_callbacks(&worlds[0]);
    shoal_simulation* refused = NULL;
    half.write_user_bytes = NULL;
    CHECK(shoal_simulation_create(&half, &refused) == SHOAL_ERROR_INVALID_ARGUMENT);
    CHECK(refused == NULL);
    CHECK(strstr(shoal_last_error(), "give all three or none") != NULL);
  }

  REQUIRE_OK(memory_match_open(&m, 23, 30, 0.05f));
  REQUIRE_OK(shoal_peer_config_default(&config));
  for (p = 0; p < 2; ++p) {
    shoal_transport* transport = NULL;
    shoal_simulation_callbacks callbacks;
    hook_world_init(&worlds[p], p == 0 ? 1000u : 0u);  /* the host's crates say otherwise */
    callbacks = hook_callbacks(&worlds[p]);
    REQUIRE_OK(shoal_simulation_create(&callbacks, &simulations[p]));
    REQUIRE_OK(shoal_memory_network_create_endpoint(m.network, 0, 2000, &transport));
    REQUIRE_OK(shoal_peer_create_with_simulation(&config, simulations[p], transport, &m.peers[p]));
    REQUIRE_OK(shoal_peer_set_controlled(m.peers[p], worlds[p].ids[p]));
  }
  REQUIRE_OK(memory_match_connect(&m));
  REQUIRE_OK(memory_match_steer_then_rest(&m, PLAY_FRAMES, 40, REST_FRAMES));

  common = memory_match_common_frame(&m);
  for (i = 0; i < BODIES; ++i) {
    shoal_object_state a, b;
    REQUIRE_OK(shoal_peer_state_at(m.peers[0], worlds[0].ids[i], common, &a));
    REQUIRE_OK(shoal_peer_state_at(m.peers[1], worlds[1].ids[i], common, &b));
    CHECK(same_state(&a, &b));
  }
  /* The crates' user bytes are the owner's on both peers: the host's 1000 plus frames moved. */
  for (i = BALLS; i < BODIES; ++i) {
    uint16_t owner = SHOAL_NO_PEER;
    REQUIRE_OK(shoal_peer_owner(m.peers[1], worlds[1].ids[i], &owner));
    CHECK(worlds[0].moved_frames[i] == worlds[1].moved_frames[i]);
    if (owner == 0) CHECK(worlds[1].moved_frames[i] >= 1000u);
    if (i < BALLS + DRIFTING) CHECK(worlds[0].moved_frames[i] > 1000u);  /* drifting counted */
  }
  for (p = 0; p < 2; ++p) {
    const hook_world* w = &worlds[p];
    REQUIRE_OK(shoal_peer_stats(m.peers[p], &stats[p]));
    CHECK(stats[p].desyncs == 0);
    /* Only what moved is read after a step: far fewer reads than bodies x steps. */
    CHECK(w->changed_calls >= w->steps);
    CHECK(w->reads * 4 < w->steps * BODIES);
    /* The far crates are frozen (none of them thawed: no player came near). */
    CHECK(w->freezes >= FAR_CRATES);
    CHECK(stats[p].frozen_objects >= FAR_CRATES);
    for (i = BALLS + NEAR_CRATES; i < BODIES; ++i) CHECK(w->frozen[i] == 1);
    CHECK(w->user_reads > 0 && w->user_writes > 0);
  }
  printf("reads per step %.1f and %.1f of %d bodies; freezes %ld, %ld; overrides %llu, %llu\n",
         (double)worlds[0].reads / (double)worlds[0].steps, (double)worlds[1].reads / (double)worlds[1].steps,
         BODIES, worlds[0].freezes, worlds[1].freezes, (unsigned long long)stats[0].overrides,
         (unsigned long long)stats[1].overrides);

  for (p = 0; p < 2; ++p) {
    REQUIRE_OK(shoal_peer_destroy(m.peers[p]));
    REQUIRE_OK(shoal_simulation_destroy(simulations[p]));
  }
  REQUIRE_OK(shoal_memory_network_destroy(m.network));
  return check_exit_status();
}
