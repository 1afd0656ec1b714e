/* SPDX-License-Identifier: MIT */
/* Two peers over real ENet sockets on 127.0.0.1, both bound to port 0: the joiner reads the
 * host's actual port from its address. They reach the match, see each other, agree on who
 * owns the balls, and the host notices when the other leaves. Wall time is real here, so
 * every loop is bounded both in iterations and by a deadline (10 s in all). */
#include "loopback_match.h"

#define DEADLINE_S 10.0
#define MAX_ROUNDS 20000

int main(void) {
  const double deadline = seconds_now() + DEADLINE_S;
  shoal_world* worlds[2] = {NULL, NULL};
  shoal_peer* peers[2] = {NULL, NULL};
  shoal_enet_config enet;
  shoal_address host;
  shoal_event event;
  int round, p, left = 0;
  uint16_t id = SHOAL_NO_PEER;

  REQUIRE_OK(shoal_enet_config_default(&enet));
  CHECK(strcmp(enet.bind_host, "127.0.0.1") == 0);
  REQUIRE_OK(enet_ball_peers(worlds, peers));
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
    REQUIRE(update_both(peers));
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
