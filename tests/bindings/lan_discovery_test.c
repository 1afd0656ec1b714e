/* SPDX-License-Identifier: MIT */
/* LAN discovery from C on loopback: a host announces the address shoal_peer_address() gives
 * it; a seeker looking for another session name hears those announcements, counts them as
 * other sessions and finds nothing; looking for the host's name it finds the host's port, and
 * a second peer joins there and reaches the match. Session names carry the process id, so runs
 * of this test in several build trees at once do not find each other. Wall time is real, so
 * every loop is bounded both in rounds and by a deadline (10 s in all). */
#include "loopback_match.h"

#include <unistd.h> /* getpid */

#define DEADLINE_S 10.0
#define MAX_ROUNDS 20000
#define DISCOVERY_PORT 47490 /* no other test announces on it */

int main(void) {
  const double deadline = seconds_now() + DEADLINE_S;
  shoal_world* worlds[2] = {NULL, NULL};
  shoal_peer* peers[2] = {NULL, NULL};
  shoal_lan_announcer* announcer = NULL;
  shoal_lan_seeker* seeker = NULL;
  shoal_lan_config lan;
  shoal_lan_session found;
  shoal_lan_stats seeker_stats, announcer_stats;
  shoal_address host;
  char session[SHOAL_LAN_SESSION_CAPACITY], absent[SHOAL_LAN_SESSION_CAPACITY];
  int32_t is_found = 0, absent_found = 0;
  int round, p;

  snprintf(session, sizeof session, "c-lan-%ld", (long)getpid());
  snprintf(absent, sizeof absent, "c-lan-absent-%ld", (long)getpid());

  /* Two ENet peers on 127.0.0.1, each on a free port; the first hosts. */
  REQUIRE_OK(enet_ball_peers(worlds, peers));
  REQUIRE_OK(shoal_peer_host(peers[0]));
  REQUIRE_OK(shoal_peer_address(peers[0], &host));
  REQUIRE(host.port != 0);

  REQUIRE_OK(shoal_lan_config_default(&lan));
  lan.port = DISCOVERY_PORT;
  lan.announce_interval_ms = 20;
  lan.loopback_only = 1;  /* nothing leaves the machine */
  REQUIRE_OK(shoal_lan_seeker_create(&lan, &seeker));
  REQUIRE_OK(shoal_lan_announcer_create(&lan, session, &host, &announcer));

  /* Looking for another name while the host announces three times or more: its announcements
   * arrive, and none of them is taken. (Another run of this test at the same time adds its
   * own announcements, of another session too.) */
  memset(&found, 0xFF, sizeof found);  /* every call below must overwrite it */
  REQUIRE_OK(shoal_lan_seeker_stats(seeker, &seeker_stats));
  REQUIRE_OK(shoal_lan_announcer_stats(announcer, &announcer_stats));
  for (round = 0; round < MAX_ROUNDS && seconds_now() < deadline &&
                  (seeker_stats.other_sessions < 3 || announcer_stats.sent < 3);
       ++round) {
    REQUIRE_OK(shoal_lan_announcer_update(announcer));
    REQUIRE_OK(shoal_peer_update(peers[0]));
    /* Waits longer than the announce interval: each round then hears the last one. */
    REQUIRE_OK(shoal_lan_seeker_find(seeker, absent, 25, &found, &is_found));
    absent_found += is_found;
    REQUIRE_OK(shoal_lan_seeker_stats(seeker, &seeker_stats));
    REQUIRE_OK(shoal_lan_announcer_stats(announcer, &announcer_stats));
  }
  CHECK(absent_found == 0);
  CHECK(found.session[0] == '\0' && found.address.port == 0);  /* not found: zeroed */
  CHECK(seeker_stats.other_sessions >= 3);
  CHECK(seeker_stats.received >= seeker_stats.other_sessions);
  CHECK(announcer_stats.sent >= 3);

  /* Looking for the host's name: found, at the host's address. */
  is_found = 0;
  for (round = 0; round < MAX_ROUNDS && seconds_now() < deadline && !is_found; ++round) {
    REQUIRE_OK(shoal_lan_announcer_update(announcer));
    REQUIRE_OK(shoal_peer_update(peers[0]));
    REQUIRE_OK(shoal_lan_seeker_poll(seeker, session, &found, &is_found));
    if (!is_found) REQUIRE_OK(shoal_peer_wait(peers[0], 1));  /* pacing only */
  }
  REQUIRE(is_found == 1);
  CHECK(strcmp(found.session, session) == 0);
  CHECK(strcmp(found.address.host, host.host) == 0);
  CHECK(found.address.port == host.port);
  CHECK(found.protocol_version != 0);

  /* The second peer joins where the announcement said; the host keeps announcing meanwhile. */
  REQUIRE_OK(shoal_peer_join(peers[1], found.address.host, found.address.port));
  for (round = 0; round < MAX_ROUNDS && seconds_now() < deadline && !connected_and_agreed(peers); ++round) {
    REQUIRE_OK(shoal_lan_announcer_update(announcer));
    REQUIRE(update_both(peers));
  }
  CHECK(connected_and_agreed(peers));

  REQUIRE_OK(shoal_lan_announcer_destroy(announcer));
  REQUIRE_OK(shoal_lan_seeker_destroy(seeker));
  for (p = 0; p < 2; ++p) {
    REQUIRE_OK(shoal_peer_destroy(peers[p]));
    REQUIRE_OK(shoal_world_destroy(worlds[p]));
  }
  return check_exit_status();
}
