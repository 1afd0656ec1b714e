/* SPDX-License-Identifier: MIT */
/* A game's own transport written in C (shoal_transport_callbacks): a small in-process network
 * of two endpoints whose unreliable channels lose 10% of the messages (seeded), the control
 * channel none. Two reference-physics peers play a match over it and end bit for bit the same;
 * the adapter drops an event its poll gets wrong, counted; each transport's destroy runs once;
 * a missing callback is refused by name. */
#include "loopback_match.h"  /* first: it sets _POSIX_C_SOURCE */

#include <stdlib.h>

#define QUEUE 512          /* messages waiting per endpoint */
#define MESSAGE_BYTES 1400 /* the largest message this network carries */
#define RENDER_US 16667

typedef struct c_message {
  int32_t kind;
  int32_t channel;
  uint32_t size;
  uint8_t bytes[MESSAGE_BYTES];
} c_message;

typedef struct c_endpoint {
  struct c_network* network;
  int index;                 /* 0 or 1; its port is index + 1, its connection to the other is other + 1 */
  c_message queue[QUEUE];    /* ring: what arrived for it */
  uint32_t head, count;
  c_message polled;          /* the message poll handed out, valid until the next poll */
  int destroyed;             /* how often destroy ran */
  int inject_bad_event;      /* the next poll reports an event with an unknown channel */
} c_endpoint;

typedef struct c_network {
  c_endpoint endpoints[2];
  uint64_t rng;
  uint64_t lost;
} c_network;

/* xorshift64: the same losses on every run. */
static double next_random(c_network* n) {
  n->rng ^= n->rng << 13;
  n->rng ^= n->rng >> 7;
  n->rng ^= n->rng << 17;
  return (double)(n->rng >> 11) / 9007199254740992.0;
}

static void deliver(c_endpoint* to, int32_t kind, int32_t channel, const uint8_t* bytes, uint32_t size) {
  c_message* m;
  if (to->count == QUEUE) return;  /* full: lost, as a real network would */
  m = &to->queue[(to->head + to->count++) % QUEUE];
  m->kind = kind;
  m->channel = channel;
  m->size = size;
  if (size > 0) memcpy(m->bytes, bytes, size);
}

static c_endpoint* other_of(c_endpoint* e) { return &e->network->endpoints[1 - e->index]; }

static uint32_t net_connect(void* user, const shoal_address* remote) {
  c_endpoint* e = user;
  if (strcmp(remote->host, "cnet") != 0 || remote->port != (uint16_t)(2 - e->index)) return 0;
  deliver(e, SHOAL_TRANSPORT_CONNECTED, 0, NULL, 0);
  deliver(other_of(e), SHOAL_TRANSPORT_CONNECTED, 0, NULL, 0);
  return (uint32_t)(2 - e->index);
}

static void net_disconnect(void* user, uint32_t connection) {
  c_endpoint* e = user;
  (void)connection;
  deliver(e, SHOAL_TRANSPORT_DISCONNECTED, 0, NULL, 0);
  deliver(other_of(e), SHOAL_TRANSPORT_DISCONNECTED, 0, NULL, 0);
}

static int32_t net_send(void* user, uint32_t connection, int32_t channel, const uint8_t* bytes, uint32_t size) {
  c_endpoint* e = user;
  if (connection != (uint32_t)(2 - e->index) || size > MESSAGE_BYTES) return 0;
  if (channel != SHOAL_CHANNEL_CONTROL && next_random(e->network) < 0.10) {
    ++e->network->lost;  /* the unreliable channels lose, the control channel never */
    return 1;
  }
  deliver(other_of(e), SHOAL_TRANSPORT_MESSAGE, channel, bytes, size);
  return 1;
}

static int32_t net_poll(void* user, int64_t now_us, shoal_transport_event* out) {
  c_endpoint* e = user;
  (void)now_us;
  if (e->inject_bad_event) {
    e->inject_bad_event = 0;
    out->kind = SHOAL_TRANSPORT_MESSAGE;
    out->connection = (uint32_t)(2 - e->index);
    out->channel = 7;  /* no such channel */
    out->payload = e->polled.bytes;
    out->size = 1;
    return 1;
  }
  if (e->count == 0) return 0;
  e->polled = e->queue[e->head];
  e->head = (e->head + 1) % QUEUE;
  --e->count;
  out->kind = e->polled.kind;
  out->connection = (uint32_t)(2 - e->index);
  out->channel = e->polled.channel;
  out->payload = e->polled.bytes;
  out->size = e->polled.size;
  return 1;
}

static void net_wait(void* user, int32_t timeout_ms) {
  (void)user;
  (void)timeout_ms;  /* everything is delivered at once */
}

static void net_local_address(void* user, shoal_address* out) {
  const c_endpoint* e = user;
  strcpy(out->host, "cnet");
  out->port = (uint16_t)(e->index + 1);
}

static void net_remote_address(void* user, uint32_t connection, shoal_address* out) {
  (void)user;
  strcpy(out->host, "cnet");
  out->port = (uint16_t)connection;
}

static uint32_t net_max_message_size(void* user) {
  (void)user;
  return MESSAGE_BYTES;
}

static void net_destroy(void* user) { ++((c_endpoint*)user)->destroyed; }

static shoal_transport_callbacks callbacks_of(c_endpoint* e) {
  shoal_transport_callbacks c;
  memset(&c, 0, sizeof c);
  c.struct_size = sizeof c;
  c.user = e;
  c.connect = net_connect;
  c.disconnect = net_disconnect;
  c.send = net_send;
  c.poll = net_poll;
  c.wait = net_wait;
  c.local_address = net_local_address;
  c.remote_address = net_remote_address;
  c.max_message_size = net_max_message_size;
  c.destroy = net_destroy;
  return c;
}

static int update_at(shoal_peer* const peers[2], int64_t now_us) {
  shoal_event event;
  int p;
  for (p = 0; p < 2; ++p) {
    if (shoal_peer_update_at(peers[p], now_us) != SHOAL_OK) return 0;
    while (shoal_peer_poll_event(peers[p], &event) == 1) {}
  }
  return 1;
}

int main(void) {
  c_network* network = calloc(1, sizeof(c_network));
  shoal_world* worlds[2] = {NULL, NULL};
  shoal_peer* peers[2] = {NULL, NULL};
  shoal_transport* refused = (shoal_transport*)network;  /* must be reset to NULL */
  shoal_transport_callbacks missing;
  int64_t now_us = 1000000;
  int frame, p;
  REQUIRE(network != NULL);
  network->rng = 0x9E3779B97F4A7C15ull;
  for (p = 0; p < 2; ++p) {
    network->endpoints[p].network = network;
    network->endpoints[p].index = p;
  }

  /* A table without poll is refused, by name, and its destroy is not called. */
  missing = callbacks_of(&network->endpoints[0]);
  missing.poll = NULL;
  CHECK(shoal_transport_create_custom(&missing, &refused) == SHOAL_ERROR_INVALID_ARGUMENT && refused == NULL);
  CHECK(strstr(shoal_last_error(), "shoal_transport_callbacks.poll") != NULL);
  CHECK(network->endpoints[0].destroyed == 0);

  for (p = 0; p < 2; ++p) {
    shoal_transport* transport = NULL;
    const shoal_transport_callbacks c = callbacks_of(&network->endpoints[p]);
    REQUIRE_OK(shoal_transport_create_custom(&c, &transport));
    REQUIRE_OK(ball_peer(p, transport, &worlds[p], &peers[p]));
  }
  REQUIRE_OK(shoal_peer_host(peers[0]));
  REQUIRE_OK(shoal_peer_join(peers[1], "cnet", 1));
  for (frame = 0; frame < 600 && !connected_and_agreed(peers); ++frame) REQUIRE(update_at(peers, now_us += RENDER_US));
  REQUIRE(connected_and_agreed(peers));

  /* An event the game's poll gets wrong is dropped and counted, and the match goes on. */
  network->endpoints[1].inject_bad_event = 1;
  /* 4 s of pushing the balls into each other, then 10 s without input. */
  for (frame = 0; frame < 840; ++frame) {
    for (p = 0; p < 2; ++p) {
      shoal_input input = {{0, 0, 0}, 0};
      input.axis.x = frame < 240 ? (p == 0 ? 1.0f : -1.0f) : 0.0f;
      REQUIRE_OK(shoal_peer_set_input(peers[p], &input));
    }
    REQUIRE(update_at(peers, now_us += RENDER_US));
  }
  CHECK(network->lost > 20);  /* the loss was real */
  {
    shoal_stats stats[2];
    int32_t frames[2], common;
    uint32_t object;
    for (p = 0; p < 2; ++p) {
      REQUIRE_OK(shoal_peer_stats(peers[p], &stats[p]));
      REQUIRE_OK(shoal_peer_frame(peers[p], &frames[p]));
      CHECK(stats[p].snapshots_received > 50 && stats[p].desyncs == 0);
    }
    CHECK(stats[1].dropped_packets >= 1);  /* the bad event */
    common = frames[0] < frames[1] ? frames[0] : frames[1];
    for (object = 1; object <= 2; ++object) {
      shoal_object_state a, b;
      REQUIRE_OK(shoal_peer_state_at(peers[0], object, common, &a));
      REQUIRE_OK(shoal_peer_state_at(peers[1], object, common, &b));
      CHECK(memcmp(&a, &b, sizeof a) == 0);  /* bit for bit */
      CHECK(a.position.x != (object == 1 ? -2.0f : 2.0f));  /* the balls did move */
    }
  }
  for (p = 0; p < 2; ++p) {
    REQUIRE_OK(shoal_peer_destroy(peers[p]));
    CHECK(network->endpoints[p].destroyed == 1);  /* with its peer, once */
    REQUIRE_OK(shoal_world_destroy(worlds[p]));
  }
  free(network);
  return check_exit_status();
}
