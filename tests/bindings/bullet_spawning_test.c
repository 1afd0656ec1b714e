/* SPDX-License-Identifier: MIT */
/* Spawn slots of a Bullet world built from C (shoal_bullet.h): see engine_spawning.h. */
#include "shoal/shoal_bullet.h"

#include "engine_spawning.h"

int main(void) {
  shoal_bullet_config config;
  shoal_bullet_world* world = NULL;
  shoal_simulation_callbacks callbacks;
  shoal_spawn_callbacks spawning;
  shoal_object_state ball;
  const shoal_vec3 up = {0, 1, 0};
  const shoal_vec3 half = {0.2f, 0.2f, 0.2f};

  REQUIRE_OK(shoal_bullet_config_default(&config));
  REQUIRE_OK(shoal_bullet_world_create(&config, &world));
  REQUIRE_OK(shoal_bullet_world_add_plane(world, up, 0));
  REQUIRE_OK(shoal_object_state_default(&ball));
  ball.position.x = -4;
  ball.position.y = 0.5f;
  REQUIRE_OK(shoal_bullet_world_add_sphere(world, 1, 0.5f, 1, &ball));
  CHECK_FAILS(shoal_bullet_world_add_spawn_slots(world, 4), SHOAL_ERROR_INVALID_ARGUMENT, "set_spawn_type");
  CHECK_FAILS(shoal_bullet_world_set_spawn_sphere(world, SPAWNED_TYPE, 0.2f, 0), SHOAL_ERROR_INVALID_ARGUMENT, "mass");
  REQUIRE_OK(shoal_bullet_world_set_spawn_box(world, SPAWNED_TYPE, half, 0.5f));
  REQUIRE_OK(shoal_bullet_world_add_spawn_slots(world, 4));
  REQUIRE_OK(shoal_bullet_world_callbacks(world, &callbacks));
  REQUIRE_OK(shoal_bullet_world_spawn_callbacks(world, &spawning));
  REQUIRE(check_engine_spawning(&callbacks, &spawning, 1) == 0);
  REQUIRE_OK(shoal_bullet_world_destroy(world));
  return check_exit_status();
}
