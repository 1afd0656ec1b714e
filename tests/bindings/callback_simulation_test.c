/* SPDX-License-Identifier: MIT */
/* A game's own physics behind the C callbacks: a tiny integrator in which every body moves at
 * constant velocity and a player's input sets its ball's velocity. Two peers play on the
 * in-process network, one engine with save/restore callbacks (that keep nothing) and one
 * without; the callbacks are called and both peers end up agreeing. */
#include "memory_match.h"

#define BODIES 5             /* two balls, three drifting crates */
#define DT (1.0f / 60.0f)
#define PLAY_FRAMES 240
#define REST_FRAMES 180

typedef struct toy_world {
  uint32_t ids[BODIES];
  shoal_object_state states[BODIES];
  /* how often Shoal called each callback */
  long steps, body_counts, body_ids, radii, reads, writes, saves, restores;
  long inputs_seen;
} toy_world;

static void toy_step(void* user, int32_t frame, const shoal_body_input* inputs, uint32_t count) {
  toy_world* w = (toy_world*)user;
  uint32_t i;
  (void)frame;
  ++w->steps;
  for (i = 0; i < count; ++i) {
    shoal_object_state* s;
    if (inputs[i].body >= BODIES) continue;  /* never happens: Shoal passes valid indices */
    s = &w->states[inputs[i].body];
    s->linear_velocity.x = inputs[i].input.axis.x;
    s->linear_velocity.z = inputs[i].input.axis.z;
    ++w->inputs_seen;
  }
  for (i = 0; i < BODIES; ++i) {
    shoal_object_state* s = &w->states[i];
    s->position.x += s->linear_velocity.x * DT;
    s->position.y += s->linear_velocity.y * DT;
    s->position.z += s->linear_velocity.z * DT;
    s->at_rest = s->linear_velocity.x == 0 && s->linear_velocity.y == 0 && s->linear_velocity.z == 0;
  }
}

static uint32_t toy_body_count(void* user) {
  ++((toy_world*)user)->body_counts;
  return BODIES;
}

static uint32_t toy_body_id(void* user, uint32_t body) {
  toy_world* w = (toy_world*)user;
  ++w->body_ids;
  return w->ids[body];
}

static float toy_radius(void* user, uint32_t body) {
  (void)body;
  ++((toy_world*)user)->radii;
  return 0.5f;
}

static void toy_read(void* user, uint32_t body, shoal_object_state* out) {
  toy_world* w = (toy_world*)user;
  ++w->reads;
  *out = w->states[body];
}

static void toy_write(void* user, uint32_t body, const shoal_object_state* state) {
  toy_world* w = (toy_world*)user;
  ++w->writes;
  w->states[body] = *state;
}

/* Everything this engine's step depends on is in the object states: nothing to keep. */
static void toy_save(void* user, int32_t frame) {
  (void)frame;
  ++((toy_world*)user)->saves;
}

static void toy_restore(void* user, int32_t frame) {
  (void)frame;
  ++((toy_world*)user)->restores;
}

static void toy_world_init(toy_world* w) {
  int i;
  memset(w, 0, sizeof *w);
  for (i = 0; i < BODIES; ++i) {
    shoal_object_state_default(&w->states[i]);
    w->ids[i] = i < 2 ? (uint32_t)(1 + i) : (uint32_t)(100 + i);
    w->states[i].position.x = -4.0f + 2.0f * (float)i;
    w->states[i].position.y = 0.5f;
    if (i >= 2) w->states[i].linear_velocity.z = 0.25f * (float)(i - 1);  /* the crates drift */
  }
}

static shoal_simulation_callbacks toy_callbacks(toy_world* w, int with_save_restore) {
  shoal_simulation_callbacks c;
  memset(&c, 0, sizeof c);
  c.struct_size = sizeof c;
  c.user = w;
  c.step = toy_step;
  c.body_count = toy_body_count;
  c.body_id = toy_body_id;
  c.bounding_radius = toy_radius;
  c.read = toy_read;
  c.write = toy_write;
  if (with_save_restore) {
    c.save = toy_save;
    c.restore = toy_restore;
  }
  return c;
}

int main(void) {
  memory_match m;
  toy_world worlds[2];
  shoal_simulation* simulations[2] = {NULL, NULL};
  shoal_peer_config config;
  shoal_stats stats[2];
  int p, i;
  int32_t common;

  /* 40 ms: late remote inputs, so predictions go wrong and are corrected. */
  REQUIRE_OK(memory_match_open(&m, 11, 40, 0));

  REQUIRE_OK(shoal_peer_config_default(&config));
  for (p = 0; p < 2; ++p) {
    shoal_transport* transport = NULL;
    const shoal_simulation_callbacks callbacks = toy_callbacks(&worlds[p], p == 0);
    toy_world_init(&worlds[p]);
    REQUIRE_OK(shoal_simulation_create(&callbacks, &simulations[p]));
    REQUIRE_OK(shoal_memory_network_create_endpoint(m.network, 0, 2000, &transport));
    REQUIRE_OK(shoal_peer_create_with_simulation(&config, simulations[p], transport, &m.peers[p]));
    REQUIRE_OK(shoal_peer_set_controlled(m.peers[p], worlds[p].ids[p]));
  }
  REQUIRE_OK(memory_match_connect(&m));
  /* Each player steers back and forth, changing direction every half second. */
  REQUIRE_OK(memory_match_steer_then_rest(&m, PLAY_FRAMES, 30, REST_FRAMES));

  common = memory_match_common_frame(&m);
  REQUIRE(common > PLAY_FRAMES);
  for (i = 0; i < BODIES; ++i) {
    shoal_object_state a, b;
    uint16_t owner_a, owner_b;
    REQUIRE_OK(shoal_peer_state_at(m.peers[0], worlds[0].ids[i], common, &a));
    REQUIRE_OK(shoal_peer_state_at(m.peers[1], worlds[1].ids[i], common, &b));
    CHECK(same_state(&a, &b));
    REQUIRE_OK(shoal_peer_owner(m.peers[0], worlds[0].ids[i], &owner_a));
    REQUIRE_OK(shoal_peer_owner(m.peers[1], worlds[1].ids[i], &owner_b));
    CHECK(owner_a == owner_b && owner_a != SHOAL_NO_PEER);
    if (i >= 2) CHECK(a.position.z > 0.5f);  /* the crates kept drifting */
  }
  /* The balls stopped where their last input left them: at rest, the same on both peers. */
  {
    shoal_object_state ball;
    REQUIRE_OK(shoal_peer_state(m.peers[1], worlds[1].ids[0], &ball));
    CHECK(ball.at_rest == 1);
  }

  for (p = 0; p < 2; ++p) {
    const toy_world* w = &worlds[p];
    REQUIRE_OK(shoal_peer_stats(m.peers[p], &stats[p]));
    CHECK(stats[p].desyncs == 0);
    CHECK(w->steps >= PLAY_FRAMES + REST_FRAMES);
    CHECK(w->body_counts > 0 && w->body_ids > 0 && w->radii > 0);
    CHECK(w->reads > 0 && w->writes > 0);
    CHECK(w->inputs_seen > 0);
  }
  printf("frame %d: catch-up frames %llu + %llu; steps %ld + %ld, writes %ld + %ld, restores %ld\n",
         (int)common, (unsigned long long)stats[0].catchup_frames,
         (unsigned long long)stats[1].catchup_frames, worlds[0].steps, worlds[1].steps,
         worlds[0].writes, worlds[1].writes, worlds[0].restores);
  CHECK(worlds[0].saves >= PLAY_FRAMES);
  CHECK(stats[0].catchup_frames + stats[1].catchup_frames > 0);  /* late inputs were corrected */
  CHECK(stats[0].catchup_frames == 0 || worlds[0].restores > 0);
  CHECK(worlds[1].saves == 0 && worlds[1].restores == 0);  /* none given: none called */

  for (p = 0; p < 2; ++p) {
    REQUIRE_OK(shoal_peer_destroy(m.peers[p]));
    REQUIRE_OK(shoal_simulation_destroy(simulations[p]));
  }
  REQUIRE_OK(shoal_memory_network_destroy(m.network));
  return check_exit_status();
}
