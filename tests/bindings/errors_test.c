/* SPDX-License-Identifier: MIT */
/* Misuse of the C API is an error code and a message that names the problem, never a crash:
 * NULL handles and out-pointers, unknown object ids, invalid configs, calls out of order and
 * lifetimes broken on purpose. */
#include <math.h>

#include "check.h"

static shoal_world* sphere_world(void) {
  shoal_world_config config;
  shoal_object_state state;
  shoal_world* world = NULL;
  shoal_world_config_default(&config);
  shoal_object_state_default(&state);
  state.position.y = 0.5f;
  if (shoal_world_create(&config, &world) != SHOAL_OK) return NULL;
  if (shoal_world_add_sphere(world, 1, 0.5f, 1.0f, &state) != SHOAL_OK) return NULL;
  return world;
}

static void null_arguments(shoal_peer* peer) {
  shoal_object_state state;
  shoal_visual_state visual;
  shoal_event event;
  shoal_stats stats;
  shoal_address address;
  int32_t value;
  uint16_t id;
  uint32_t count;
  const shoal_input input = {{0, 0, 0}, 0};

  CHECK_FAILS(shoal_peer_update(NULL), SHOAL_ERROR_NULL_ARGUMENT, "peer is NULL");
  CHECK_FAILS(shoal_peer_update_at(NULL, 0), SHOAL_ERROR_NULL_ARGUMENT, "shoal_peer_update_at");
  CHECK_FAILS(shoal_peer_host(NULL), SHOAL_ERROR_NULL_ARGUMENT, "peer");
  CHECK_FAILS(shoal_peer_join(NULL, "127.0.0.1", 1), SHOAL_ERROR_NULL_ARGUMENT, "peer");
  CHECK_FAILS(shoal_peer_join(peer, NULL, 1), SHOAL_ERROR_NULL_ARGUMENT, "host is NULL");
  CHECK_FAILS(shoal_peer_leave(NULL), SHOAL_ERROR_NULL_ARGUMENT, "peer");
  CHECK_FAILS(shoal_peer_set_controlled(NULL, 1), SHOAL_ERROR_NULL_ARGUMENT, "peer");
  CHECK_FAILS(shoal_peer_set_input(NULL, &input), SHOAL_ERROR_NULL_ARGUMENT, "peer");
  CHECK_FAILS(shoal_peer_set_input(peer, NULL), SHOAL_ERROR_NULL_ARGUMENT, "input is NULL");
  CHECK_FAILS(shoal_peer_poll_event(NULL, &event), SHOAL_ERROR_NULL_ARGUMENT, "peer");
  CHECK_FAILS(shoal_peer_poll_event(peer, NULL), SHOAL_ERROR_NULL_ARGUMENT, "out_event");
  CHECK_FAILS(shoal_peer_state(NULL, 1, &state), SHOAL_ERROR_NULL_ARGUMENT, "peer");
  CHECK_FAILS(shoal_peer_state(peer, 1, NULL), SHOAL_ERROR_NULL_ARGUMENT, "out_state");
  CHECK_FAILS(shoal_peer_visual(peer, 1, NULL), SHOAL_ERROR_NULL_ARGUMENT, "out_visual");
  CHECK_FAILS(shoal_peer_visual(NULL, 1, &visual), SHOAL_ERROR_NULL_ARGUMENT, "peer");
  CHECK_FAILS(shoal_peer_owner(peer, 1, NULL), SHOAL_ERROR_NULL_ARGUMENT, "out_owner");
  CHECK_FAILS(shoal_peer_in_match(NULL, &value), SHOAL_ERROR_NULL_ARGUMENT, "peer");
  CHECK_FAILS(shoal_peer_frame(peer, NULL), SHOAL_ERROR_NULL_ARGUMENT, "out_frame");
  CHECK_FAILS(shoal_peer_id(NULL, &id), SHOAL_ERROR_NULL_ARGUMENT, "peer");
  CHECK_FAILS(shoal_peer_peers(peer, NULL, 4, &count), SHOAL_ERROR_NULL_ARGUMENT, "out_ids");
  CHECK_FAILS(shoal_peer_stats(NULL, &stats), SHOAL_ERROR_NULL_ARGUMENT, "peer");
  CHECK_FAILS(shoal_peer_address(peer, NULL), SHOAL_ERROR_NULL_ARGUMENT, "out_address");
  CHECK_FAILS(shoal_peer_address(NULL, &address), SHOAL_ERROR_NULL_ARGUMENT, "peer");
  CHECK_FAILS(shoal_peer_set_conditions(peer, NULL), SHOAL_ERROR_NULL_ARGUMENT, "conditions");
  CHECK_FAILS(shoal_peer_wait(peer, -1), SHOAL_ERROR_INVALID_ARGUMENT, "timeout_ms");
  CHECK_FAILS(shoal_peer_config_default(NULL), SHOAL_ERROR_NULL_ARGUMENT, "config");
  CHECK_FAILS(shoal_world_config_default(NULL), SHOAL_ERROR_NULL_ARGUMENT, "config");
  CHECK_FAILS(shoal_world_add_sphere(NULL, 9, 1, 1, &state), SHOAL_ERROR_NULL_ARGUMENT, "world");
  CHECK_FAILS(shoal_memory_network_set_time_us(NULL, 5), SHOAL_ERROR_NULL_ARGUMENT, "network");
  CHECK_FAILS(shoal_memory_network_create(1, NULL), SHOAL_ERROR_NULL_ARGUMENT, "out_network");
  CHECK_FAILS(shoal_transport_create_enet(NULL, NULL), SHOAL_ERROR_NULL_ARGUMENT, "out_transport");
  CHECK_FAILS(shoal_authority_create(NULL, NULL), SHOAL_ERROR_NULL_ARGUMENT, "out_authority");
  CHECK_FAILS(shoal_authority_invite(NULL, 60, NULL), SHOAL_ERROR_NULL_ARGUMENT, "authority");
  CHECK_FAILS(shoal_transport_secure(NULL, "00", 0), SHOAL_ERROR_NULL_ARGUMENT, "transport");
  {
    /* Credentials that are not an authority's are refused, and the transport stays usable. */
    shoal_memory_network* network = NULL;
    shoal_transport* transport = NULL;
    shoal_authority* authority = NULL;
    shoal_authority* refused = NULL;
    char credentials[SHOAL_CREDENTIALS_CAPACITY];
    CHECK(shoal_memory_network_create(1, &network) == SHOAL_OK);
    CHECK(shoal_memory_network_create_endpoint(network, 0, 2000, &transport) == SHOAL_OK);
    CHECK_FAILS(shoal_transport_secure(transport, "5343", 0), SHOAL_ERROR_INVALID_ARGUMENT, "credentials");
    CHECK(shoal_authority_create("errors", &authority) == SHOAL_OK);
    CHECK_FAILS(shoal_authority_create("", &refused), SHOAL_ERROR_INVALID_ARGUMENT, "session");
    CHECK(refused == NULL);
    CHECK_FAILS(shoal_authority_invite(authority, 0, credentials), SHOAL_ERROR_INVALID_ARGUMENT, "validity_s");
    CHECK(shoal_authority_invite(authority, 60, credentials) == SHOAL_OK);
    CHECK_FAILS(shoal_transport_secure(transport, credentials, 60001), SHOAL_ERROR_INVALID_ARGUMENT, "token_grace_ms");
    CHECK(shoal_transport_secure(transport, credentials, 0) == SHOAL_OK);
    shoal_authority_destroy(authority);
    shoal_transport_destroy(transport);
    shoal_memory_network_destroy(network);
  }
  /* destroying nothing is allowed, as with free(NULL) */
  CHECK(shoal_peer_destroy(NULL) == SHOAL_OK);
  CHECK(shoal_world_destroy(NULL) == SHOAL_OK);
  CHECK(shoal_simulation_destroy(NULL) == SHOAL_OK);
  CHECK(shoal_transport_destroy(NULL) == SHOAL_OK);
  CHECK(shoal_memory_network_destroy(NULL) == SHOAL_OK);
}

static void unknown_objects(shoal_peer* peer) {
  shoal_object_state state;
  shoal_visual_state visual;
  uint16_t owner = 0;
  shoal_object_diagnosis diagnosis;
  CHECK_FAILS(shoal_peer_state(peer, 999, &state), SHOAL_ERROR_UNKNOWN_OBJECT, "object 999");
  CHECK_FAILS(shoal_peer_state_at(peer, 999, 0, &state), SHOAL_ERROR_UNKNOWN_OBJECT, "999");
  CHECK_FAILS(shoal_peer_visual(peer, 999, &visual), SHOAL_ERROR_UNKNOWN_OBJECT, "999");
  CHECK_FAILS(shoal_peer_owner(peer, 999, &owner), SHOAL_ERROR_UNKNOWN_OBJECT, "999");
  CHECK_FAILS(shoal_peer_diagnose(peer, 999, 0, &diagnosis), SHOAL_ERROR_UNKNOWN_OBJECT, "999");
  CHECK_FAILS(shoal_peer_diagnose(peer, 1, 0, NULL), SHOAL_ERROR_NULL_ARGUMENT, "out_diagnosis");
  CHECK_FAILS(shoal_peer_drops(peer, NULL, 3), SHOAL_ERROR_NULL_ARGUMENT, "out_counts");
  CHECK_FAILS(shoal_peer_set_controlled(peer, 999), SHOAL_ERROR_UNKNOWN_OBJECT, "999");
  CHECK_FAILS(shoal_peer_state_at(peer, 1, 123456, &state), SHOAL_ERROR_FRAME_NOT_HELD, "123456");
  CHECK(shoal_peer_state(peer, 1, &state) == SHOAL_OK);  /* a known object still works */
}

static int invalid_configs(void) {
  shoal_peer_config config;
  shoal_world_config world_config;
  shoal_memory_network* network = NULL;
  shoal_transport* transport = NULL;
  shoal_transport* taken = NULL;
  shoal_world* world = sphere_world();
  shoal_world* bad_world = (shoal_world*)&config;  /* must be reset to NULL by a failed create */
  shoal_peer* peer = (shoal_peer*)&config;  /* must be reset to NULL by a failed create */
  shoal_object_state state;
  shoal_simulation* simulation = (shoal_simulation*)&config;
  shoal_simulation_callbacks callbacks;

  REQUIRE(world != NULL);
  REQUIRE(shoal_memory_network_create(3, &network) == SHOAL_OK);

  shoal_peer_config_default(&config);
  config.tick_hz = 0;
  shoal_memory_network_create_endpoint(network, 0, 1000, &transport);
  CHECK_FAILS(shoal_peer_create_with_world(&config, world, transport, &peer),
              SHOAL_ERROR_INVALID_ARGUMENT, "tick_hz");
  CHECK(peer == NULL);

  shoal_peer_config_default(&config);
  config.history_frames = config.max_resimulated_frames;  /* needs 8 more */
  shoal_memory_network_create_endpoint(network, 0, 1000, &transport);
  CHECK_FAILS(shoal_peer_create_with_world(&config, world, transport, &peer),
              SHOAL_ERROR_INVALID_ARGUMENT, "history_frames");

  shoal_peer_config_default(&config);
  config.catchup = 7;
  shoal_memory_network_create_endpoint(network, 0, 1000, &transport);
  CHECK_FAILS(shoal_peer_create_with_world(&config, world, transport, &peer),
              SHOAL_ERROR_INVALID_ARGUMENT, "catchup");

  shoal_peer_config_default(&config);
  config.world_min.x = config.world_max.x;  /* an empty box */
  shoal_memory_network_create_endpoint(network, 0, 1000, &transport);
  CHECK_FAILS(shoal_peer_create_with_world(&config, world, transport, &peer),
              SHOAL_ERROR_INVALID_ARGUMENT, "world_max.x must be greater than world_min.x");

  shoal_peer_config_default(&config);
  config.simulated_radius_m = -1;
  shoal_memory_network_create_endpoint(network, 0, 1000, &transport);
  CHECK_FAILS(shoal_peer_create_with_world(&config, world, transport, &peer),
              SHOAL_ERROR_INVALID_ARGUMENT, "simulated_radius");

  {  /* smoothing rules: the table's shape, each row's mode, and every rule's fields */
    shoal_smoothing_entry row;
    memset(&row, 0, sizeof row);
    shoal_smoothing_rule_default(&row.rule);

    shoal_peer_config_default(&config);
    config.smoothing_rule_count = 2;  /* with no rows */
    shoal_memory_network_create_endpoint(network, 0, 1000, &transport);
    CHECK_FAILS(shoal_peer_create_with_world(&config, world, transport, &peer),
                SHOAL_ERROR_INVALID_ARGUMENT, "smoothing_rule_count is 2 with smoothing_rules NULL");

    shoal_peer_config_default(&config);
    config.smoothing_rules = &row;
    config.smoothing_rule_count = -1;
    shoal_memory_network_create_endpoint(network, 0, 1000, &transport);
    CHECK_FAILS(shoal_peer_create_with_world(&config, world, transport, &peer),
                SHOAL_ERROR_INVALID_ARGUMENT, "smoothing_rule_count is -1");

    config.smoothing_rule_count = 1;
    row.control_mode = 2;
    shoal_memory_network_create_endpoint(network, 0, 1000, &transport);
    CHECK_FAILS(shoal_peer_create_with_world(&config, world, transport, &peer),
                SHOAL_ERROR_INVALID_ARGUMENT, "smoothing_rules[0].control_mode is 2");

    row.control_mode = SHOAL_CONTROLLED;
    row.rule.blend_rate_high_speed = 1.5f;
    shoal_memory_network_create_endpoint(network, 0, 1000, &transport);
    CHECK_FAILS(shoal_peer_create_with_world(&config, world, transport, &peer),
                SHOAL_ERROR_INVALID_ARGUMENT, "smoothing_rules[0].rule: SmoothingRule.blend_rate_high_speed");

    shoal_peer_config_default(&config);
    config.smoothing_default.warp_distance_m = 0.5f;  /* below the blend threshold */
    shoal_memory_network_create_endpoint(network, 0, 1000, &transport);
    CHECK_FAILS(shoal_peer_create_with_world(&config, world, transport, &peer),
                SHOAL_ERROR_INVALID_ARGUMENT, "smoothing_default: SmoothingRule.warp_distance_m");
    CHECK(peer == NULL);
    CHECK_FAILS(shoal_smoothing_rule_default(NULL), SHOAL_ERROR_NULL_ARGUMENT, "rule");
  }

  shoal_peer_config_default(&config);
  memset(config.session, 'x', sizeof config.session);  /* no terminating NUL */
  shoal_memory_network_create_endpoint(network, 0, 1000, &transport);
  CHECK_FAILS(shoal_peer_create_with_world(&config, world, transport, &peer),
              SHOAL_ERROR_INVALID_ARGUMENT, "session");

  shoal_peer_config_default(&config);
  CHECK_FAILS(shoal_peer_create_with_world(&config, world, NULL, &peer), SHOAL_ERROR_NULL_ARGUMENT,
              "transport");
  shoal_memory_network_create_endpoint(network, 0, 1000, &transport);
  CHECK_FAILS(shoal_peer_create_with_world(&config, NULL, transport, &peer),
              SHOAL_ERROR_NULL_ARGUMENT, "world");

  /* A taken port on the in-process network. */
  CHECK(shoal_memory_network_create_endpoint(network, 40, 1000, &taken) == SHOAL_OK);
  CHECK_FAILS(shoal_memory_network_create_endpoint(network, 40, 1000, &transport),
              SHOAL_ERROR_INVALID_ARGUMENT, "40");
  CHECK(transport == NULL);
  shoal_transport_destroy(taken);

  /* A bad world. */
  shoal_world_config_default(&world_config);
  world_config.dt = 0;
  CHECK_FAILS(shoal_world_create(&world_config, &bad_world), SHOAL_ERROR_INVALID_ARGUMENT, "dt");
  CHECK(bad_world == NULL);
  shoal_object_state_default(&state);
  CHECK_FAILS(shoal_world_add_sphere(world, 5, -1, 1, &state), SHOAL_ERROR_INVALID_ARGUMENT, "radius");
  CHECK_FAILS(shoal_world_add_box(world, 6, 0.5f, 0, 0.5f, 1, &state), SHOAL_ERROR_INVALID_ARGUMENT,
              "half extents");

  /* Callbacks: only save and restore may be missing. */
  memset(&callbacks, 0, sizeof callbacks);
  callbacks.struct_size = sizeof callbacks;
  CHECK_FAILS(shoal_simulation_create(&callbacks, &simulation), SHOAL_ERROR_INVALID_ARGUMENT, "step");
  CHECK(simulation == NULL);
  CHECK_FAILS(shoal_simulation_create(NULL, &simulation), SHOAL_ERROR_NULL_ARGUMENT, "callbacks");

  /* A bad ENet config. */
  {
    shoal_enet_config enet;
    shoal_enet_config_default(&enet);
    enet.insecure = 1;
    enet.timeout_ms = 0;
    CHECK_FAILS(shoal_transport_create_enet(&enet, &transport), SHOAL_ERROR_INVALID_ARGUMENT,
                "timeout_ms");
  }

  shoal_world_destroy(world);
  shoal_memory_network_destroy(network);
  return 0;
}

/* LAN discovery: NULL arguments, bad settings, session names no announcement can carry and an
 * address without a port, each refused with a message naming the field. */
static int lan_discovery_refusals(void) {
  shoal_lan_config lan, bad;
  shoal_lan_session found;
  shoal_lan_stats stats;
  shoal_address address;
  shoal_lan_announcer* announcer = (shoal_lan_announcer*)&lan;  /* reset to NULL by a failed create */
  shoal_lan_seeker* seeker = (shoal_lan_seeker*)&lan;           /* likewise */
  int32_t is_found = 7;
  char too_long[SHOAL_LAN_SESSION_CAPACITY + 1];  /* 65 characters: one more than announceable */

  memset(too_long, 'x', sizeof too_long - 1);
  too_long[sizeof too_long - 1] = '\0';
  memset(&address, 0, sizeof address);
  strcpy(address.host, "127.0.0.1");
  address.port = 40000;
  REQUIRE(shoal_lan_config_default(&lan) == SHOAL_OK);
  lan.port = 47491;  /* no other test uses it */

  CHECK_FAILS(shoal_lan_config_default(NULL), SHOAL_ERROR_NULL_ARGUMENT, "config");
  CHECK_FAILS(shoal_lan_announcer_create(NULL, "s", &address, &announcer), SHOAL_ERROR_NULL_ARGUMENT,
              "config is NULL");
  CHECK(announcer == NULL);
  CHECK_FAILS(shoal_lan_announcer_create(&lan, NULL, &address, &announcer), SHOAL_ERROR_NULL_ARGUMENT,
              "session is NULL");
  CHECK_FAILS(shoal_lan_announcer_create(&lan, "s", NULL, &announcer), SHOAL_ERROR_NULL_ARGUMENT,
              "address is NULL");
  CHECK_FAILS(shoal_lan_announcer_create(&lan, "s", &address, NULL), SHOAL_ERROR_NULL_ARGUMENT,
              "out_announcer");
  CHECK_FAILS(shoal_lan_announcer_update(NULL), SHOAL_ERROR_NULL_ARGUMENT, "announcer");
  CHECK_FAILS(shoal_lan_announcer_stats(NULL, &stats), SHOAL_ERROR_NULL_ARGUMENT, "announcer");
  CHECK_FAILS(shoal_lan_seeker_create(NULL, &seeker), SHOAL_ERROR_NULL_ARGUMENT, "config is NULL");
  CHECK(seeker == NULL);
  CHECK_FAILS(shoal_lan_seeker_create(&lan, NULL), SHOAL_ERROR_NULL_ARGUMENT, "out_seeker");
  CHECK_FAILS(shoal_lan_seeker_poll(NULL, "s", &found, &is_found), SHOAL_ERROR_NULL_ARGUMENT, "seeker");
  CHECK(is_found == 0);
  CHECK_FAILS(shoal_lan_seeker_find(NULL, "s", 0, &found, &is_found), SHOAL_ERROR_NULL_ARGUMENT, "seeker");
  CHECK_FAILS(shoal_lan_seeker_stats(NULL, &stats), SHOAL_ERROR_NULL_ARGUMENT, "seeker");
  CHECK(shoal_lan_announcer_destroy(NULL) == SHOAL_OK);
  CHECK(shoal_lan_seeker_destroy(NULL) == SHOAL_OK);

  bad = lan;
  bad.port = 0;
  CHECK_FAILS(shoal_lan_announcer_create(&bad, "s", &address, &announcer), SHOAL_ERROR_INVALID_ARGUMENT,
              "port is 0");
  CHECK_FAILS(shoal_lan_seeker_create(&bad, &seeker), SHOAL_ERROR_INVALID_ARGUMENT, "port is 0");
  bad = lan;
  bad.announce_interval_ms = 5;
  CHECK_FAILS(shoal_lan_announcer_create(&bad, "s", &address, &announcer), SHOAL_ERROR_INVALID_ARGUMENT,
              "announce_interval_ms is 5");
  CHECK_FAILS(shoal_lan_seeker_create(&bad, &seeker), SHOAL_ERROR_INVALID_ARGUMENT, "announce_interval_ms");
  CHECK_FAILS(shoal_lan_announcer_create(&lan, "", &address, &announcer), SHOAL_ERROR_INVALID_ARGUMENT,
              "session name '' cannot be announced");
  CHECK_FAILS(shoal_lan_announcer_create(&lan, too_long, &address, &announcer), SHOAL_ERROR_INVALID_ARGUMENT,
              "1..64 printable");
  address.port = 0;
  CHECK_FAILS(shoal_lan_announcer_create(&lan, "s", &address, &announcer), SHOAL_ERROR_INVALID_ARGUMENT,
              "address '127.0.0.1:0' cannot be announced");
  memset(address.host, 'h', sizeof address.host);  /* no terminating NUL */
  address.port = 40000;
  CHECK_FAILS(shoal_lan_announcer_create(&lan, "s", &address, &announcer), SHOAL_ERROR_INVALID_ARGUMENT,
              "address.host");
  CHECK(announcer == NULL && seeker == NULL);

  /* A seeker refuses to look for what cannot be announced, and to wait a negative time. */
  REQUIRE(shoal_lan_seeker_create(&lan, &seeker) == SHOAL_OK);
  CHECK_FAILS(shoal_lan_seeker_poll(seeker, NULL, &found, &is_found), SHOAL_ERROR_NULL_ARGUMENT,
              "session is NULL");
  CHECK_FAILS(shoal_lan_seeker_poll(seeker, "s", NULL, &is_found), SHOAL_ERROR_NULL_ARGUMENT, "out_session");
  CHECK_FAILS(shoal_lan_seeker_poll(seeker, "s", &found, NULL), SHOAL_ERROR_NULL_ARGUMENT, "out_found");
  CHECK_FAILS(shoal_lan_seeker_poll(seeker, "", &found, &is_found), SHOAL_ERROR_INVALID_ARGUMENT,
              "session is 0 bytes: expected 1..64");
  CHECK_FAILS(shoal_lan_seeker_find(seeker, too_long, 0, &found, &is_found), SHOAL_ERROR_INVALID_ARGUMENT,
              "session is 65 bytes");
  CHECK_FAILS(shoal_lan_seeker_find(seeker, "s", -1, &found, &is_found), SHOAL_ERROR_INVALID_ARGUMENT,
              "timeout_ms is -1");
  CHECK_FAILS(shoal_lan_seeker_stats(seeker, NULL), SHOAL_ERROR_NULL_ARGUMENT, "out_stats");
  CHECK(shoal_lan_seeker_destroy(seeker) == SHOAL_OK);
  return 0;
}

/* The status of creating a peer with this config on a new endpoint; a peer wrongly accepted is
 * destroyed again, so that the world is free for the next attempt. */
static int create_peer(shoal_memory_network* network, shoal_world* world, const shoal_peer_config* config) {
  shoal_transport* transport = NULL;
  shoal_peer* peer = NULL;
  int status;
  shoal_memory_network_create_endpoint(network, 0, 1000, &transport);
  status = shoal_peer_create_with_world(config, world, transport, &peer);
  shoal_peer_destroy(peer);
  return status;
}

/* The default config with one field changed must be refused with a message containing `word`. */
#define REFUSED(field, value, word)                                                        \
  (c = defaults, c.field = (value),                                                        \
   CHECK_FAILS(create_peer(network, world, &c), SHOAL_ERROR_INVALID_ARGUMENT, (word)))

/* Since version 5: every snapshot setting out of its range is refused, naming the field; the
 * ends of every range are accepted. */
static int snapshot_refusals(void) {
  shoal_peer_config defaults, c;
  shoal_memory_network* network = NULL;
  shoal_world* world = sphere_world();

  REQUIRE(world != NULL);
  REQUIRE(shoal_memory_network_create(4, &network) == SHOAL_OK);
  REQUIRE(shoal_peer_config_default(&defaults) == SHOAL_OK);

  REFUSED(orientation_bits, 7, "orientation_bits is 7, expected 8..20");
  REFUSED(orientation_bits, 21, "orientation_bits is 21");
  REFUSED(velocity_units_per_mps, 0, "velocity_units_per_mps must be a positive number");
  REFUSED(velocity_units_per_mps, NAN, "velocity_units_per_mps must be a positive number");
  REFUSED(velocity_units_per_mps, 1e6f, "times velocity_units_per_mps must be 1..2^20");  /* x 50 m/s */
  REFUSED(max_baseline_age_frames, 0, "max_baseline_age_frames is 0, expected 1..1056");
  REFUSED(max_baseline_age_frames, 1057, "max_baseline_age_frames is 1057");
  REFUSED(packet_budget_bytes, 63, "packet_budget_bytes is 63, expected 64..1200");
  REFUSED(packet_budget_bytes, 1201, "packet_budget_bytes is 1201");
  REFUSED(rest_priority, -1, "rest_priority is -1");
  REFUSED(controlled_priority, INFINITY, "controlled_priority is inf");
  REFUSED(came_to_rest_priority, NAN, "came_to_rest_priority is ");
  REFUSED(settled_refresh_s, -0.5f, "settled_refresh_s is -0.5");
  REFUSED(settled_refresh_s, 3601, "settled_refresh_s is 3601");
  REFUSED(lod_near_m, -1, "lod_near_m is -1");
  REFUSED(lod_far_m, defaults.lod_near_m, "lod_far_m is 10");
  REFUSED(lod_far_m, INFINITY, "lod_far_m is inf");
  REFUSED(lod_far_factor, 1.5f, "lod_far_factor is 1.5");
  REFUSED(rest_snapshot_interval_frames, 0, "rest_snapshot_interval_frames must be at least 1");
  REFUSED(input_redundancy, 0, "input_redundancy is 0, expected 1..16");
  REFUSED(input_redundancy, 17, "input_redundancy is 17");
  REFUSED(max_clock_catchup_frames, 0, "max_clock_catchup_frames must be at least 1");
  REFUSED(coasting_interval_frames, 0, "coasting_interval_frames is 0, expected 1..600");
  REFUSED(coasting_interval_frames, 601, "coasting_interval_frames is 601");
  REFUSED(input_delay_frames, -1, "input_delay_frames is -1, expected 0..16");
  REFUSED(input_delay_frames, 17, "input_delay_frames is 17");

  c = defaults;  /* one end of every range, the switches the other way round */
  c.velocities_at_rest = 1;
  c.delta = 0;
  c.prioritize = 0;
  c.orientation_bits = 20;
  c.velocity_units_per_mps = 0.02f;  /* 1 unit at 50 m/s */
  c.max_baseline_age_frames = 1056;
  c.packet_budget_bytes = 64;
  c.rest_priority = c.controlled_priority = c.came_to_rest_priority = 0;
  c.settled_refresh_s = 3600;
  c.lod_near_m = 0;
  c.lod_far_m = 1e-3f;
  c.lod_far_factor = 0;
  c.rest_snapshot_interval_frames = 1;
  c.input_redundancy = 16;
  c.max_clock_catchup_frames = 1;
  c.coasting_interval_frames = 1;
  c.input_delay_frames = 0;
  CHECK(create_peer(network, world, &c) == SHOAL_OK);
  c = defaults;  /* and the other end */
  c.orientation_bits = 8;
  c.max_baseline_age_frames = 1;
  c.packet_budget_bytes = 1200;
  c.settled_refresh_s = 0;
  c.lod_far_factor = 1;
  c.input_redundancy = 1;
  c.coasting_interval_frames = 600;
  c.input_delay_frames = 16;
  CHECK(create_peer(network, world, &c) == SHOAL_OK);

  shoal_world_destroy(world);
  shoal_memory_network_destroy(network);
  return 0;
}

#undef REFUSED

/* Lifetimes and order: each refused with SHOAL_ERROR_INVALID_STATE, and nothing breaks. */
static int out_of_order(void) {
  shoal_memory_network* network = NULL;
  shoal_transport* transport = NULL;
  shoal_world* world = sphere_world();
  shoal_peer* peer = NULL;
  shoal_peer* second = NULL;
  shoal_peer_config config;
  shoal_object_state state;

  REQUIRE(world != NULL);
  REQUIRE(shoal_memory_network_create(3, &network) == SHOAL_OK);
  shoal_peer_config_default(&config);
  shoal_object_state_default(&state);
  shoal_memory_network_create_endpoint(network, 0, 1000, &transport);
  REQUIRE(shoal_peer_create_with_world(&config, world, transport, &peer) == SHOAL_OK);

  CHECK_FAILS(shoal_world_add_sphere(world, 7, 0.5f, 1, &state), SHOAL_ERROR_INVALID_STATE,
              "before creating the peer");
  CHECK_FAILS(shoal_world_destroy(world), SHOAL_ERROR_INVALID_STATE, "destroy the peer first");
  shoal_memory_network_create_endpoint(network, 0, 1000, &transport);
  CHECK_FAILS(shoal_peer_create_with_world(&config, world, transport, &second),
              SHOAL_ERROR_INVALID_STATE, "one peer per world");
  CHECK(second == NULL);

  CHECK(shoal_peer_host(peer) == SHOAL_OK);
  CHECK_FAILS(shoal_peer_host(peer), SHOAL_ERROR_INVALID_STATE, "already started");
  CHECK_FAILS(shoal_peer_join(peer, "mem", 1), SHOAL_ERROR_INVALID_STATE, "already started");
  CHECK_FAILS(shoal_peer_remote_stats(peer, 0, NULL), SHOAL_ERROR_NULL_ARGUMENT, "out_stats");
  {
    shoal_remote_stats remote;
    CHECK_FAILS(shoal_peer_remote_stats(peer, 0, &remote), SHOAL_ERROR_INVALID_ARGUMENT,
                "remote_count, which is 0");
  }

  unknown_objects(peer);
  null_arguments(peer);

  CHECK(shoal_peer_destroy(peer) == SHOAL_OK);
  CHECK(shoal_world_add_sphere(world, 7, 0.5f, 1, &state) == SHOAL_OK);  /* free again */
  CHECK(shoal_world_destroy(world) == SHOAL_OK);
  shoal_memory_network_destroy(network);
  return 0;
}

/* A game's world that grows between attempts: bodies 10, 11, ... at rest at the origin. */
static void grow_step(void* user, int32_t frame, const shoal_body_input* inputs, uint32_t count) {
  (void)user, (void)frame, (void)inputs, (void)count;
}
static uint32_t grow_count(void* user) { return *(const uint32_t*)user; }
static uint32_t grow_id(void* user, uint32_t body) { (void)user; return 10 + body; }
static float grow_radius(void* user, uint32_t body) { (void)user, (void)body; return 0.5f; }
static void grow_read(void* user, uint32_t body, shoal_object_state* out) {
  (void)user, (void)body;
  shoal_object_state_default(out);
  out->at_rest = 1;
}
static void grow_write(void* user, uint32_t body, const shoal_object_state* state) {
  (void)user, (void)body, (void)state;
}

/* A failed creation leaves a game's simulation free, with its body count read afresh next time;
 * a simulation driving a peer cannot be destroyed. */
static int simulation_lifetime(void) {
  uint32_t bodies = 1;
  shoal_simulation_callbacks callbacks;
  shoal_simulation* simulation = NULL;
  shoal_memory_network* network = NULL;
  shoal_transport* transport = NULL;
  shoal_peer* peer = NULL;
  shoal_peer* second = NULL;
  shoal_peer_config config;
  shoal_object_state state;

  memset(&callbacks, 0, sizeof callbacks);
  callbacks.struct_size = sizeof callbacks;
  callbacks.user = &bodies;
  callbacks.step = grow_step;
  callbacks.body_count = grow_count;
  callbacks.body_id = grow_id;
  callbacks.bounding_radius = grow_radius;
  callbacks.read = grow_read;
  callbacks.write = grow_write;
  REQUIRE(shoal_simulation_create(&callbacks, &simulation) == SHOAL_OK);
  REQUIRE(shoal_memory_network_create(5, &network) == SHOAL_OK);

  shoal_peer_config_default(&config);
  config.tick_hz = 5000;
  shoal_memory_network_create_endpoint(network, 0, 1000, &transport);
  CHECK_FAILS(shoal_peer_create_with_simulation(&config, simulation, transport, &peer),
              SHOAL_ERROR_INVALID_ARGUMENT, "tick_hz is 5000");
  bodies = 2;  /* the game adds a body and tries again */
  shoal_peer_config_default(&config);
  shoal_memory_network_create_endpoint(network, 0, 1000, &transport);
  REQUIRE(shoal_peer_create_with_simulation(&config, simulation, transport, &peer) == SHOAL_OK);
  CHECK(shoal_peer_state(peer, 11, &state) == SHOAL_OK);
  CHECK_FAILS(shoal_peer_state(peer, 12, &state), SHOAL_ERROR_UNKNOWN_OBJECT, "12");
  CHECK_FAILS(shoal_simulation_destroy(simulation), SHOAL_ERROR_INVALID_STATE, "destroy the peer first");
  shoal_memory_network_create_endpoint(network, 0, 1000, &transport);
  CHECK_FAILS(shoal_peer_create_with_simulation(&config, simulation, transport, &second),
              SHOAL_ERROR_INVALID_STATE, "one peer per simulation");
  CHECK(second == NULL);
  CHECK(shoal_peer_destroy(peer) == SHOAL_OK);
  CHECK(shoal_simulation_destroy(simulation) == SHOAL_OK);
  shoal_memory_network_destroy(network);
  return 0;
}

int main(void) {
  CHECK(strcmp(shoal_last_error(), "") == 0);  /* nothing failed yet on this thread */
  invalid_configs();  /* each counts its own failures */
  out_of_order();
  simulation_lifetime();
  lan_discovery_refusals();
  snapshot_refusals();
  CHECK(strcmp(shoal_error_name(SHOAL_ERROR_UNKNOWN_OBJECT), "SHOAL_ERROR_UNKNOWN_OBJECT") == 0);
  CHECK(strcmp(shoal_error_name(-1000), "an unknown error code") == 0);
  return check_exit_status();
}
