/* SPDX-License-Identifier: MIT */
/* Smoothing rules through the C API: the defaults mirror the C++ ones, and a rules table
 * reaches the peer. Two balls on the in-process network at 40 ms one way: the host predicts
 * the joiner's ball with its last input, mispredicts each time the joiner turns, and the
 * correction becomes an error offset in what is drawn. A rule that warps every correction
 * (for the controlled type and mode, which is what a remote player's ball is) leaves no
 * offset: the ball is drawn on the segment between its last two simulated positions. A rule
 * for the other mode changes nothing. */
#include <math.h>

#include "memory_match.h"

#define PLAY_FRAMES 480  /* 8 s, turning every half second */

/* A rule under which any correction of more than 0.1 mm or 0.1 mrad snaps. */
static shoal_smoothing_rule warp_everything(void) {
  shoal_smoothing_rule rule;
  shoal_smoothing_rule_default(&rule);
  rule.slow_blend_threshold_m = 0;
  rule.blend_threshold_m = 0;
  rule.warp_distance_m = 1e-4f;
  rule.slow_blend_threshold_rad = 0;
  rule.blend_threshold_rad = 0;
  rule.warp_angle_rad = 1e-4f;
  return rule;
}

/* How far the host draws the joiner's ball (object 2) from the segment between its last two
 * simulated positions: the error offset, as interpolation alone stays on that segment. */
static int offset_from_segment(shoal_peer* host, float* out_distance) {
  shoal_visual_state visual;
  shoal_object_state a, b;
  int32_t frame = SHOAL_NO_FRAME;
  float ab[3], av[3], t, along, d2 = 0, len2 = 0;
  int k;
  REQUIRE_OK(shoal_peer_frame(host, &frame));
  REQUIRE_OK(shoal_peer_visual(host, 2, &visual));
  REQUIRE_OK(shoal_peer_state_at(host, 2, frame - 1, &a));
  REQUIRE_OK(shoal_peer_state_at(host, 2, frame, &b));
  ab[0] = b.position.x - a.position.x; ab[1] = b.position.y - a.position.y; ab[2] = b.position.z - a.position.z;
  av[0] = visual.position.x - a.position.x; av[1] = visual.position.y - a.position.y; av[2] = visual.position.z - a.position.z;
  along = 0;
  for (k = 0; k < 3; ++k) {
    along += ab[k] * av[k];
    len2 += ab[k] * ab[k];
  }
  t = len2 > 0 ? along / len2 : 0;
  t = t < 0 ? 0 : (t > 1 ? 1 : t);
  for (k = 0; k < 3; ++k) {
    const float gap = av[k] - t * ab[k];
    d2 += gap * gap;
  }
  *out_distance = sqrtf(d2);
  return 0;
}

/* Plays a match with this config on both peers; the largest offset the host drew for the
 * joiner's ball, and the host's overrides. */
static int play(const shoal_peer_config* config, float* out_largest, uint64_t* out_overrides) {
  memory_match m;
  shoal_world* worlds[2] = {NULL, NULL};
  shoal_stats stats;
  int frame, p;
  *out_largest = 0;
  REQUIRE_OK(memory_match_open(&m, 11, 40, 0));
  for (p = 0; p < 2; ++p) {
    shoal_transport* transport = NULL;
    shoal_world_config world_config;
    shoal_object_state state;
    REQUIRE_OK(shoal_world_config_default(&world_config));
    REQUIRE_OK(shoal_world_create(&world_config, &worlds[p]));
    REQUIRE_OK(shoal_object_state_default(&state));
    state.position.y = 0.5f;
    state.position.x = -3;
    REQUIRE_OK(shoal_world_add_sphere(worlds[p], 1, 0.5f, 1, &state));
    state.position.x = 3;
    REQUIRE_OK(shoal_world_add_sphere(worlds[p], 2, 0.5f, 1, &state));
    REQUIRE_OK(shoal_memory_network_create_endpoint(m.network, (uint16_t)(p + 1), 2000, &transport));
    REQUIRE_OK(shoal_peer_create_with_world(config, worlds[p], transport, &m.peers[p]));
    REQUIRE_OK(shoal_peer_set_controlled(m.peers[p], (uint32_t)(p + 1)));
  }
  REQUIRE_OK(memory_match_connect(&m));
  for (frame = 0; frame < PLAY_FRAMES; ++frame) {
    shoal_input input = {{0, 0, 0}, 0};
    float distance = 0;
    input.axis.z = (frame / 30) % 2 == 0 ? 1.0f : -1.0f;  /* the joiner turns every 0.5 s */
    REQUIRE_OK(shoal_peer_set_input(m.peers[1], &input));
    REQUIRE_OK(memory_match_frame(&m));
    REQUIRE(offset_from_segment(m.peers[0], &distance) == 0);
    if (distance > *out_largest) *out_largest = distance;
  }
  REQUIRE_OK(shoal_peer_stats(m.peers[0], &stats));
  *out_overrides = stats.overrides;
  for (p = 0; p < 2; ++p) REQUIRE_OK(shoal_peer_destroy(m.peers[p]));
  for (p = 0; p < 2; ++p) REQUIRE_OK(shoal_world_destroy(worlds[p]));
  REQUIRE_OK(shoal_memory_network_destroy(m.network));
  return 0;
}

int main(void) {
  shoal_peer_config config;
  shoal_smoothing_rule rule;
  shoal_smoothing_entry row;
  float largest_default = 0, largest_warped = 0, largest_other_mode = 0;
  uint64_t overrides_default = 0, overrides_warped = 0, overrides_other_mode = 0;

  REQUIRE_OK(shoal_smoothing_rule_default(&rule));
  CHECK(rule.warp_distance_m == 7.5f);
  CHECK(rule.blend_rate_low_speed > 0 && rule.blend_rate_low_speed < 1);
  REQUIRE_OK(shoal_peer_config_default(&config));
  CHECK(memcmp(&config.smoothing_default, &rule, sizeof rule) == 0);
  CHECK(config.smoothing_rules == NULL && config.smoothing_rule_count == 0);

  REQUIRE(play(&config, &largest_default, &overrides_default) == 0);

  memset(&row, 0, sizeof row);
  row.object_type = 0;
  row.control_mode = SHOAL_CONTROLLED;
  row.rule = warp_everything();
  config.smoothing_rules = &row;
  config.smoothing_rule_count = 1;
  REQUIRE(play(&config, &largest_warped, &overrides_warped) == 0);

  row.control_mode = SHOAL_UNCONTROLLED;
  REQUIRE(play(&config, &largest_other_mode, &overrides_other_mode) == 0);

  printf("host's largest offset of the joiner's ball: default %.4f m (%llu overrides), "
         "warp rule %.6f m (%llu), rule for the other mode %.4f m (%llu)\n",
         (double)largest_default, (unsigned long long)overrides_default, (double)largest_warped,
         (unsigned long long)overrides_warped, (double)largest_other_mode,
         (unsigned long long)overrides_other_mode);
  /* Corrections happened in every run, and by default they were blended in over frames. */
  CHECK(overrides_default > 0 && overrides_warped > 0 && overrides_other_mode > 0);
  CHECK(largest_default > 0.005f);
  CHECK(largest_warped < 1e-3f);
  CHECK(largest_other_mode > 0.005f);
  return check_exit_status();
}
