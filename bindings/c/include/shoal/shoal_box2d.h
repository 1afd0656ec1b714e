/* SPDX-License-Identifier: MIT */
/* shoal_box2d.h - a Box2D world from C, driven by a peer through shoal_simulation_callbacks.
 * Installed when Shoal was built with its Box2D adapter (shoal::box2d, Debian libbox2d-dev);
 * the functions are in shoal_c. Box2D 2.4 is C++, so C games build the world here: walls
 * (static boxes, not shared) and shared discs and boxes, then hand its callbacks to
 * shoal_simulation_create():
 *
 *   shoal_box2d_config bc;   shoal_box2d_config_default(&bc);   (seen from above: no gravity)
 *   shoal_box2d_world* w;    shoal_box2d_world_create(&bc, &w);
 *   shoal_box2d_world_add_wall(w, 0, -10, 12, 1);               (the same bodies on every peer)
 *   shoal_box2d_world_add_disc(w, 1, 0.5f, 2.5f, &start);
 *   shoal_simulation_callbacks cb;  shoal_box2d_world_callbacks(w, &cb);
 *   shoal_simulation* sim;  shoal_simulation_create(&cb, &sim);
 *   shoal_peer_create_with_simulation(&pc, sim, transport, &peer);
 *   ... at the end: shoal_peer_destroy, shoal_simulation_destroy, then shoal_box2d_world_destroy.
 *
 * The world is shoal::Box2dSimulation (shoal/box2d_simulation.hpp says what it saves and
 * restores, and its limits): positions are (x, y, 0), orientations rotations about z, and a
 * body's input pushes it along Input.axis x and y. Errors as in shoal.h. */
#ifndef SHOAL_SHOAL_BOX2D_H
#define SHOAL_SHOAL_BOX2D_H

#include "shoal/shoal.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Incremented whenever a declaration of this header changes incompatibly. */
#define SHOAL_BOX2D_C_API_VERSION 1

typedef struct shoal_box2d_world shoal_box2d_world;

/** How the world steps and what its bodies are made of. Checked when the world is created. */
typedef struct shoal_box2d_config {
  uint32_t struct_size;                /**< sizeof(shoal_box2d_config) (since SHOAL_C_API_VERSION 14) */
  float gravity_x, gravity_y;          /**< m/s^2; 0, 0 (the default) for a world seen from above */
  float dt;                            /**< seconds per step, (0, 1] */
  int32_t velocity_iterations;         /**< b2World::Step's, 1..256 */
  int32_t position_iterations;         /**< b2World::Step's, 1..256 */
  float push_acceleration;             /**< m/s^2 of a full input push, >= 0 */
  float max_push_speed;                /**< m/s: pushing does not speed a body past this, >= 0 */
  float friction;                      /**< of every body added, >= 0 */
  float restitution;                   /**< of every body added, 0..1 */
  float linear_damping;                /**< of every body added, 1/s, >= 0 */
  float angular_damping;               /**< of every body added, 1/s, >= 0 */
} shoal_box2d_config;

/** Fills *config with the C++ adapter's defaults and a world seen from above. */
SHOAL_C_API int shoal_box2d_config_default(shoal_box2d_config* config);
SHOAL_C_API int shoal_box2d_world_create(const shoal_box2d_config* config, shoal_box2d_world** out_world);
/** Destroys a world; NULL is a no-op. Destroy the simulation made from its callbacks first. */
SHOAL_C_API int shoal_box2d_world_destroy(shoal_box2d_world* world);

/** A static box (a wall, the ground), centred at (center_x, center_y): not shared, never moves. */
SHOAL_C_API int shoal_box2d_world_add_wall(shoal_box2d_world* world, float center_x, float center_y,
                                           float half_x, float half_y);
/** A shared dynamic disc (object id `object`) of `density` kg/m^2 at initial->position (x, y),
 *  turned by initial->orientation's angle about z; asleep when initial->at_rest. Bodies are
 *  numbered in the order added; add them all before creating the peer. */
SHOAL_C_API int shoal_box2d_world_add_disc(shoal_box2d_world* world, uint32_t object, float radius,
                                           float density, const shoal_object_state* initial);
/** A shared dynamic box, as shoal_box2d_world_add_disc. */
SHOAL_C_API int shoal_box2d_world_add_box(shoal_box2d_world* world, uint32_t object, float half_x,
                                          float half_y, float density, const shoal_object_state* initial);

/** Fills *out_callbacks with the world as a game's simulation (user = the world), every
 *  optional callback included (save and restore, changed bodies, freezing): pass them to
 *  shoal_simulation_create(). A wrapper of its own may sit between (to count or log). */
SHOAL_C_API int shoal_box2d_world_callbacks(shoal_box2d_world* world, shoal_simulation_callbacks* out_callbacks);

/* Spawning (since SHOAL_C_API_VERSION 12; see shoal_peer_spawn): declare what each spawned type
 * is, then reserve the slots after every shared body, then hand the slots to the simulation:
 *   shoal_box2d_world_set_spawn_disc(w, 7, 0.2f, 4);  shoal_box2d_world_add_spawn_slots(w, 64);
 *   shoal_box2d_world_callbacks(w, &cb);  shoal_simulation_create(&cb, &sim);
 *   shoal_box2d_world_spawn_callbacks(w, &sc);  shoal_simulation_set_spawning(sim, &sc); */

/** Objects of `type` spawned during play are discs of this radius and density (friction,
 *  restitution and damping from the world's config). Before shoal_box2d_world_add_spawn_slots. */
SHOAL_C_API int shoal_box2d_world_set_spawn_disc(shoal_box2d_world* world, uint16_t type, float radius, float density);
/** Objects of `type` spawned during play are boxes of these half extents and density. */
SHOAL_C_API int shoal_box2d_world_set_spawn_box(shoal_box2d_world* world, uint16_t type, float half_x, float half_y,
                                                float density);
/** Reserves `count` spawn slots after the shared bodies (one body per slot and spawned type is
 *  built now and parked until spawned); once. */
SHOAL_C_API int shoal_box2d_world_add_spawn_slots(shoal_box2d_world* world, uint32_t count);
/** Fills *out_callbacks with the world's spawn slots, for shoal_simulation_set_spawning(). */
SHOAL_C_API int shoal_box2d_world_spawn_callbacks(shoal_box2d_world* world, shoal_spawn_callbacks* out_callbacks);

#ifdef __cplusplus
}
#endif

#endif
