/* SPDX-License-Identifier: MIT */
/* shoal_bullet.h - a Bullet world from C, driven by a peer through shoal_simulation_callbacks.
 * Installed when Shoal was built with its Bullet adapter (shoal::bullet, Debian
 * libbullet-dev); the functions are in shoal_c. Bullet is C++, so C games build the world
 * here: static planes (not shared) and shared spheres and boxes, then hand its
 * callbacks to shoal_simulation_create():
 *
 *   shoal_bullet_config bc;  shoal_bullet_config_default(&bc);
 *   shoal_bullet_world* w;   shoal_bullet_world_create(&bc, &w);
 *   shoal_vec3 up = {0, 1, 0};  shoal_bullet_world_add_plane(w, up, 0);   (the ground)
 *   shoal_bullet_world_add_sphere(w, 1, 0.5f, 2.0f, &start);  (the same bodies on every peer)
 *   shoal_simulation_callbacks cb;  shoal_bullet_world_callbacks(w, &cb);
 *   shoal_simulation* sim;  shoal_simulation_create(&cb, &sim);
 *   shoal_peer_create_with_simulation(&pc, sim, transport, &peer);
 *   ... at the end: shoal_peer_destroy, shoal_simulation_destroy, then shoal_bullet_world_destroy.
 *
 * The world is shoal::BulletSimulation on a shoal::BulletWorld (shoal/bullet_simulation.hpp
 * says what it saves and restores, and its limits): y is up, and a body's input pushes it
 * along Input.axis x and z. Errors as in shoal.h. */
#ifndef SHOAL_SHOAL_BULLET_H
#define SHOAL_SHOAL_BULLET_H

#include "shoal/shoal.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Incremented whenever a declaration of this header changes incompatibly. */
#define SHOAL_BULLET_C_API_VERSION 1

typedef struct shoal_bullet_world shoal_bullet_world;

/** How the world steps and what its bodies are made of. Checked when the world is created. */
typedef struct shoal_bullet_config {
  uint32_t struct_size;                /**< sizeof(shoal_bullet_config) (since SHOAL_C_API_VERSION 14) */
  shoal_vec3 gravity;                  /**< m/s^2, y up: {0, -9.81, 0} by default */
  float dt;                            /**< seconds per step, (0, 1] */
  float push_acceleration;             /**< m/s^2 of a full input push, >= 0 */
  float max_push_speed;                /**< m/s: pushing does not speed a body past this, >= 0 */
  float friction;                      /**< of every body added, >= 0 */
  float restitution;                   /**< of every body added, 0..1 */
  float linear_damping;                /**< of every body added: the share of its speed lost per second, 0..1 */
  float angular_damping;               /**< of every body added, likewise, 0..1 */
} shoal_bullet_config;

/** Fills *config with the C++ adapter's defaults and Bullet's materials. */
SHOAL_C_API int shoal_bullet_config_default(shoal_bullet_config* config);
SHOAL_C_API int shoal_bullet_world_create(const shoal_bullet_config* config, shoal_bullet_world** out_world);
/** Destroys a world; NULL is a no-op. Destroy the simulation made from its callbacks first. */
SHOAL_C_API int shoal_bullet_world_destroy(shoal_bullet_world* world);

/** A static plane (the ground, a wall): the points p with dot(normal, p) = offset, solid
 *  behind. Not shared, never moves. */
SHOAL_C_API int shoal_bullet_world_add_plane(shoal_bullet_world* world, shoal_vec3 normal, float offset);
/** A shared dynamic sphere (object id `object`) of `mass` kg at initial->position, turned by
 *  initial->orientation; asleep when initial->at_rest. Bodies are numbered in the order added;
 *  add them all before creating the peer. */
SHOAL_C_API int shoal_bullet_world_add_sphere(shoal_bullet_world* world, uint32_t object, float radius, float mass,
                                              const shoal_object_state* initial);
/** A shared dynamic box, as shoal_bullet_world_add_sphere. */
SHOAL_C_API int shoal_bullet_world_add_box(shoal_bullet_world* world, uint32_t object, shoal_vec3 half_extents,
                                           float mass, const shoal_object_state* initial);

/** Fills *out_callbacks with the world as a game's simulation (user = the world), every
 *  optional callback included (save and restore, changed bodies, freezing): pass them to
 *  shoal_simulation_create(). A wrapper of its own may sit between (to count or log). */
SHOAL_C_API int shoal_bullet_world_callbacks(shoal_bullet_world* world, shoal_simulation_callbacks* out_callbacks);

/* Spawning (since SHOAL_C_API_VERSION 12; see shoal_peer_spawn): declare what each spawned type
 * is, then reserve the slots after every shared body, then hand the slots to the simulation
 * with shoal_bullet_world_spawn_callbacks and shoal_simulation_set_spawning. */

/** Objects of `type` spawned during play are spheres of this radius and mass (> 0; friction,
 *  restitution and damping from the world's config). Before shoal_bullet_world_add_spawn_slots. */
SHOAL_C_API int shoal_bullet_world_set_spawn_sphere(shoal_bullet_world* world, uint16_t type, float radius, float mass);
/** Objects of `type` spawned during play are boxes of these half extents and mass (> 0). */
SHOAL_C_API int shoal_bullet_world_set_spawn_box(shoal_bullet_world* world, uint16_t type, shoal_vec3 half_extents,
                                                 float mass);
/** Reserves `count` spawn slots after the shared bodies (one body per slot and spawned type is
 *  made now and parked until spawned); once. */
SHOAL_C_API int shoal_bullet_world_add_spawn_slots(shoal_bullet_world* world, uint32_t count);
/** Fills *out_callbacks with the world's spawn slots, for shoal_simulation_set_spawning(). */
SHOAL_C_API int shoal_bullet_world_spawn_callbacks(shoal_bullet_world* world, shoal_spawn_callbacks* out_callbacks);

#ifdef __cplusplus
}
#endif

#endif
