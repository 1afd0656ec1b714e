/* SPDX-License-Identifier: MIT */
/* The snapshot fields of shoal_peer_config (version 5) reach the peer: each run changes what
 * the host sends or the states it keeps, against a run without the change. Sixteen balls roll
 * and spin in a walled arena on two peers at 20 ms one way; nobody controls anything, so the
 * host (the default owner) owns every ball and sends them all to the joiner, and quantises the
 * states of its balls as it sends them. */
#include <math.h>

#include "memory_match.h"

#define BALLS 16
#define PLAY_FRAMES 240       /* 4 s */
#define OVERHEAD_BYTES 40     /* what the budget counts per datagram for ENet, UDP and IP */
#define COARSE_VELOCITY 4     /* velocity_units_per_mps of the coarse run: 1/4 m/s steps */
#define COARSE_ORIENTATION 8  /* orientation_bits of the coarse run */

typedef struct run_result {
  uint64_t bytes;            /* the host's snapshot bytes during play */
  uint64_t packets;          /* its snapshot datagrams (one per frame per link by priority) */
  int32_t frames;            /* frames it stepped during play */
  int velocity_off_grid;     /* velocity components of its balls off the 1/4 m/s grid */
  int orientation_off_grid;  /* orientations off the 8-bit smallest-three grid */
} run_result;

static int build_world(shoal_world** out) {
  shoal_world_config config;
  shoal_object_state state;
  int i;
  REQUIRE_OK(shoal_world_config_default(&config));
  config.arena_half_x = 8;
  config.arena_half_z = 8;
  config.restitution = 0.9f;
  config.linear_damping = 0;  /* moving for the whole run */
  config.angular_damping = 0;
  config.allow_sleep = 0;
  REQUIRE_OK(shoal_world_create(&config, out));
  REQUIRE_OK(shoal_object_state_default(&state));
  for (i = 0; i < BALLS; ++i) {
    state.position.x = -6 + 4 * (float)(i % 4);
    state.position.y = 0.5f;
    state.position.z = -6 + 4 * (float)(i / 4);
    state.linear_velocity.x = 3 * cosf((float)i);
    state.linear_velocity.z = 3 * sinf((float)i);
    state.angular_velocity.x = 1 + (float)(i % 3);  /* a generic orientation within frames */
    state.angular_velocity.y = 2;
    state.angular_velocity.z = -1;
    REQUIRE_OK(shoal_world_add_sphere(*out, (uint32_t)(i + 1), 0.5f, 1.0f, &state));
  }
  return 0;
}

/* Whether component k of q is on the coarse run's grid: with b bits the three components sent
 * are (n - z) / z / sqrt(2), z = 2^(b-1) - 1, up to the rounding of renormalising. */
static int on_orientation_grid(const float q[4], int k) {
  const float units = q[k] * sqrtf(2.0f) * (float)((1 << (COARSE_ORIENTATION - 1)) - 1);
  return fabsf(units - roundf(units)) < 0.01f;
}

/* Counts the host's velocity components off the coarse run's grid, and its orientations with
 * no three components on that grid (the fourth, the one left out, is derived). */
static void count_off_grid(const shoal_object_state* s, run_result* r) {
  const float v[3] = {s->linear_velocity.x, s->linear_velocity.y, s->linear_velocity.z};
  const float q[4] = {s->orientation.w, s->orientation.x, s->orientation.y, s->orientation.z};
  int k, on_count = 0;
  for (k = 0; k < 3; ++k) r->velocity_off_grid += v[k] * COARSE_VELOCITY != floorf(v[k] * COARSE_VELOCITY);
  for (k = 0; k < 4; ++k) on_count += on_orientation_grid(q, k);
  r->orientation_off_grid += on_count < 3;
}

/* Plays PLAY_FRAMES with this config on both peers, counting from the moment both are in. */
static int run(const shoal_peer_config* config, run_result* r) {
  memory_match m;
  shoal_world* worlds[2] = {NULL, NULL};
  shoal_stats before, after;
  int frame, p, i;
  memset(r, 0, sizeof *r);
  REQUIRE_OK(memory_match_open(&m, 5, 20, 0));
  for (p = 0; p < 2; ++p) {
    shoal_transport* transport = NULL;
    REQUIRE(build_world(&worlds[p]) == 0);
    REQUIRE_OK(shoal_memory_network_create_endpoint(m.network, (uint16_t)(p + 1), 2000, &transport));
    REQUIRE_OK(shoal_peer_create_with_world(config, worlds[p], transport, &m.peers[p]));
  }
  REQUIRE_OK(memory_match_connect(&m));
  REQUIRE_OK(shoal_peer_stats(m.peers[0], &before));
  for (frame = 0; frame < PLAY_FRAMES; ++frame) {
    REQUIRE_OK(memory_match_frame(&m));
    for (i = 0; i < BALLS; ++i) {
      shoal_object_state state;
      REQUIRE_OK(shoal_peer_state(m.peers[0], (uint32_t)(i + 1), &state));
      count_off_grid(&state, r);
    }
  }
  REQUIRE_OK(shoal_peer_stats(m.peers[0], &after));
  r->bytes = after.snapshot_bytes_sent - before.snapshot_bytes_sent;
  r->packets = after.snapshots_sent - before.snapshots_sent;
  r->frames = after.frame - before.frame;
  CHECK(after.owned_objects == BALLS && after.quantization_clamps == 0);
  for (p = 0; p < 2; ++p) REQUIRE_OK(shoal_peer_destroy(m.peers[p]));
  for (p = 0; p < 2; ++p) REQUIRE_OK(shoal_world_destroy(worlds[p]));
  REQUIRE_OK(shoal_memory_network_destroy(m.network));
  return 0;
}

/* run(), and a line saying what it sent, for whoever reads the test's output. */
static int run_named(const char* name, const shoal_peer_config* config, run_result* r) {
  if (run(config, r) != 0) return 1;
  printf("%-14s %6llu bytes in %4llu packets over %d frames; off grid: %d velocity, %d orientation\n",
         name, (unsigned long long)r->bytes, (unsigned long long)r->packets, (int)r->frames,
         r->velocity_off_grid, r->orientation_off_grid);
  return 0;
}

/* The most the budget lets through in r's frames: bytes_per_second for that long, and what the
 * budget may hold when the window starts (one largest packet). */
static double budget_bound(const shoal_peer_config* c, const run_result* r) {
  return (double)c->bytes_per_second * r->frames / c->tick_hz + c->packet_budget_bytes + OVERHEAD_BYTES;
}

int main(void) {
  shoal_peer_config defaults, c;
  run_result base, budget, unprioritized, small, coarse, roomy, whole, young;

  REQUIRE_OK(shoal_peer_config_default(&defaults));
  REQUIRE(run_named("defaults", &defaults, &base) == 0);

  /* bytes_per_second holds by priority (prioritize, the default) and not without. */
  c = defaults;
  c.bytes_per_second = 2000;
  REQUIRE(run_named("2000 B/s", &c, &budget) == 0);
  c.prioritize = 0;
  REQUIRE(run_named("unprioritized", &c, &unprioritized) == 0);
  CHECK(budget.packets > 0 && budget.frames >= PLAY_FRAMES - 2);
  CHECK((double)(budget.bytes + OVERHEAD_BYTES * budget.packets) <= budget_bound(&c, &budget));
  CHECK((double)base.bytes > budget_bound(&c, &base));
  CHECK((double)unprioritized.bytes > budget_bound(&c, &unprioritized));

  /* packet_budget_bytes caps every datagram. */
  c = defaults;
  c.packet_budget_bytes = 64;
  REQUIRE(run_named("64-byte packets", &c, &small) == 0);
  CHECK(small.packets > 0 && small.bytes <= 64 * small.packets);
  CHECK(base.bytes > 64 * base.packets);

  /* velocity_units_per_mps and orientation_bits set the grid the host's states are on. */
  c = defaults;
  c.velocity_units_per_mps = COARSE_VELOCITY;
  c.orientation_bits = COARSE_ORIENTATION;
  REQUIRE(run_named("coarse", &c, &coarse) == 0);
  CHECK(coarse.velocity_off_grid == 0 && coarse.orientation_off_grid == 0);
  CHECK(base.velocity_off_grid > 0 && base.orientation_off_grid > 0);

  /* delta = 0, or baselines older than max_baseline_age_frames (a round trip is more than
   * 2 frames), send every ball whole: more bytes, where the budget leaves room for them all. */
  c = defaults;
  c.bytes_per_second = 1000000;
  REQUIRE(run_named("roomy", &c, &roomy) == 0);
  c.delta = 0;
  REQUIRE(run_named("whole", &c, &whole) == 0);
  c.delta = 1;
  c.max_baseline_age_frames = 1;
  REQUIRE(run_named("young baseline", &c, &young) == 0);
  CHECK(whole.bytes > roomy.bytes + roomy.bytes / 4);
  CHECK(young.bytes > roomy.bytes + roomy.bytes / 4);
  return check_exit_status();
}
