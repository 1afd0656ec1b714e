/* SPDX-License-Identifier: MIT */
/* Two peers on the in-process network at 5% loss, each on a reference physics world built
 * through the C API: they join, push the boxes around with their balls, and once everything
 * has come to rest they hold the same state, bit for bit, and name the same owners. */
#include "memory_match.h"

#define BOXES 4
#define OBJECTS (2 + BOXES)
#define PLAY_FRAMES 600      /* 10 s of steering */
#define SETTLE_FRAMES 1200   /* at most 20 s to come to rest */
#define REFRESH_FRAMES 180   /* 3 s more, in which owners refresh what others hold frozen */

static const uint32_t object_ids[OBJECTS] = {1, 2, 100, 101, 102, 103};

#define RECORDING "shoal-memory-match-test.shoalrec"  /* in the test's working folder */

static float box_x(int box) { return -2.25f + 1.5f * (float)box; }

/* What both peers reported so far. */
typedef struct event_counts {
  int joined_match[2];
  int peer_joined[2];
  int ownership_changed;
  int desync;
  int unknown_kind;
} event_counts;

static void poll_events(const memory_match* m, event_counts* counts) {
  shoal_event event;
  int p;
  for (p = 0; p < 2; ++p) {
    while (shoal_peer_poll_event(m->peers[p], &event) == 1) {
      counts->joined_match[p] += event.kind == SHOAL_EVENT_JOINED_MATCH;
      counts->peer_joined[p] += event.kind == SHOAL_EVENT_PEER_JOINED && event.peer == 1 - p;
      counts->ownership_changed += event.kind == SHOAL_EVENT_OWNERSHIP_CHANGED;
      counts->desync += event.kind == SHOAL_EVENT_DESYNC;
      counts->unknown_kind += event.kind < SHOAL_EVENT_JOINED_MATCH || event.kind > SHOAL_EVENT_JOIN_FAILED;
    }
  }
}

/* The same world on both peers: a ball at each end of a row of boxes. */
static int build_world(shoal_world** out) {
  shoal_world_config config;
  shoal_object_state state;
  int i;
  REQUIRE_OK(shoal_world_config_default(&config));
  config.arena_half_x = 8;
  config.arena_half_z = 8;
  config.linear_damping = 0.6f;  /* enough that the match settles within seconds */
  config.angular_damping = 0.6f;
  REQUIRE_OK(shoal_world_create(&config, out));
  REQUIRE_OK(shoal_object_state_default(&state));
  state.position.x = -4;
  state.position.y = 0.5f;
  REQUIRE_OK(shoal_world_add_sphere(*out, object_ids[0], 0.5f, 2.0f, &state));
  state.position.x = 4;
  REQUIRE_OK(shoal_world_add_sphere(*out, object_ids[1], 0.5f, 2.0f, &state));
  for (i = 0; i < BOXES; ++i) {
    state.position.x = box_x(i);
    state.position.y = 0.4f;
    state.at_rest = 1;
    REQUIRE_OK(shoal_world_add_box(*out, object_ids[2 + i], 0.4f, 0.4f, 0.4f, 1.0f, &state));
  }
  return 0;
}

/* A push that turns every second, so each ball sweeps through the row of boxes. */
static shoal_input steering(int player, int frame) {
  static const float x[8] = {1, 0.7071f, 0, -0.7071f, -1, -0.7071f, 0, 0.7071f};
  static const float z[8] = {0, 0.7071f, 1, 0.7071f, 0, -0.7071f, -1, -0.7071f};
  const int turn = (frame / 60 + (player == 0 ? 0 : 4)) % 8;
  shoal_input input;
  memset(&input, 0, sizeof input);
  input.axis.x = x[turn];
  input.axis.z = z[turn];
  return input;
}

static int all_at_rest(const memory_match* m) {
  int p, i;
  for (p = 0; p < 2; ++p) {
    for (i = 0; i < OBJECTS; ++i) {
      shoal_object_state state;
      if (shoal_peer_state(m->peers[p], object_ids[i], &state) != SHOAL_OK || !state.at_rest) return 0;
    }
  }
  return 1;
}

/* What the joiner's diagnosis says of an object at `frame`: its state and owner there, as the
 * other calls give them, and owner changes that name the owner it ends with. */
static int check_diagnosis(const shoal_peer* peer, uint32_t object, int32_t frame, const shoal_object_state* state,
                           uint16_t owner) {
  shoal_object_diagnosis d;
  REQUIRE_OK(shoal_peer_diagnose(peer, object, frame, &d));
  CHECK(d.object == object && d.frame == frame);
  CHECK(d.held == 1 && same_state(&d.state, state));
  CHECK(d.owner == owner);
  CHECK(d.ownership_count <= SHOAL_OWNERSHIP_HISTORY);
  /* What another peer owns, its owner has spoken of here. */
  if (owner != 1) CHECK(d.owner_said == 1 && d.last_owner_frame >= 0);
  if (d.ownership_count > 0) CHECK(d.ownership[d.ownership_count - 1].owner == owner);
  /* A frame long gone is no error: nothing is held. */
  REQUIRE_OK(shoal_peer_diagnose(peer, object, 0, &d));
  CHECK(d.held == 0 && d.owner == owner);
  return 0;  /* failed checks are counted */
}

int main(void) {
  memory_match m;
  shoal_world* worlds[2] = {NULL, NULL};
  shoal_peer_config config;
  shoal_stats stats[2];
  event_counts events;
  int frame, p, i;
  int32_t common;

  memset(&events, 0, sizeof events);
  REQUIRE_OK(memory_match_open(&m, 7, 20, 0.05f));

  REQUIRE_OK(shoal_peer_config_default(&config));
  for (p = 0; p < 2; ++p) {
    shoal_transport* transport = NULL;
    REQUIRE(build_world(&worlds[p]) == 0);
    REQUIRE_OK(shoal_memory_network_create_endpoint(m.network, (uint16_t)(p + 1), 2000, &transport));
    REQUIRE_OK(shoal_peer_create_with_world(&config, worlds[p], transport, &m.peers[p]));
    REQUIRE_OK(shoal_peer_set_controlled(m.peers[p], object_ids[p]));
  }
  {
    /* The joiner records itself (for shoal::Replay); the world's description is the game's. */
    static const uint8_t world_name[] = "memory_match";
    REQUIRE_OK(shoal_peer_record(m.peers[1], RECORDING, world_name, sizeof world_name));
  }
  REQUIRE_OK(shoal_peer_host(m.peers[0]));
  CHECK(shoal_peer_record(m.peers[0], RECORDING, NULL, 0) == SHOAL_ERROR_INVALID_STATE);  /* too late */
  {
    shoal_address host;
    REQUIRE_OK(shoal_peer_address(m.peers[0], &host));
    CHECK(strcmp(host.host, "mem") == 0 && host.port == 1);
    REQUIRE_OK(shoal_peer_join(m.peers[1], host.host, host.port));
  }

  for (frame = 0; frame < 600 && !memory_match_connected(&m); ++frame) {
    REQUIRE_OK(memory_match_frame(&m));
    poll_events(&m, &events);
  }
  REQUIRE(memory_match_connected(&m));
  CHECK(events.joined_match[0] == 1 && events.joined_match[1] == 1);
  CHECK(events.peer_joined[0] == 1);  /* the host saw peer 1 arrive (the joiner met it in the welcome) */

  for (frame = 0; frame < PLAY_FRAMES; ++frame) {
    for (p = 0; p < 2; ++p) {
      const shoal_input input = steering(p, frame);
      REQUIRE_OK(shoal_peer_set_input(m.peers[p], &input));
    }
    REQUIRE_OK(memory_match_frame(&m));
    poll_events(&m, &events);
  }

  for (p = 0; p < 2; ++p) {
    const shoal_input none = {{0, 0, 0}, 0};
    REQUIRE_OK(shoal_peer_set_input(m.peers[p], &none));
  }
  for (frame = 0; frame < SETTLE_FRAMES && !all_at_rest(&m); ++frame) {
    REQUIRE_OK(memory_match_frame(&m));
    poll_events(&m, &events);
  }
  CHECK(all_at_rest(&m));
  for (frame = 0; frame < REFRESH_FRAMES; ++frame) {
    REQUIRE_OK(memory_match_frame(&m));
    poll_events(&m, &events);
  }

  common = memory_match_common_frame(&m);
  REQUIRE(common > 0);
  for (i = 0; i < OBJECTS; ++i) {
    shoal_object_state a, b;
    shoal_visual_state visual;
    uint16_t owner_a = SHOAL_NO_PEER, owner_b = SHOAL_NO_PEER;
    float dx, dy, dz;
    REQUIRE_OK(shoal_peer_state_at(m.peers[0], object_ids[i], common, &a));
    REQUIRE_OK(shoal_peer_state_at(m.peers[1], object_ids[i], common, &b));
    if (!same_state(&a, &b)) {
      fprintf(stderr, "object %u differs at frame %d: (%.9g %.9g %.9g) vs (%.9g %.9g %.9g)\n",
              (unsigned)object_ids[i], (int)common, (double)a.position.x, (double)a.position.y,
              (double)a.position.z, (double)b.position.x, (double)b.position.y, (double)b.position.z);
    }
    CHECK(same_state(&a, &b));
    REQUIRE_OK(shoal_peer_owner(m.peers[0], object_ids[i], &owner_a));
    REQUIRE_OK(shoal_peer_owner(m.peers[1], object_ids[i], &owner_b));
    CHECK(owner_a == owner_b);
    CHECK(owner_a == 0 || owner_a == 1);
    (void)check_diagnosis(m.peers[1], object_ids[i], common, &b, owner_b);
    /* Corrections have long been blended out: what is drawn is where the object rests. */
    REQUIRE_OK(shoal_peer_visual(m.peers[1], object_ids[i], &visual));
    REQUIRE_OK(shoal_peer_state(m.peers[1], object_ids[i], &b));
    dx = visual.position.x - b.position.x;
    dy = visual.position.y - b.position.y;
    dz = visual.position.z - b.position.z;
    CHECK(dx * dx + dy * dy + dz * dz < 1e-6f);
  }

  /* The boxes did move: the balls reached them, and the peers handed them around. */
  {
    int moved = 0;
    for (i = 0; i < BOXES; ++i) {
      shoal_object_state now;
      float dx;
      REQUIRE_OK(shoal_peer_state(m.peers[0], object_ids[2 + i], &now));
      dx = now.position.x - box_x(i);
      moved += dx * dx + now.position.z * now.position.z > 0.01f;
    }
    CHECK(moved > 0);
  }
  for (p = 0; p < 2; ++p) {
    REQUIRE_OK(shoal_peer_stats(m.peers[p], &stats[p]));
    CHECK(stats[p].snapshots_received > 0);
    CHECK(stats[p].desyncs == 0);
    CHECK(stats[p].remote_count == 1);
    {
      /* Drops by reason add up to the total; a short array takes the first reasons only. */
      uint64_t drops[SHOAL_DROP_REASON_COUNT + 2], sum = 0;
      memset(drops, 0xff, sizeof drops);
      REQUIRE_OK(shoal_peer_drops(m.peers[p], drops, SHOAL_DROP_REASON_COUNT + 2));
      for (i = 0; i < SHOAL_DROP_REASON_COUNT; ++i) sum += drops[i];
      CHECK(sum == stats[p].dropped_packets);
      CHECK(drops[SHOAL_DROP_REASON_COUNT] == 0 && drops[SHOAL_DROP_REASON_COUNT + 1] == 0);
      REQUIRE_OK(shoal_peer_drops(m.peers[p], NULL, 0));
    }
  }
  printf("frame %d: overrides %llu + %llu, ownership changes %llu + %llu, snapshots received %llu + %llu\n",
         (int)common, (unsigned long long)stats[0].overrides, (unsigned long long)stats[1].overrides,
         (unsigned long long)stats[0].ownership_changes, (unsigned long long)stats[1].ownership_changes,
         (unsigned long long)stats[0].snapshots_received, (unsigned long long)stats[1].snapshots_received);
  CHECK(stats[0].ownership_changes + stats[1].ownership_changes > 0);
  CHECK(events.ownership_changed > 0);
  CHECK(events.desync == 0);
  CHECK(events.unknown_kind == 0);

  for (p = 0; p < 2; ++p) {
    REQUIRE_OK(shoal_peer_destroy(m.peers[p]));
    REQUIRE_OK(shoal_world_destroy(worlds[p]));
  }
  REQUIRE_OK(shoal_memory_network_destroy(m.network));
  {
    /* The recording was written out when its peer was destroyed: a header and 50 s of match. */
    FILE* recording = fopen(RECORDING, "rb");
    long size = 0;
    REQUIRE(recording != NULL);
    fseek(recording, 0, SEEK_END);
    size = ftell(recording);
    fclose(recording);
    remove(RECORDING);
    CHECK(size > 10000);
  }
  return check_exit_status();
}
