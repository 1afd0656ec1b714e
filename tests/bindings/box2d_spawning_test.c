/* SPDX-License-Identifier: MIT */
/* Spawn slots of a Box2D world built from C (shoal_box2d.h): see engine_spawning.h. */
#include "shoal/shoal_box2d.h"

#include "engine_spawning.h"

int main(void) {
  shoal_box2d_config config;
  shoal_box2d_world* world = NULL;
  shoal_simulation_callbacks callbacks;
  shoal_spawn_callbacks spawning;
  shoal_object_state ball;

  REQUIRE_OK(shoal_box2d_config_default(&config));
  config.gravity_y = -9.81f;  /* seen from the side: spawned discs fall */
  REQUIRE_OK(shoal_box2d_world_create(&config, &world));
  REQUIRE_OK(shoal_box2d_world_add_wall(world, 0, -0.5f, 10, 0.5f));
  REQUIRE_OK(shoal_object_state_default(&ball));
  ball.position.x = -4;
  ball.position.y = 0.5f;
  REQUIRE_OK(shoal_box2d_world_add_disc(world, 1, 0.5f, 1, &ball));
  CHECK_FAILS(shoal_box2d_world_add_spawn_slots(world, 4), SHOAL_ERROR_INVALID_ARGUMENT, "set_spawn_type");
  CHECK_FAILS(shoal_box2d_world_set_spawn_disc(world, SPAWNED_TYPE, -1, 1), SHOAL_ERROR_INVALID_ARGUMENT, "radius");
  REQUIRE_OK(shoal_box2d_world_set_spawn_disc(world, SPAWNED_TYPE, 0.2f, 2));
  REQUIRE_OK(shoal_box2d_world_add_spawn_slots(world, 4));
  REQUIRE_OK(shoal_box2d_world_callbacks(world, &callbacks));
  REQUIRE_OK(shoal_box2d_world_spawn_callbacks(world, &spawning));
  REQUIRE(check_engine_spawning(&callbacks, &spawning, 1) == 0);
  REQUIRE_OK(shoal_box2d_world_destroy(world));
  return check_exit_status();
}
