/* SPDX-License-Identifier: MIT */
/* The library-wide parts of the C API: the version, the defaults (which come from the C++
 * library, so only their consistency is checked here, not their numbers) and a lone peer that
 * hosts and steps its own frames. */
#include "check.h"

int main(void) {
  shoal_peer_config config;
  shoal_world_config world_config;
  shoal_enet_config enet;
  shoal_link_conditions link;
  shoal_lan_config lan;
  shoal_object_state state;
  shoal_memory_network* network = NULL;
  shoal_transport* transport = NULL;
  shoal_world* world = NULL;
  shoal_peer* peer = NULL;
  shoal_event event;
  int32_t frame = 0, in_match = 0;
  uint16_t id = 0;
  int64_t now_us = 1000000;
  int i, joined = 0;

  CHECK(SHOAL_C_API_VERSION == 15);  /* version 15: diagnoses and drops by reason */
  CHECK(SHOAL_C_ABI_VERSION == 3);  /* 3: the configs start with struct_size, shoal_enet_config grew */
  /* What the library says at run time: the numbers it was built with, and its struct sizes. */
  CHECK(shoal_c_api_version() == SHOAL_C_API_VERSION && shoal_c_abi_version() == SHOAL_C_ABI_VERSION);
  CHECK(shoal_struct_size("shoal_peer_config") == sizeof(shoal_peer_config));
  CHECK(shoal_struct_size("shoal_event") == sizeof(shoal_event));
  CHECK(shoal_struct_size("shoal_transport_callbacks") == sizeof(shoal_transport_callbacks));
  CHECK(shoal_struct_size("shoal_no_such_struct") == 0 && shoal_struct_size(NULL) == 0);
  CHECK(shoal_wire_version() >= 8);  /* 8: the first to refuse other versions by name */
  CHECK(strcmp(shoal_version(), SHOAL_EXPECTED_VERSION) == 0);

  REQUIRE_OK(shoal_peer_config_default(&config));
  CHECK(strcmp(config.session, "shoal") == 0);
  CHECK(config.tick_hz >= 1 && config.tick_hz <= 1000);
  CHECK(config.history_frames >= config.max_resimulated_frames + 8);
  CHECK(config.catchup == SHOAL_CATCHUP_REGION || config.catchup == SHOAL_CATCHUP_OBJECT);
  CHECK(config.exact_compare == 0 && config.quantize == 1);  /* tolerant while moving (C++ default) */
  CHECK(config.bytes_per_second >= 1000);
  CHECK(config.world_min.x < config.world_max.x && config.world_min.y < config.world_max.y &&
        config.world_min.z < config.world_max.z);
  CHECK(config.position_units_per_m > 0 && config.max_linear_speed_mps > 0 && config.max_angular_speed_radps > 0);
  CHECK(config.core_min_radius_m > 0 && config.core_velocity_horizon_s > 0 && config.simulated_radius_m > 0);
  CHECK(config.velocities_at_rest == 0 && config.delta == 1 && config.prioritize == 1);
  CHECK(config.orientation_bits >= 8 && config.orientation_bits <= 20 && config.velocity_units_per_mps > 0);
  CHECK(config.max_baseline_age_frames >= 1 && config.max_baseline_age_frames <= 1056);
  CHECK(config.packet_budget_bytes >= 64 && config.packet_budget_bytes <= 1200);
  CHECK(config.rest_priority < 1 && config.controlled_priority > 1 && config.came_to_rest_priority > 1);
  CHECK(config.settled_refresh_s >= 0 && config.lod_near_m >= 0 && config.lod_far_m > config.lod_near_m);
  CHECK(config.lod_far_factor >= 0 && config.lod_far_factor <= 1);
  CHECK(config.rest_snapshot_interval_frames >= 1 && config.max_clock_catchup_frames >= 1);
  CHECK(config.input_redundancy >= 1 && config.input_redundancy <= 16);
  CHECK(config.coasting_interval_frames >= 1 && config.coasting_interval_frames <= 600);
  CHECK(config.input_delay_frames == 0);
  CHECK(config.join_timeout_ms >= 100);

  REQUIRE_OK(shoal_world_config_default(&world_config));
  CHECK(world_config.dt > 0 && world_config.dt <= 1);
  CHECK(world_config.gravity.y < 0 && world_config.gravity.x == 0);
  CHECK(world_config.solver_iterations >= 1 && world_config.allow_sleep == 1);

  REQUIRE_OK(shoal_enet_config_default(&enet));
  CHECK(enet.port == 0 && enet.max_connections > 0 && enet.timeout_ms > 0);
  CHECK(enet.struct_size == sizeof enet && config.struct_size == sizeof config);
  /* Secured by default: no credentials and no explicit insecure = 1 is refused, saying both. */
  CHECK(enet.insecure == 0 && enet.credentials[0] == '\0' && enet.token_grace_ms > 0);
  CHECK(shoal_transport_create_enet(&enet, &transport) == SHOAL_ERROR_INVALID_ARGUMENT && transport == NULL);
  CHECK(strstr(shoal_last_error(), "credentials") != NULL && strstr(shoal_last_error(), "insecure") != NULL);
  /* A config of another size (a binding built against another shoal.h) is refused, naming the
   * struct and both sizes. */
  {
    char expected[32];
    shoal_enet_config other = enet;
    other.insecure = 1;
    other.struct_size = (uint32_t)sizeof enet - 8;
    CHECK(shoal_transport_create_enet(&other, &transport) == SHOAL_ERROR_INVALID_ARGUMENT && transport == NULL);
    snprintf(expected, sizeof expected, "%u", (unsigned)sizeof enet);
    CHECK(strstr(shoal_last_error(), "shoal_enet_config.struct_size") != NULL);
    CHECK(strstr(shoal_last_error(), expected) != NULL);
  }
  REQUIRE_OK(shoal_link_conditions_default(&link));
  CHECK(link.loss == 0 && link.latency_ms == 0 && link.queue_limit_bytes > 0);
  REQUIRE_OK(shoal_lan_config_default(&lan));
  CHECK(lan.port != 0 && lan.announce_interval_ms >= 10 && lan.announce_interval_ms <= 10000 &&
        lan.loopback_only == 0);

  REQUIRE_OK(shoal_object_state_default(&state));
  CHECK(state.orientation.w == 1 && state.orientation.x == 0 && state.at_rest == 0);

  /* A lone host on the defaults: it is in the match at once and simulates frame after frame. */
  REQUIRE_OK(shoal_world_create(&world_config, &world));
  state.position.y = 10;  /* a ball that falls for longer than the test runs */
  REQUIRE_OK(shoal_world_add_sphere(world, 42, 0.5f, 1.0f, &state));
  REQUIRE_OK(shoal_memory_network_create(1, &network));
  REQUIRE_OK(shoal_memory_network_create_endpoint(network, 0, 1000, &transport));
  REQUIRE_OK(shoal_peer_create_with_world(&config, world, transport, &peer));
  REQUIRE_OK(shoal_peer_frame(peer, &frame));
  CHECK(frame == SHOAL_NO_FRAME);
  REQUIRE_OK(shoal_peer_id(peer, &id));
  CHECK(id == SHOAL_NO_PEER);
  REQUIRE_OK(shoal_peer_set_controlled(peer, 42));
  REQUIRE_OK(shoal_peer_host(peer));
  for (i = 0; i < 60; ++i) {
    now_us += 16667;
    REQUIRE_OK(shoal_memory_network_set_time_us(network, now_us));
    REQUIRE_OK(shoal_peer_update_at(peer, now_us));
    while (shoal_peer_poll_event(peer, &event) == 1) {
      if (event.kind == SHOAL_EVENT_JOINED_MATCH) {
        ++joined;
        CHECK(event.peer == 0);
        CHECK(event.object_count == 0 && event.objects_truncated == 0);
      }
    }
  }
  CHECK(joined == 1);
  {
    shoal_join_progress progress;
    REQUIRE_OK(shoal_peer_join_progress(peer, &progress));
    CHECK(progress.step == SHOAL_JOIN_JOINED && progress.elapsed_ms == 0);  /* the host: at once */
  }
  REQUIRE_OK(shoal_peer_in_match(peer, &in_match));
  CHECK(in_match == 1);
  REQUIRE_OK(shoal_peer_id(peer, &id));
  CHECK(id == 0);
  REQUIRE_OK(shoal_peer_frame(peer, &frame));
  CHECK(frame >= 50 && frame <= 70);  /* about one frame per 1/60 s */
  REQUIRE_OK(shoal_peer_state(peer, 42, &state));
  CHECK(state.position.y < 10 && state.linear_velocity.y < 0);  /* gravity acted */
  {
    uint16_t owner = SHOAL_NO_PEER;
    REQUIRE_OK(shoal_peer_owner(peer, 42, &owner));
    CHECK(owner == 0);
  }
  {
    /* The bulk reads: every body's id and visual state in one call each, the same as one by one. */
    shoal_visual_state visuals[2], one;
    uint32_t ids[2] = {0, 0}, count = 0;
    REQUIRE_OK(shoal_peer_objects(peer, ids, 2, &count));
    CHECK(count == 1 && ids[0] == 42);
    REQUIRE_OK(shoal_peer_visuals(peer, visuals, 2, &count));
    REQUIRE_OK(shoal_peer_visual(peer, 42, &one));
    CHECK(count == 1 && memcmp(&visuals[0], &one, sizeof one) == 0);
    REQUIRE_OK(shoal_peer_visuals(peer, NULL, 0, &count));  /* only the count */
    CHECK(count == 1);
  }

  {
    /* The defaults' box holds the ball: nothing clamped. A box whose top is below the ball,
     * given through the config, clamps its height on every step. */
    shoal_stats stats;
    shoal_peer* low = NULL;
    shoal_transport* second = NULL;
    shoal_world* other = NULL;
    shoal_peer_config boxed = config;
    REQUIRE_OK(shoal_peer_stats(peer, &stats));
    CHECK(stats.quantization_clamps == 0);
    boxed.world_max.y = 5;
    REQUIRE_OK(shoal_world_create(&world_config, &other));
    REQUIRE_OK(shoal_object_state_default(&state));
    state.position.y = 10;
    REQUIRE_OK(shoal_world_add_sphere(other, 42, 0.5f, 1.0f, &state));
    REQUIRE_OK(shoal_memory_network_create_endpoint(network, 0, 1001, &second));
    REQUIRE_OK(shoal_peer_create_with_world(&boxed, other, second, &low));
    REQUIRE_OK(shoal_peer_set_controlled(low, 42));
    REQUIRE_OK(shoal_peer_host(low));
    for (i = 0; i < 10; ++i) REQUIRE_OK(shoal_peer_update_at(low, now_us += 16667));
    REQUIRE_OK(shoal_peer_stats(low, &stats));
    CHECK(stats.quantization_clamps > 0);
    REQUIRE_OK(shoal_peer_state(low, 42, &state));
    CHECK(state.position.y <= 5.001f);
    REQUIRE_OK(shoal_peer_destroy(low));
    REQUIRE_OK(shoal_world_destroy(other));
  }

  {
    /* Nobody answers at the address a joiner asks: it fails in the connecting step, in time. */
    shoal_peer* joiner = NULL;
    shoal_transport* lonely = NULL;
    shoal_world* own = NULL;
    shoal_join_progress progress;
    shoal_peer_config impatient = config;
    int failed = 0;
    impatient.join_timeout_ms = 500;
    REQUIRE_OK(shoal_world_create(&world_config, &own));
    REQUIRE_OK(shoal_memory_network_create_endpoint(network, 0, 1000, &lonely));
    REQUIRE_OK(shoal_peer_create_with_world(&impatient, own, lonely, &joiner));
    REQUIRE_OK(shoal_peer_join(joiner, "mem", 999));
    for (i = 0; i < 60 && !failed; ++i) {
      REQUIRE_OK(shoal_memory_network_set_time_us(network, now_us += 16667));
      REQUIRE_OK(shoal_peer_update_at(joiner, now_us));
      while (shoal_peer_poll_event(joiner, &event) == 1) {
        if (event.kind != SHOAL_EVENT_JOIN_FAILED) continue;
        failed = 1;
        CHECK(event.join_step == SHOAL_JOIN_CONNECTING);
        CHECK(event.join_failure == SHOAL_JOIN_FAILURE_NO_ANSWER);
        CHECK(event.peer == SHOAL_NO_PEER);
      }
    }
    CHECK(failed == 1);
    REQUIRE_OK(shoal_peer_join_progress(joiner, &progress));
    CHECK(progress.step == SHOAL_JOIN_FAILED && progress.elapsed_ms >= 500 && progress.elapsed_ms < 600);
    REQUIRE_OK(shoal_peer_destroy(joiner));
    REQUIRE_OK(shoal_world_destroy(own));
  }

  REQUIRE_OK(shoal_peer_destroy(peer));
  REQUIRE_OK(shoal_world_destroy(world));
  REQUIRE_OK(shoal_memory_network_destroy(network));
  return check_exit_status();
}
