/* SPDX-License-Identifier: MIT */
/* Two peers on the in-process network, driven render frame by render frame at simulated
 * time: the same run on every machine, every loop bounded by a frame count. */
#ifndef SHOAL_TESTS_BINDINGS_MEMORY_MATCH_H
#define SHOAL_TESTS_BINDINGS_MEMORY_MATCH_H

#include "check.h"

#define RENDER_US 16667   /* one render frame at 60 Hz */

typedef struct memory_match {
  shoal_memory_network* network;
  shoal_peer* peers[2];   /* peers[0] hosts, peers[1] joins */
  int64_t now_us;
} memory_match;

/* An empty match on a fresh in-process network whose links all have this latency and loss;
 * the clock starts at 1 s. SHOAL_OK or the first error. */
static inline int memory_match_open(memory_match* m, uint64_t seed, float latency_ms, float loss) {
  shoal_link_conditions link;
  int status;
  memset(m, 0, sizeof *m);
  m->now_us = 1000000;
  if ((status = shoal_memory_network_create(seed, &m->network)) != SHOAL_OK) return status;
  if ((status = shoal_link_conditions_default(&link)) != SHOAL_OK) return status;
  link.latency_ms = latency_ms;
  link.loss = loss;
  return shoal_memory_network_set_conditions(m->network, &link);
}

/* Advances the network's clock by one render frame and updates both peers at that instant. */
static inline int memory_match_frame(memory_match* m) {
  int status;
  int p;
  m->now_us += RENDER_US;
  status = shoal_memory_network_set_time_us(m->network, m->now_us);
  for (p = 0; p < 2 && status == SHOAL_OK; ++p) status = shoal_peer_update_at(m->peers[p], m->now_us);
  return status;
}

/* Whether both peers are in the match and each sees both. */
static inline int memory_match_connected(const memory_match* m) {
  int p;
  for (p = 0; p < 2; ++p) {
    int32_t in_match = 0;
    uint32_t count = 0;
    if (shoal_peer_in_match(m->peers[p], &in_match) != SHOAL_OK || !in_match) return 0;
    if (shoal_peer_peers(m->peers[p], NULL, 0, &count) != SHOAL_OK || count != 2) return 0;
  }
  return 1;
}

/* peers[0] hosts, peers[1] joins its address, and both update until each sees the other (at
 * most 600 render frames). SHOAL_OK when they did, the first error, or -1 when they did not. */
static inline int memory_match_connect(memory_match* m) {
  shoal_address host;
  int frame, status;
  if ((status = shoal_peer_host(m->peers[0])) != SHOAL_OK) return status;
  if ((status = shoal_peer_address(m->peers[0], &host)) != SHOAL_OK) return status;
  if ((status = shoal_peer_join(m->peers[1], host.host, host.port)) != SHOAL_OK) return status;
  for (frame = 0; frame < 600 && !memory_match_connected(m); ++frame) {
    if ((status = memory_match_frame(m)) != SHOAL_OK) return status;
  }
  return memory_match_connected(m) ? SHOAL_OK : -1;
}

/* `frames` render frames in which each player steers along x, the two opposite ways, turning
 * every `turn_frames`; then `rest_frames` with no input. SHOAL_OK or the first error. */
static inline int memory_match_steer_then_rest(memory_match* m, int frames, int turn_frames, int rest_frames) {
  const shoal_input none = {{0, 0, 0}, 0};
  int frame, p, status;
  for (frame = 0; frame < frames; ++frame) {
    for (p = 0; p < 2; ++p) {
      shoal_input input = none;
      input.axis.x = ((frame / turn_frames + p) % 2 == 0) ? 1.0f : -1.0f;
      if ((status = shoal_peer_set_input(m->peers[p], &input)) != SHOAL_OK) return status;
    }
    if ((status = memory_match_frame(m)) != SHOAL_OK) return status;
  }
  for (p = 0; p < 2; ++p) {
    if ((status = shoal_peer_set_input(m->peers[p], &none)) != SHOAL_OK) return status;
  }
  for (frame = 0; frame < rest_frames; ++frame) {
    if ((status = memory_match_frame(m)) != SHOAL_OK) return status;
  }
  return SHOAL_OK;
}

/* The newest frame both peers hold: where their histories can be compared. */
static inline int32_t memory_match_common_frame(const memory_match* m) {
  int32_t a = SHOAL_NO_FRAME, b = SHOAL_NO_FRAME;
  shoal_peer_frame(m->peers[0], &a);
  shoal_peer_frame(m->peers[1], &b);
  return a < b ? a : b;
}

#endif
