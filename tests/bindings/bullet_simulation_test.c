/* SPDX-License-Identifier: MIT */
/* Bullet driven from C through the callback simulation (engine_match.h): each peer builds a
 * Bullet arena with shoal_bullet.h, of spheres and boxes on the ground; at the end both peers
 * hold the same bits for every body, resting on the ground. A bad config is refused by name. */
#include "shoal/shoal_bullet.h"

#include "engine_match.h"

static shoal_bullet_config bullet;

/* The ground and four walls, a ball per player on the left and right, spheres and boxes between. */
static int create_arena(void** out_world) {
  const shoal_vec3 normals[5] = {{0, 1, 0}, {1, 0, 0}, {-1, 0, 0}, {0, 0, 1}, {0, 0, -1}};
  const shoal_vec3 half = {0.4f, 0.4f, 0.4f};
  shoal_bullet_world* world = NULL;
  shoal_object_state s;
  int i, status;
  if ((status = shoal_bullet_world_create(&bullet, &world)) != SHOAL_OK) return status;
  *out_world = world;
  for (i = 0; i < 5 && status == SHOAL_OK; ++i) status = shoal_bullet_world_add_plane(world, normals[i], i == 0 ? 0 : -HALF);
  for (i = 0; i < BODIES && status == SHOAL_OK; ++i) {
    shoal_object_state_default(&s);
    s.position.x = i < BALLS ? (i == 0 ? -4.5f : 4.5f) : -2.0f + 1.2f * (float)((i - BALLS) % 4);
    s.position.y = i < BALLS ? 0.5f : 0.4f;
    s.position.z = i < BALLS ? (i == 0 ? -0.3f : 0.3f) : -1.5f + 1.2f * (float)((i - BALLS) / 4);
    s.at_rest = i >= BALLS;
    status = i < BALLS        ? shoal_bullet_world_add_sphere(world, id_of(i), 0.5f, 2.0f, &s)
             : (i % 2 == 0)   ? shoal_bullet_world_add_sphere(world, id_of(i), 0.4f, 1.0f, &s)
                              : shoal_bullet_world_add_box(world, id_of(i), half, 1.0f, &s);
  }
  return status;
}
static int callbacks(void* world, shoal_simulation_callbacks* out) {
  return shoal_bullet_world_callbacks((shoal_bullet_world*)world, out);
}
static int destroy(void* world) { return shoal_bullet_world_destroy((shoal_bullet_world*)world); }
static int in_arena(const shoal_object_state* s) {  /* resting on the ground, inside the walls */
  return s->position.x > -HALF && s->position.x < HALF && s->position.z > -HALF && s->position.z < HALF &&
         s->position.y > 0.3f && s->position.y < 0.6f;
}

int main(void) {
  const engine_under_test engine = {"Bullet", create_arena, callbacks, destroy, in_arena};
  shoal_bullet_world* bad = NULL;
  REQUIRE_OK(shoal_bullet_config_default(&bullet));
  bullet.linear_damping = bullet.angular_damping = 0.45f;  /* come to rest within seconds */
  REQUIRE(run_engine_match(&engine) == 0);
  bullet.linear_damping = 2;  /* a bad config is refused with a message naming the field */
  CHECK_FAILS(shoal_bullet_world_create(&bullet, &bad), SHOAL_ERROR_INVALID_ARGUMENT, "linear_damping");
  CHECK(bad == NULL);
  return check_exit_status();
}
