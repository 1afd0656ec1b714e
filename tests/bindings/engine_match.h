/* SPDX-License-Identifier: MIT */
/* An engine's world driven from C through the callback simulation: each of two peers builds the
 * engine's arena (a ball per player on the left and right, ten objects between), hands the
 * world's callbacks, through a wrapper that counts them, to shoal_simulation_create(), and the
 * two play on the in-process network at 5% loss. The balls knock the objects about; catch-ups
 * restore the engine's saved state; at the end everything rests and both peers hold the same
 * bits for every body. Shared by box2d_simulation_test.c and bullet_simulation_test.c, which
 * say how their engine builds, hands over and destroys its world. */
#ifndef SHOAL_TESTS_BINDINGS_ENGINE_MATCH_H
#define SHOAL_TESTS_BINDINGS_ENGINE_MATCH_H

#include "memory_match.h"

#define BALLS 2
#define OBJECTS 10
#define BODIES (BALLS + OBJECTS)
#define HALF 6.0f  /* the arena's walls at +-HALF */
#define MAX_SETTLE_FRAMES 900

/* The ids of the arena's bodies: the balls 1 and 2, then the objects from 102 on. */
static uint32_t id_of(int body) { return body < BALLS ? (uint32_t)(1 + body) : (uint32_t)(100 + body); }

/* An engine, as the test sees it. `world` is the engine's world handle. */
typedef struct engine_under_test {
  const char* name;                                                    /* in messages */
  int (*create_arena)(void** world);                                   /* a world holding the arena */
  int (*callbacks)(void* world, shoal_simulation_callbacks* out);      /* the world's callbacks */
  int (*destroy)(void* world);
  int (*in_arena)(const shoal_object_state* state);                    /* where a settled body must be */
} engine_under_test;

/* The game's side of the callbacks: the engine's own, counted on the way through. */
typedef struct counted_world {
  shoal_simulation_callbacks inner;
  long steps, saves, restores, frozen_changes;
} counted_world;

static void counted_step(void* user, int32_t frame, const shoal_body_input* inputs, uint32_t count) {
  counted_world* w = (counted_world*)user;
  ++w->steps;
  w->inner.step(w->inner.user, frame, inputs, count);
}
static uint32_t counted_body_count(void* user) {
  counted_world* w = (counted_world*)user;
  return w->inner.body_count(w->inner.user);
}
static uint32_t counted_body_id(void* user, uint32_t body) {
  counted_world* w = (counted_world*)user;
  return w->inner.body_id(w->inner.user, body);
}
static float counted_radius(void* user, uint32_t body) {
  counted_world* w = (counted_world*)user;
  return w->inner.bounding_radius(w->inner.user, body);
}
static void counted_read(void* user, uint32_t body, shoal_object_state* out) {
  counted_world* w = (counted_world*)user;
  w->inner.read(w->inner.user, body, out);
}
static void counted_write(void* user, uint32_t body, const shoal_object_state* state) {
  counted_world* w = (counted_world*)user;
  w->inner.write(w->inner.user, body, state);
}
static void counted_save(void* user, int32_t frame) {
  counted_world* w = (counted_world*)user;
  ++w->saves;
  w->inner.save(w->inner.user, frame);
}
static void counted_restore(void* user, int32_t frame) {
  counted_world* w = (counted_world*)user;
  ++w->restores;
  w->inner.restore(w->inner.user, frame);
}
static int counted_changed(void* user, const uint32_t** out_bodies, uint32_t* out_count) {
  counted_world* w = (counted_world*)user;
  return w->inner.changed_bodies(w->inner.user, out_bodies, out_count);
}
static void counted_frozen(void* user, uint32_t body, int frozen) {
  counted_world* w = (counted_world*)user;
  ++w->frozen_changes;
  w->inner.set_frozen(w->inner.user, body, frozen);
}

static shoal_simulation_callbacks counted(counted_world* w) {
  shoal_simulation_callbacks c;
  memset(&c, 0, sizeof c);
  c.struct_size = sizeof c;
  c.user = w;
  c.step = counted_step;
  c.body_count = counted_body_count;
  c.body_id = counted_body_id;
  c.bounding_radius = counted_radius;
  c.read = counted_read;
  c.write = counted_write;
  c.save = counted_save;
  c.restore = counted_restore;
  c.changed_bodies = counted_changed;
  c.set_frozen = counted_frozen;
  return c;
}

static int everything_rests(const memory_match* m) {
  int p, i;
  for (p = 0; p < 2; ++p) {
    for (i = 0; i < BODIES; ++i) {
      shoal_object_state s;
      if (shoal_peer_state(m->peers[p], id_of(i), &s) != SHOAL_OK || !s.at_rest) return 0;
    }
  }
  return 1;
}

/* The match; returns the checks' exit status (0: every check held). */
static int run_engine_match(const engine_under_test* engine) {
  memory_match m;
  void* worlds[2] = {NULL, NULL};
  counted_world counts[2];
  shoal_simulation* simulations[2] = {NULL, NULL};
  shoal_peer_config config;
  shoal_stats stats[2];
  int p, i, frame;
  int32_t common;

  REQUIRE_OK(memory_match_open(&m, 23, 40, 0.05f));
  REQUIRE_OK(shoal_peer_config_default(&config));
  for (p = 0; p < 2; ++p) {
    shoal_transport* transport = NULL;
    shoal_simulation_callbacks callbacks;
    memset(&counts[p], 0, sizeof counts[p]);
    REQUIRE_OK(engine->create_arena(&worlds[p]));
    REQUIRE_OK(engine->callbacks(worlds[p], &counts[p].inner));
    callbacks = counted(&counts[p]);
    REQUIRE_OK(shoal_simulation_create(&callbacks, &simulations[p]));
    REQUIRE_OK(shoal_memory_network_create_endpoint(m.network, 0, 2000, &transport));
    REQUIRE_OK(shoal_peer_create_with_simulation(&config, simulations[p], transport, &m.peers[p]));
    REQUIRE_OK(shoal_peer_set_controlled(m.peers[p], id_of(p)));
  }
  REQUIRE_OK(memory_match_connect(&m));
  /* The balls run at each other through the objects along x, turning every second. */
  REQUIRE_OK(memory_match_steer_then_rest(&m, 360, 60, 60));
  for (frame = 0; frame < MAX_SETTLE_FRAMES && !everything_rests(&m); ++frame) REQUIRE_OK(memory_match_frame(&m));
  CHECK(everything_rests(&m));
  for (frame = 0; frame < 180; ++frame) REQUIRE_OK(memory_match_frame(&m));  /* owners refresh what rests */

  common = memory_match_common_frame(&m);
  for (i = 0; i < BODIES; ++i) {
    shoal_object_state a, b;
    REQUIRE_OK(shoal_peer_state_at(m.peers[0], id_of(i), common, &a));
    REQUIRE_OK(shoal_peer_state_at(m.peers[1], id_of(i), common, &b));
    CHECK(same_state(&a, &b));
    CHECK(engine->in_arena(&a));
  }
  for (p = 0; p < 2; ++p) {
    REQUIRE_OK(shoal_peer_stats(m.peers[p], &stats[p]));
    CHECK(stats[p].desyncs == 0);
    CHECK(counts[p].steps >= 360 && counts[p].saves >= 360);
  }
  printf("%s, frame %d: overrides %llu + %llu, catch-up frames %llu + %llu, restores %ld + %ld\n", engine->name,
         (int)common, (unsigned long long)stats[0].overrides, (unsigned long long)stats[1].overrides,
         (unsigned long long)stats[0].catchup_frames, (unsigned long long)stats[1].catchup_frames,
         counts[0].restores, counts[1].restores);
  CHECK(stats[0].overrides + stats[1].overrides > 0);  /* the peers disagreed along the way */
  CHECK(counts[0].restores + counts[1].restores > 0);  /* and the engine was put back to catch up */

  for (p = 0; p < 2; ++p) {
    REQUIRE_OK(shoal_peer_destroy(m.peers[p]));
    REQUIRE_OK(shoal_simulation_destroy(simulations[p]));
    REQUIRE_OK(engine->destroy(worlds[p]));
  }
  REQUIRE_OK(shoal_memory_network_destroy(m.network));
  return check_exit_status();
}

#endif
