/* SPDX-License-Identifier: MIT */
/* What the C tests over real sockets share: wall time (they bound every loop by a deadline as
 * well as a round count), a world of two balls, ids 1 and 2, one per peer, and the peers'
 * setup and match loop. */
#ifndef SHOAL_TESTS_BINDINGS_LOOPBACK_MATCH_H
#define SHOAL_TESTS_BINDINGS_LOOPBACK_MATCH_H

#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#include <time.h>

#include "check.h"

static inline double seconds_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static inline shoal_world* two_balls(void) {
  shoal_world_config config;
  shoal_object_state state;
  shoal_world* world = NULL;
  shoal_world_config_default(&config);
  shoal_object_state_default(&state);
  if (shoal_world_create(&config, &world) != SHOAL_OK) return NULL;
  state.position.y = 0.5f;
  state.position.x = -2;
  shoal_world_add_sphere(world, 1, 0.5f, 2.0f, &state);
  state.position.x = 2;
  shoal_world_add_sphere(world, 2, 0.5f, 2.0f, &state);
  return world;
}

/* Peer p (0 or 1) of a two-ball match: its own world in *out_world, the default peer config
 * on `transport` (which the peer takes, even on failure), driving ball p + 1. A status. */
static inline int ball_peer(int p, shoal_transport* transport, shoal_world** out_world,
                            shoal_peer** out_peer) {
  shoal_peer_config config;
  int status;
  *out_peer = NULL;
  *out_world = two_balls();
  if (*out_world == NULL) {
    shoal_transport_destroy(transport);
    return SHOAL_ERROR_INTERNAL;
  }
  shoal_peer_config_default(&config);
  status = shoal_peer_create_with_world(&config, *out_world, transport, out_peer);
  return status != SHOAL_OK ? status : shoal_peer_set_controlled(*out_peer, (uint32_t)(p + 1));
}

/* The two peers of a match over ENet on the default bind host (127.0.0.1), each on a free
 * port and timing out after 2 s of silence, their links secured with credentials of one
 * authority. A status. */
static inline int enet_ball_peers(shoal_world* worlds[2], shoal_peer* peers[2]) {
  shoal_enet_config enet;
  shoal_authority* authority = NULL;
  int p, status = shoal_enet_config_default(&enet);
  enet.port = 0;
  enet.timeout_ms = 2000;
  if (status == SHOAL_OK) status = shoal_authority_create("c-api-match", &authority);
  for (p = 0; p < 2 && status == SHOAL_OK; ++p) {
    shoal_transport* transport = NULL;
    status = shoal_authority_invite(authority, 3600, enet.credentials);  /* secured when made */
    if (status == SHOAL_OK) status = shoal_transport_create_enet(&enet, &transport);
    if (status == SHOAL_OK) {
      status = ball_peer(p, transport, &worlds[p], &peers[p]);
    } else {
      shoal_transport_destroy(transport);
    }
  }
  shoal_authority_destroy(authority);
  return status;
}

/* One round of a match loop: both peers update and drop their events, then a wait of 1 ms
 * at most (pacing only: the loops check the state themselves). 0 when a call failed. */
static inline int update_both(shoal_peer* const peers[2]) {
  shoal_event event;
  int p;
  for (p = 0; p < 2; ++p) {
    if (shoal_peer_update(peers[p]) != SHOAL_OK) return 0;
    while (shoal_peer_poll_event(peers[p], &event) == 1) {}
  }
  return shoal_peer_wait(peers[0], 1) == SHOAL_OK;
}

/* Both in the match, each listing both peers (ids 0 and 1), and naming the same owner for
 * each ball, the peer that drives it. */
static inline int connected_and_agreed(shoal_peer* const peers[2]) {
  int p;
  for (p = 0; p < 2; ++p) {
    int32_t in_match = 0;
    uint16_t ids[4] = {0, 0, 0, 0};
    uint32_t count = 0;
    uint16_t owner_1 = SHOAL_NO_PEER, owner_2 = SHOAL_NO_PEER;
    if (shoal_peer_in_match(peers[p], &in_match) != SHOAL_OK || !in_match) return 0;
    if (shoal_peer_peers(peers[p], ids, 4, &count) != SHOAL_OK || count != 2) return 0;
    if (ids[0] != 0 || ids[1] != 1) return 0;
    if (shoal_peer_owner(peers[p], 1, &owner_1) != SHOAL_OK || owner_1 != 0) return 0;
    if (shoal_peer_owner(peers[p], 2, &owner_2) != SHOAL_OK || owner_2 != 1) return 0;
  }
  return 1;
}

#endif
