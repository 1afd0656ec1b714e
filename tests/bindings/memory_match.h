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

/* The newest frame both peers hold: where their histories can be compared. */
static inline int32_t memory_match_common_frame(const memory_match* m) {
  int32_t a = SHOAL_NO_FRAME, b = SHOAL_NO_FRAME;
  shoal_peer_frame(m->peers[0], &a);
  shoal_peer_frame(m->peers[1], &b);
  return a < b ? a : b;
}

#endif
