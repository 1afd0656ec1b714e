/* Two peers over real ENet sockets on 127.0.0.1, both bound to port 0: the joiner reads the
 * host's actual port from its address. They reach the match, see each other, agree on who
 * owns the balls, and the host notices when the other leaves. Wall time is real here, so
 * every loop is bounded both in iterations and by a deadline (10 s in all). */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#include <time.h>

#include "check.h"

#define DEADLINE_S 10.0
#define MAX_ROUNDS 20000

static double seconds_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static shoal_world* two_balls(void) {
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
static int connected_and_agreed(shoal_peer* const peers[2]) {
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

int main(void) {
  const double deadline = seconds_now() + DEADLINE_S;
  shoal_world* worlds[2] = {NULL, NULL};
  shoal_peer* peers[2] = {NULL, NULL};
  shoal_enet_config enet;
  shoal_peer_config config;
  shoal_address host;
  shoal_event event;
  int round, p, left = 0;
  uint16_t id = SHOAL_NO_PEER;

  REQUIRE_OK(shoal_enet_config_default(&enet));
  CHECK(strcmp(enet.bind_host, "127.0.0.1") == 0);
  enet.port = 0;
  enet.timeout_ms = 2000;
  REQUIRE_OK(shoal_peer_config_default(&config));
  for (p = 0; p < 2; ++p) {
    shoal_transport* transport = NULL;
    worlds[p] = two_balls();
    REQUIRE(worlds[p] != NULL);
    REQUIRE_OK(shoal_transport_create_enet(&enet, &transport));
    REQUIRE_OK(shoal_peer_create_with_world(&config, worlds[p], transport, &peers[p]));
    REQUIRE_OK(shoal_peer_set_controlled(peers[p], (uint32_t)(p + 1)));
  }
  {
    shoal_conditioner none;  /* a perfect link, set at run time through the peer */
    memset(&none, 0, sizeof none);
    REQUIRE_OK(shoal_link_conditions_default(&none.outbound));
    REQUIRE_OK(shoal_link_conditions_default(&none.inbound));
    none.seed = 1;
    REQUIRE_OK(shoal_peer_set_conditions(peers[0], &none));
  }

  REQUIRE_OK(shoal_peer_host(peers[0]));
  REQUIRE_OK(shoal_peer_address(peers[0], &host));
  CHECK(strcmp(host.host, "127.0.0.1") == 0);
  REQUIRE(host.port != 0);
  REQUIRE_OK(shoal_peer_join(peers[1], "127.0.0.1", host.port));

  for (round = 0; round < MAX_ROUNDS && seconds_now() < deadline && !connected_and_agreed(peers); ++round) {
    for (p = 0; p < 2; ++p) {
      REQUIRE_OK(shoal_peer_update(peers[p]));
      while (shoal_peer_poll_event(peers[p], &event) == 1) {}
    }
    REQUIRE_OK(shoal_peer_wait(peers[0], 1));  /* pacing only: the loop checks the state itself */
  }
  REQUIRE(connected_and_agreed(peers));
  REQUIRE_OK(shoal_peer_id(peers[1], &id));
  CHECK(id == 1);
  {
    shoal_stats stats;
    shoal_remote_stats remote;
    REQUIRE_OK(shoal_peer_stats(peers[1], &stats));
    CHECK(stats.remote_count == 1);
    CHECK(stats.frame >= 0);
    REQUIRE_OK(shoal_peer_remote_stats(peers[1], 0, &remote));
    CHECK(remote.peer == 0);
  }

  /* A graceful goodbye: the host reports the other peer gone, well before any timeout. */
  REQUIRE_OK(shoal_peer_leave(peers[1]));
  for (round = 0; round < MAX_ROUNDS && seconds_now() < deadline && !left; ++round) {
    REQUIRE_OK(shoal_peer_update(peers[0]));
    while (shoal_peer_poll_event(peers[0], &event) == 1) {
      left += event.kind == SHOAL_EVENT_PEER_LEFT && event.peer == 1;
    }
    REQUIRE_OK(shoal_peer_wait(peers[0], 1));
  }
  CHECK(left == 1);

  for (p = 0; p < 2; ++p) {
    REQUIRE_OK(shoal_peer_destroy(peers[p]));
    REQUIRE_OK(shoal_world_destroy(worlds[p]));
  }
  return check_exit_status();
}
