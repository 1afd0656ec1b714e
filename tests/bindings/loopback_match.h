/* What the C tests over real sockets share: wall time (they bound every loop by a deadline as
 * well as a round count) and a world of two balls, ids 1 and 2, one per peer. */
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
