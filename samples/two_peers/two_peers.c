/* SPDX-License-Identifier: MIT */
/* shoal-two-peers-c: two_peers.cpp's game in C11 over shoal.h, with the same world and defaults,
 * so a C peer and a C++ peer play together:
 *   machine A (say 192.168.1.20):  shoal-two-peers-c host 40000 invitation.txt
 *   machine B, given that file:    shoal-two-peers-c join 192.168.1.20:40000 invitation.txt
 * Arrow keys in a window (SDL2); with --no-window, or no display, the ball circles for --seconds
 * (10) and the program exits 0 if the other player's ball moved here. */
#define SDL_MAIN_HANDLED
#include <SDL.h>
#include <math.h>
#include <shoal/shoal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void fail(const char* what, const char* why) {
  fprintf(stderr, "shoal-two-peers-c: %s: %s\n", what, why);
  exit(2);
}
static void check(int status, const char* what) { /* every call returns a status, < 0 a failure */
  if (status < 0) fail(what, shoal_last_error());
}

static void draw(SDL_Renderer* renderer, shoal_peer* peer) { /* from above, 20 pixels a metre */
  static const uint32_t bodies[] = {1, 2, 100, 101, 102, 103, 104};
  uint16_t self, owner;
  shoal_visual_state v;
  check(shoal_peer_id(peer, &self), "id");
  SDL_SetRenderDrawColor(renderer, 20, 24, 32, 255);
  SDL_RenderClear(renderer);
  for (size_t i = 0; i < sizeof bodies / sizeof bodies[0]; ++i) {
    check(shoal_peer_visual(peer, bodies[i], &v), "visual");
    check(shoal_peer_owner(peer, bodies[i], &owner), "owner"); /* green: simulated and sent by you */
    SDL_SetRenderDrawColor(renderer, owner == self ? 80 : 240, owner == self ? 220 : 140, 90, 255);
    SDL_Rect square = {(int)(400 + 20 * v.position.x) - 9, (int)(300 + 20 * v.position.z) - 9, 18, 18};
    SDL_RenderFillRect(renderer, &square);
  }
  SDL_RenderPresent(renderer);
}

static int open_display(void) { /* SDL's video, unless all it has is an offscreen or dummy one */
  SDL_SetHint(SDL_HINT_NO_SIGNAL_HANDLERS, "1"); /* Ctrl-C ends the program, as without SDL */
  if (SDL_Init(SDL_INIT_VIDEO) != 0) return 0;
  const char* driver = SDL_GetCurrentVideoDriver();
  if (strcmp(driver, "offscreen") != 0 && strcmp(driver, "dummy") != 0) return 1;
  SDL_Quit();
  return 0;
}

/* The world of two_peers.cpp: the host's ball, the joiner's, a row of crates between. */
static shoal_world* build_world(void) {
  shoal_world_config wc;
  shoal_world* world;
  shoal_object_state s;
  check(shoal_world_config_default(&wc), "world config");
  check(shoal_world_create(&wc, &world), "world");
  check(shoal_object_state_default(&s), "state");
  s.position.x = -4, s.position.y = 0.5f;
  check(shoal_world_add_sphere(world, 1, 0.5f, 2.0f, &s), "ball");
  s.position.x = 4;
  check(shoal_world_add_sphere(world, 2, 0.5f, 2.0f, &s), "ball");
  for (uint32_t crate = 0; crate < 5; ++crate) {
    s.position.x = 0, s.position.y = 0.4f, s.position.z = 2.0f * (float)crate - 4;
    check(shoal_world_add_box(world, 100 + crate, 0.4f, 0.4f, 0.4f, 1.0f, &s), "crate");
  }
  return world;
}

int main(int argc, char** argv) {
  int hosting = argc >= 4 && strcmp(argv[1], "host") == 0, windowed = 1;
  double seconds = 10, t = 0;
  if (argc == 2 && strcmp(argv[1], "--version") == 0) { /* the C API has no relay version to print */
    return printf("shoal-two-peers-c %s (wire %d)\n", shoal_version(), shoal_wire_version()) < 0;
  }
  if (argc < 4 || (!hosting && strcmp(argv[1], "join") != 0)) {
    fail("usage", "shoal-two-peers-c host PORT FILE | join HOST:PORT FILE  [--no-window] [--seconds S]");
  }
  for (int i = 4; i < argc; ++i) {
    if (strcmp(argv[i], "--no-window") == 0) windowed = 0;
    if (strcmp(argv[i], "--seconds") == 0 && i + 1 < argc) seconds = atof(argv[i + 1]);
  }
  setvbuf(stdout, NULL, _IOLBF, 0); /* a line at a time, also into a file */
  char credentials[SHOAL_CREDENTIALS_CAPACITY] = "", invitation[SHOAL_CREDENTIALS_CAPACITY] = "";
  shoal_enet_config ec;
  check(shoal_enet_config_default(&ec), "transport config");
  strcpy(ec.bind_host, "0.0.0.0"); /* every interface: the default, 127.0.0.1, is this machine only */
  if (hosting) {
    shoal_authority* authority; /* signs who may join this session */
    ec.port = (uint16_t)atoi(argv[2]);
    check(shoal_authority_create("two-peers", &authority), "authority");
    check(shoal_authority_invite(authority, 12 * 3600, credentials), "invite"); /* the host's own */
    check(shoal_authority_invite(authority, 12 * 3600, invitation), "invite"); /* the joiner's */
    shoal_authority_destroy(authority);
  } else {
    FILE* file = fopen(argv[3], "r");
    if (!file || !fgets(credentials, sizeof credentials, file)) fail(argv[3], "no invitation: expected the file the host wrote");
    fclose(file);
    credentials[strcspn(credentials, "\n")] = '\0';
  }
  shoal_world* world = build_world(); /* the same world, built the same way, on every peer */
  shoal_transport* udp;
  shoal_peer_config pc;
  shoal_peer* peer;
  check(shoal_peer_config_default(&pc), "peer config");
  strcpy(ec.credentials, credentials); /* links secured with them: refused without */
  check(shoal_transport_create_enet(&ec, &udp), "transport");
  check(shoal_peer_create_with_world(&pc, world, udp, &peer), "peer");
  if (hosting) {
    FILE* file = fopen(argv[3], "w"); /* give this file to the joiner, privately */
    shoal_address address;
    check(shoal_peer_host(peer), "host");
    if (!file || fprintf(file, "%s\n", invitation) < 0 || fclose(file) != 0) fail(argv[3], "cannot write the invitation");
    check(shoal_peer_address(peer, &address), "address");
    printf("hosting on port %d; %s invites the joiner\n", address.port, argv[3]);
  } else {
    char* colon = strrchr(argv[2], ':');
    if (!colon) fail(argv[2], "expected HOST:PORT");
    *colon = '\0';
    check(shoal_peer_join(peer, argv[2], (uint16_t)atoi(colon + 1)), "join");
  }
  uint32_t theirs = hosting ? 2 : 1;
  check(shoal_peer_set_controlled(peer, hosting ? 1 : 2), "controlled");
  SDL_Window* window = windowed && open_display() ? SDL_CreateWindow("shoal-two-peers-c",
      SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, 800, 600, 0) : NULL;
  SDL_Renderer* renderer = window ? SDL_CreateRenderer(window, -1, SDL_RENDERER_PRESENTVSYNC) : NULL;
  if (windowed && !renderer) printf("no display: running without a window for %g s\n", seconds);
  float moved = 0; /* how far the other player's ball got from where it started, as seen here */
  for (Uint64 start = SDL_GetTicks64(); renderer ? !SDL_QuitRequested() : t < seconds;) {
    shoal_input input = {{0, 0, 0}, 0};
    shoal_object_state s;
    int32_t in_match = 0;
    t = (double)(SDL_GetTicks64() - start) / 1000.0;
    if (renderer) { /* the arrow keys push your ball */
      const Uint8* key = SDL_GetKeyboardState(NULL);
      input.axis.x = (float)(key[SDL_SCANCODE_RIGHT] - key[SDL_SCANCODE_LEFT]);
      input.axis.z = (float)(key[SDL_SCANCODE_DOWN] - key[SDL_SCANCODE_UP]);
    } else { /* your ball circles by itself */
      input.axis.x = (float)cos(t), input.axis.z = (float)sin(t);
      check(shoal_peer_wait(peer, 5), "wait"); /* no vsync to pace the loop: wait for traffic, 5 ms at most */
    }
    check(shoal_peer_set_input(peer, &input), "input");
    check(shoal_peer_update(peer), "update"); /* receive, correct, step the frames due, send */
    for (shoal_event e; shoal_peer_poll_event(peer, &e) > 0;) {
      if (e.kind == SHOAL_EVENT_JOINED_MATCH) printf("joined the match as peer %d\n", e.peer);
      if (e.kind == SHOAL_EVENT_PEER_JOINED) printf("peer %d joined\n", e.peer);
      if (e.kind == SHOAL_EVENT_PEER_LEFT) printf("peer %d left\n", e.peer);
      if (e.kind == SHOAL_EVENT_JOIN_FAILED) fail("could not join", shoal_peer_event_reason(peer));
    }
    check(shoal_peer_in_match(peer, &in_match), "in match");
    if (!in_match) continue;
    check(shoal_peer_state(peer, theirs, &s), "state");
    moved = fmaxf(moved, hypotf(s.position.x - (hosting ? 4.0f : -4.0f), s.position.z));
    if (renderer) draw(renderer, peer);
  }
  int32_t frame = SHOAL_NO_FRAME;
  check(shoal_peer_frame(peer, &frame), "frame");
  printf("the other player's ball moved up to %.1f m here; frame %d\n", (double)moved, frame);
  shoal_peer_leave(peer);
  shoal_peer_destroy(peer);
  shoal_world_destroy(world);
  if (window) SDL_Quit();
  return moved > 1 ? 0 : 1;
}
