/* SPDX-License-Identifier: MIT */
/* Box2D driven from C through the callback simulation (engine_match.h): each peer builds a
 * Box2D arena seen from above with shoal_box2d.h, of discs and boxes; at the end both peers
 * hold the same bits for every body, on the plane. A bad config is refused by name. */
#include "shoal/shoal_box2d.h"

#include "engine_match.h"

static shoal_box2d_config box2d;

/* Four walls, a ball per player on the left and right, discs and boxes between. */
static int create_arena(void** out_world) {
  shoal_box2d_world* world = NULL;
  shoal_object_state s;
  int i, status;
  if ((status = shoal_box2d_world_create(&box2d, &world)) != SHOAL_OK) return status;
  *out_world = world;
  if ((status = shoal_box2d_world_add_wall(world, 0, -HALF - 1, HALF + 2, 1)) != SHOAL_OK) return status;
  if ((status = shoal_box2d_world_add_wall(world, 0, HALF + 1, HALF + 2, 1)) != SHOAL_OK) return status;
  if ((status = shoal_box2d_world_add_wall(world, -HALF - 1, 0, 1, HALF)) != SHOAL_OK) return status;
  if ((status = shoal_box2d_world_add_wall(world, HALF + 1, 0, 1, HALF)) != SHOAL_OK) return status;
  for (i = 0; i < BODIES && status == SHOAL_OK; ++i) {
    shoal_object_state_default(&s);
    if (i < BALLS) {
      s.position.x = i == 0 ? -4.5f : 4.5f;
      s.position.y = i == 0 ? -0.3f : 0.3f;
      status = shoal_box2d_world_add_disc(world, id_of(i), 0.5f, 2.5f, &s);
    } else {
      s.position.x = -2.0f + 1.2f * (float)((i - BALLS) % 4);
      s.position.y = -1.5f + 1.2f * (float)((i - BALLS) / 4);
      s.at_rest = 1;
      status = (i % 2 == 0) ? shoal_box2d_world_add_disc(world, id_of(i), 0.4f, 2.0f, &s)
                            : shoal_box2d_world_add_box(world, id_of(i), 0.4f, 0.4f, 1.5f, &s);
    }
  }
  return status;
}
static int callbacks(void* world, shoal_simulation_callbacks* out) {
  return shoal_box2d_world_callbacks((shoal_box2d_world*)world, out);
}
static int destroy(void* world) { return shoal_box2d_world_destroy((shoal_box2d_world*)world); }
static int in_arena(const shoal_object_state* s) {  /* on the plane, inside the walls */
  return s->position.z == 0.0f && s->position.x > -HALF && s->position.x < HALF && s->position.y > -HALF &&
         s->position.y < HALF;
}

int main(void) {
  const engine_under_test engine = {"Box2D", create_arena, callbacks, destroy, in_arena};
  shoal_box2d_world* bad = NULL;
  REQUIRE_OK(shoal_box2d_config_default(&box2d));
  CHECK(box2d.gravity_x == 0 && box2d.gravity_y == 0);  /* seen from above */
  REQUIRE(run_engine_match(&engine) == 0);
  box2d.restitution = 2;  /* a bad config is refused with a message naming the field */
  CHECK_FAILS(shoal_box2d_world_create(&box2d, &bad), SHOAL_ERROR_INVALID_ARGUMENT, "restitution");
  CHECK(bad == NULL);
  return check_exit_status();
}
