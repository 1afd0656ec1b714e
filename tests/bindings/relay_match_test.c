/* SPDX-License-Identifier: MIT */
/* Two peers through a shoal-relay on loopback (run_with_relay.sh starts it and gives its port
 * in SHOAL_TEST_RELAY_PORT): the host takes the host slot, the joiner joins the virtual
 * address "relay":1, and they reach the match, agree on who owns the balls and play for two
 * seconds; the relay lists their session. Also the configs' errors and the hybrid address.
 * Wall time is real here: every loop is bounded in rounds and by a deadline. */
#include "loopback_match.h"

#include <stdlib.h>

#define DEADLINE_S 20.0
#define PLAY_S 2.0
#define MAX_ROUNDS 40000

int main(void) {
  const char* port_text = getenv("SHOAL_TEST_RELAY_PORT");
  const double deadline = seconds_now() + DEADLINE_S;
  shoal_world* worlds[2] = {NULL, NULL};
  shoal_peer* peers[2] = {NULL, NULL};
  shoal_relay_config relay;
  shoal_authority* authority = NULL;
  shoal_transport* refused = NULL;
  int round, p;
  double play_until;

  REQUIRE(port_text != NULL);  /* run through run_with_relay.sh */
  REQUIRE_OK(shoal_relay_config_default(&relay));
  CHECK(relay.slot == 0 && relay.resume_timeout_ms > 0 && relay.relay_timeout_ms > 0);
  strcpy(relay.relay.host, "127.0.0.1");
  relay.relay.port = (uint16_t)atoi(port_text);
  relay.local.port = 0;
  REQUIRE_OK(shoal_authority_create("c-api-relay", &authority));
  REQUIRE_OK(shoal_authority_invite(authority, 3600, relay.local.credentials));  /* secured, the default */

  /* Neither a session nor a code: refused, saying what is missing. */
  CHECK(shoal_transport_create_relay(&relay, &refused) == SHOAL_ERROR_INVALID_ARGUMENT);
  CHECK(refused == NULL);
  CHECK(strstr(shoal_last_error(), "session") != NULL);
  {
    shoal_address direct, hybrid;
    memset(&direct, 0, sizeof direct);
    strcpy(direct.host, "203.0.113.7");
    direct.port = 40000;
    REQUIRE_OK(shoal_hybrid_address(&direct, SHOAL_RELAY_HOST_SLOT, &hybrid));
    CHECK(strcmp(hybrid.host, "203.0.113.7/1") == 0 && hybrid.port == 40000);
  }
  {
    shoal_hybrid_config hybrid;
    REQUIRE_OK(shoal_hybrid_config_default(&hybrid));
    CHECK(hybrid.direct_timeout_ms > 0 && hybrid.direct_retry_ms > 0);
  }

  strcpy(relay.session, "c-api-relay");
  strcpy(relay.token, "t0k3n");
  for (p = 0; p < 2; ++p) {
    shoal_transport* transport = NULL;
    relay.slot = p == 0 ? SHOAL_RELAY_HOST_SLOT : 0;
    REQUIRE_OK(shoal_authority_invite(authority, 3600, relay.local.credentials));  /* each peer its own */
    REQUIRE_OK(shoal_transport_create_relay(&relay, &transport));
    REQUIRE_OK(ball_peer(p, transport, &worlds[p], &peers[p]));
  }
  REQUIRE_OK(shoal_peer_host(peers[0]));
  REQUIRE_OK(shoal_peer_join(peers[1], SHOAL_RELAY_VIRTUAL_HOST, SHOAL_RELAY_HOST_SLOT));
  for (round = 0; round < MAX_ROUNDS && seconds_now() < deadline && !connected_and_agreed(peers); ++round) {
    REQUIRE(update_both(peers));
  }
  REQUIRE(connected_and_agreed(peers));

  /* The lobby: the relay lists the session with both members, under the code it has anywhere. */
  {
    char code[SHOAL_RELAY_ID_CAPACITY];
    shoal_relay_session listed[4];
    uint32_t count = 0, i, found = 0;
    REQUIRE_OK(shoal_relay_session_code("c-api-relay", code));
    CHECK(strlen(code) == 6);
    REQUIRE_OK(shoal_relay_list_sessions(&relay.relay, 5000, listed, 4, &count));
    for (i = 0; i < count && i < 4; ++i) {
      if (strcmp(listed[i].session, "c-api-relay") != 0) continue;
      ++found;
      CHECK(strcmp(listed[i].code, code) == 0);
      CHECK(listed[i].members == 2);
    }
    CHECK(found == 1);
  }

  /* Two seconds of play: each ball pushed its own way, the match stays whole. */
  play_until = seconds_now() + PLAY_S;
  for (round = 0; round < MAX_ROUNDS && seconds_now() < play_until && seconds_now() < deadline; ++round) {
    for (p = 0; p < 2; ++p) {
      shoal_input input;
      memset(&input, 0, sizeof input);
      input.axis.z = p == 0 ? 1.0f : -1.0f;
      REQUIRE_OK(shoal_peer_set_input(peers[p], &input));
    }
    REQUIRE(update_both(peers));
  }
  CHECK(connected_and_agreed(peers));
  for (p = 0; p < 2; ++p) {
    shoal_stats stats;
    REQUIRE_OK(shoal_peer_stats(peers[p], &stats));
    CHECK(stats.snapshots_received > 30);  /* the other's snapshots came through the relay */
    CHECK(stats.desyncs == 0);
  }

  for (p = 0; p < 2; ++p) {
    REQUIRE_OK(shoal_peer_destroy(peers[p]));
    REQUIRE_OK(shoal_world_destroy(worlds[p]));
  }
  shoal_authority_destroy(authority);
  return check_exit_status();
}
