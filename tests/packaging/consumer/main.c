/* SPDX-License-Identifier: MIT */
/* A C game in miniature, built against an installed Shoal through shoal.h only: the
 * reference physics, a peer on a real ENet transport, hosting a match for a few frames. */
#include <shoal/shoal.h>
#include <stdio.h>
#include <string.h>

int main(void) {
  shoal_world_config world_config;
  shoal_world* world = NULL;
  shoal_object_state start;
  shoal_enet_config enet;
  shoal_authority* authority = NULL;
  shoal_transport* udp = NULL;
  shoal_peer_config config;
  shoal_peer* peer = NULL;
  shoal_object_state ball;
  int32_t frame = SHOAL_NO_FRAME;
  int64_t now_us = 0;
  int i;

  if (shoal_world_config_default(&world_config) != SHOAL_OK ||
      shoal_world_create(&world_config, &world) != SHOAL_OK ||
      shoal_object_state_default(&start) != SHOAL_OK) {
    fprintf(stderr, "c consumer: %s\n", shoal_last_error());
    return 1;
  }
  start.position.y = 2.0f;
  if (shoal_world_add_sphere(world, 1, 0.5f, 1.0f, &start) != SHOAL_OK ||
      shoal_enet_config_default(&enet) != SHOAL_OK ||  /* 127.0.0.1, any free port */
      shoal_authority_create("consumer", &authority) != SHOAL_OK ||
      shoal_authority_invite(authority, 3600, enet.credentials) != SHOAL_OK ||  /* secured, the default */
      shoal_transport_create_enet(&enet, &udp) != SHOAL_OK ||
      shoal_peer_config_default(&config) != SHOAL_OK ||
      shoal_peer_create_with_world(&config, world, udp, &peer) != SHOAL_OK ||
      shoal_peer_set_controlled(peer, 1) != SHOAL_OK || shoal_peer_host(peer) != SHOAL_OK) {
    fprintf(stderr, "c consumer: %s\n", shoal_last_error());
    return 1;
  }
  for (i = 0; i < 30; ++i) {
    now_us += 16667;
    if (shoal_peer_update_at(peer, now_us) != SHOAL_OK) return 1;
  }
  if (shoal_peer_frame(peer, &frame) != SHOAL_OK || shoal_peer_state(peer, 1, &ball) != SHOAL_OK ||
      frame < 25 || !(ball.position.y < 2.0f)) {
    fprintf(stderr, "c consumer: unexpected: frame %d, ball at y=%f\n", (int)frame, (double)ball.position.y);
    return 1;
  }
  printf("c consumer: hosted a match, frame %d, ball falling at y=%.3f\n", (int)frame, (double)ball.position.y);
  shoal_peer_destroy(peer);
  shoal_world_destroy(world);
  shoal_authority_destroy(authority);
  return 0;
}
