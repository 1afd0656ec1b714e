/* SPDX-License-Identifier: MIT */
/* shoal.h - the C API of Shoal, for engines that bind through C (C# P/Invoke, Godot, Python
 * ctypes, plain C). Pure C99; every type is an opaque handle or a plain struct of fixed-width
 * fields, so it maps one to one onto any foreign-function interface.
 *
 *   shoal_world_config wc;  shoal_world_config_default(&wc);
 *   shoal_world* world;     shoal_world_create(&wc, &world);
 *   shoal_world_add_sphere(world, 1, 0.5f, 2.0f, &start);   (the same bodies on every peer)
 *   shoal_enet_config ec;   shoal_enet_config_default(&ec);  ec.port = 40000;
 *   strcpy(ec.credentials, invitation);   (from shoal_authority_invite; or ec.insecure = 1)
 *   shoal_transport* t;     shoal_transport_create_enet(&ec, &t);
 *   shoal_peer_config pc;   shoal_peer_config_default(&pc);
 *   shoal_peer* peer;       shoal_peer_create_with_world(&pc, world, t, &peer);
 *   shoal_peer_host(peer);  (or shoal_peer_join(peer, "192.168.1.20", 40000))
 *   shoal_peer_set_controlled(peer, 1);
 *   every render frame: shoal_peer_set_input, shoal_peer_update, shoal_peer_poll_event until 0,
 *   shoal_peer_visual for each object; at the end shoal_peer_destroy, then shoal_world_destroy.
 *
 * Errors: every function that can fail returns an int status, SHOAL_OK (0) or a negative
 * shoal_error; shoal_last_error() then says what was wrong and what was expected. A NULL handle
 * or out-pointer is an error, never a crash; no C++ exception crosses this API.
 * Threads: one handle is used by one thread at a time; different handles may live on
 * different threads. Error messages are kept per thread.
 * Lifetimes: a peer takes its transport; its world or simulation must outlive it (destroying
 * one that still drives a peer is refused with SHOAL_ERROR_INVALID_STATE).
 * Binding safely (since version 14): every config and callback table a game fills starts with
 * struct_size, which its _default function (or the game) sets to sizeof the struct; a call given
 * a struct of another size refuses it with SHOAL_ERROR_INVALID_ARGUMENT, naming the struct and
 * both sizes. shoal_c_api_version, shoal_c_abi_version and shoal_struct_size tell a binding at
 * load time which library it found. */
#ifndef SHOAL_SHOAL_H
#define SHOAL_SHOAL_H

#include <stddef.h>
#include <stdint.h>

/** Incremented whenever this header changes: a declaration added (the ABI stays compatible)
 *  or changed. Changes that break the ABI also change libshoal_c's SOVERSION
 *  (SHOAL_C_ABI_VERSION); CHANGELOG.md lists both. */
#define SHOAL_C_API_VERSION 15
/** The C ABI's version: libshoal_c's SOVERSION. Incremented only when a change breaks programs
 *  built against an older header (a struct's size, a value or a function removed or changed). */
#define SHOAL_C_ABI_VERSION 3

#if defined(_WIN32) && defined(SHOAL_C_SHARED)
#  if defined(SHOAL_C_BUILDING)
#    define SHOAL_C_API __declspec(dllexport)
#  else
#    define SHOAL_C_API __declspec(dllimport)
#  endif
#elif defined(__GNUC__)
#  define SHOAL_C_API __attribute__((visibility("default")))
#else
#  define SHOAL_C_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- constants and errors */

#define SHOAL_NO_PEER 0xFFFFu          /**< peer id meaning "nobody" (no owner, not in a match) */
#define SHOAL_NO_FRAME (-1)            /**< frame number meaning "none yet" */
#define SHOAL_SESSION_CAPACITY 256     /**< bytes of shoal_peer_config.session, NUL included */
#define SHOAL_HOST_CAPACITY 256        /**< bytes of a host name field, NUL included */
#define SHOAL_EVENT_MAX_OBJECTS 32     /**< objects a desync event lists at most */
#define SHOAL_MAX_RELIABLE_MESSAGE_BYTES 16384   /**< the most bytes one reliable game message carries (since version 12) */
#define SHOAL_MAX_UNRELIABLE_MESSAGE_BYTES 1192  /**< the most bytes one unreliable game message carries (since version 12) */
#define SHOAL_MAX_INPUT_BYTES 64       /**< bytes of the game's own input per frame, at most (since version 12) */
#define SHOAL_MAX_SPAWN_BYTES 64       /**< spawn bytes one spawned object carries, at most (since version 12) */
#define SHOAL_OWNERSHIP_HISTORY 4      /**< owner changes a shoal_object_diagnosis lists at most (since version 15) */

/** Status codes: SHOAL_OK or one of the negative errors below. */
typedef enum shoal_error {
  SHOAL_OK = 0,                        /**< success */
  SHOAL_ERROR_NULL_ARGUMENT = -1,      /**< a required handle or pointer was NULL */
  SHOAL_ERROR_INVALID_ARGUMENT = -2,   /**< a value is out of range (config field, size, port) */
  SHOAL_ERROR_UNKNOWN_OBJECT = -3,     /**< the object id is none of the simulation's bodies */
  SHOAL_ERROR_INVALID_STATE = -4,      /**< not now: hosting twice, a world already in use */
  SHOAL_ERROR_NETWORK = -5,            /**< the network or system refused (port in use, no socket) */
  SHOAL_ERROR_FRAME_NOT_HELD = -6,     /**< the frame is no longer (or not yet) in the history */
  SHOAL_ERROR_OUT_OF_MEMORY = -7,      /**< an allocation failed */
  SHOAL_ERROR_INTERNAL = -8            /**< anything else; the message says what */
} shoal_error;

/** The library version, e.g. "0.2.0" (shoal::version()); a static string. */
SHOAL_C_API const char* shoal_version(void);
/** The wire protocol version this library speaks; peers of other versions refuse each other
 *  (since version 9). */
SHOAL_C_API int shoal_wire_version(void);
/** What the last failed call on this thread did wrong and what it expected; "" if none.
 *  Successful calls leave it unchanged; valid until the next failure on this thread. */
SHOAL_C_API const char* shoal_last_error(void);
/** The name of a status code ("SHOAL_ERROR_NULL_ARGUMENT"); a static string. */
SHOAL_C_API const char* shoal_error_name(int status);
/** The SHOAL_C_API_VERSION the library was built with (since version 14): a binding built
 *  against API N refuses a library that answers less than N. */
SHOAL_C_API int32_t shoal_c_api_version(void);
/** The SHOAL_C_ABI_VERSION the library was built with (since version 14): a binding refuses a
 *  library whose ABI differs from its own. */
SHOAL_C_API int32_t shoal_c_abi_version(void);
/** sizeof the struct of shoal.h (or shoal_box2d.h, shoal_bullet.h) named `name`, e.g.
 *  "shoal_peer_config", in this library; 0 for a name it does not know (since version 14). A
 *  binding compares its own layouts with these when it loads. */
SHOAL_C_API size_t shoal_struct_size(const char* name);

/* ---------------------------------------------------------------- values */

/** A vector in metres (or m/s, rad/s); y is up. */
typedef struct shoal_vec3 {
  float x;                             /**< first component */
  float y;                             /**< second component (up) */
  float z;                             /**< third component */
} shoal_vec3;

/** A unit quaternion w + xi + yj + zk; {1, 0, 0, 0} is no rotation. */
typedef struct shoal_quat {
  float w;                             /**< real part */
  float x;                             /**< i component */
  float y;                             /**< j component */
  float z;                             /**< k component */
} shoal_quat;

/** The simulated state of one object at one frame. */
typedef struct shoal_object_state {
  shoal_vec3 position;                 /**< m */
  shoal_quat orientation;              /**< unit quaternion */
  shoal_vec3 linear_velocity;          /**< m/s */
  shoal_vec3 angular_velocity;         /**< rad/s, world frame */
  int32_t at_rest;                     /**< 1 = asleep (velocities zero), 0 = moving */
} shoal_object_state;

/** What to draw for an object: its smoothed, render-interpolated pose. */
typedef struct shoal_visual_state {
  shoal_vec3 position;                 /**< m */
  shoal_quat orientation;              /**< unit quaternion */
} shoal_visual_state;

/** One frame of the local player's input; its meaning is the game's. */
typedef struct shoal_input {
  shoal_vec3 axis;                     /**< the reference physics pushes along x and z, in [-1, 1] */
  uint32_t buttons;                    /**< game-defined bits, ignored by the reference physics */
} shoal_input;

/** Fills *state with the C++ default: at the origin, no rotation, still, awake. */
SHOAL_C_API int shoal_object_state_default(shoal_object_state* state);

/* ---------------------------------------------------------------- peer configuration */

/** How much a correction re-simulates (mirrors shoal::CatchupScope). */
typedef enum shoal_catchup_scope {
  SHOAL_CATCHUP_REGION = 0,            /**< the whole simulated region */
  SHOAL_CATCHUP_OBJECT = 1             /**< the corrected objects and what they touch */
} shoal_catchup_scope;

/** Whether an object is driven by a player or bot (mirrors shoal::ControlMode). */
typedef enum shoal_control_mode {
  SHOAL_UNCONTROLLED = 0,
  SHOAL_CONTROLLED = 1
} shoal_control_mode;

/** How a correction's error leaves what is drawn (mirrors shoal::SmoothingRule; see
 * shoal/smoothing.hpp). Above the warp limits the object snaps; above the blend thresholds
 * the error closes by a speed-dependent fraction per 1/30 s; below them at the minimum
 * closing speed. The peer checks every field when it is created. */
typedef struct shoal_smoothing_rule {
  float warp_distance_m;               /**< m: a larger position error snaps */
  float warp_angle_rad;                /**< rad: a larger orientation error snaps */
  float blend_threshold_m;             /**< m: above it the error closes by the blend rate */
  float blend_threshold_rad;           /**< rad: the same for orientation */
  float slow_speed;                    /**< m/s: below it the slow thresholds apply */
  float slow_blend_threshold_m;        /**< m: blend_threshold_m below slow_speed */
  float slow_blend_threshold_rad;      /**< rad: blend_threshold_rad below slow_speed */
  float low_speed;                     /**< m/s */
  float high_speed;                    /**< m/s */
  float blend_rate_low_speed;          /**< fraction removed per 1/30 s, in (0, 1) */
  float blend_rate_high_speed;         /**< fraction removed per 1/30 s at high_speed and above */
  float min_closing_speed_low;         /**< m/s */
  float min_closing_speed_high;        /**< m/s, at high_speed and above */
  float min_closing_angular_speed_low; /**< rad/s */
  float min_closing_angular_speed_high; /**< rad/s, at high_speed and above */
} shoal_smoothing_rule;

/** Fills *rule with a default-constructed shoal::SmoothingRule. */
SHOAL_C_API int shoal_smoothing_rule_default(shoal_smoothing_rule* rule);

/** One row of the smoothing rules table: the rule of one (object type, control mode). */
typedef struct shoal_smoothing_entry {
  uint16_t object_type;                /**< the type the simulation gives a body (0 without one) */
  int32_t control_mode;                /**< a shoal_control_mode */
  shoal_smoothing_rule rule;           /**< the rule for that type and mode */
} shoal_smoothing_entry;

/** How much a log line matters (mirrors shoal::LogLevel; since version 12). */
typedef enum shoal_log_level {
  SHOAL_LOG_DEBUG = 0,                 /**< routine: a stale snapshot dropped, a message over a sender's rate */
  SHOAL_LOG_INFO = 1,                  /**< worth knowing: an object snapped to its owner, a peer expelled */
  SHOAL_LOG_WARN = 2,                  /**< a malformed or hostile message dropped, a peer refused */
  SHOAL_LOG_ERROR = 3,                 /**< this peer failed at something: a join that gave up */
  SHOAL_LOG_OFF = 4                    /**< as shoal_peer_config.log_level: no line at all */
} shoal_log_level;

/** Receives one log line (since version 12): the config's log_user, a shoal_log_level, and
 *  NUL-terminated text saying what happened and why, valid only during the call. Called from
 *  inside the peer's calls (shoal_peer_update mostly), on their thread. */
typedef void (*shoal_log_callback)(void* user, int32_t level, const char* text);

/** The commonly tuned fields of shoal::PeerConfig (since version 5 all of its SnapshotConfig);
 *  the others keep their C++ defaults. */
typedef struct shoal_peer_config {
  uint32_t struct_size;                /**< sizeof(shoal_peer_config) (since version 14) */
  char session[SHOAL_SESSION_CAPACITY]; /**< match name, NUL-terminated, at most 255 bytes */
  float tick_hz;                       /**< simulation frames per second, 1..1000 */
  int32_t history_frames;              /**< how far back a correction re-simulates, max_resimulated_frames + 8 .. 4096 */
  int32_t max_resimulated_frames;      /**< catch-up work per update in frames, >= 1 */
  int32_t snapshot_interval_frames;    /**< owners send moving objects every N frames, >= 1 */
  int32_t checksum_interval_frames;    /**< desync checksum every N frames, 0 = off */
  int32_t ping_interval_ms;            /**< time-sync ping period, >= 10 (a joiner: a quarter of it at first) */
  int32_t rejoin_grace_ms;             /**< how long a timed-out peer keeps its objects, 0 = not at all */
  int32_t catchup;                     /**< a shoal_catchup_scope */
  int32_t exact_compare;               /**< 1 = owner frames compared bit for bit; 0 (default) = moving objects within the
                                            C++ default tolerances, corrected bit for bit within 30 frames, at rest bitwise */
  int32_t quantize;                    /**< 1 = quantise states on every peer (must match on all peers), 0 = raw floats */
  int32_t bytes_per_second;            /**< snapshot budget per remote peer, >= 1000 */
  int32_t freeze_outside_simulated_region; /**< 1 = simulate only near the controlled object, 0 = everything */
  int32_t sync_test_frames;            /**< debug: roll back this many frames every frame and compare, 0 = off */
  /* Since version 2: where the world is, and how far a player's reach and view go. */
  shoal_vec3 world_min;                /**< quantisation box: positions outside it are clamped (and counted) */
  shoal_vec3 world_max;                /**< ... so it must hold the whole world, with margin */
  float position_units_per_m;          /**< position resolution; world size x this at most 2^22 */
  float max_linear_speed_mps;          /**< faster is clamped (and counted) */
  float max_angular_speed_radps;       /**< faster is clamped (and counted) */
  float core_min_radius_m;             /**< a player owns what is this near its object, at least */
  float core_velocity_horizon_s;       /**< ... or as far as it goes in this time */
  float simulated_radius_m;            /**< simulated (and sent) beyond the core region, m */
  /* Since version 3: how corrections are hidden from the player. */
  shoal_smoothing_rule smoothing_default; /**< for every (type, mode) the table does not name */
  const shoal_smoothing_entry* smoothing_rules; /**< NULL or smoothing_rule_count rows, copied when the peer is created */
  int32_t smoothing_rule_count;        /**< >= 0; a later row for the same (type, mode) replaces an earlier one */
  /* Since version 5: the rest of the snapshot encoding (must match on all peers, like quantize),
   * what each remote peer is sent first within the budget, and how often without priorities. */
  int32_t velocities_at_rest;          /**< 1 = also send the zero velocities of objects at rest (only to measure what omitting them saves), 0 = omit them */
  int32_t delta;                       /**< 1 = encode each object relative to the receiver's newest acknowledged state, 0 = whole every time */
  int32_t orientation_bits;            /**< per smallest-three component of an orientation, 8..20 */
  float velocity_units_per_mps;        /**< velocity resolution (also per rad/s), > 0; max speeds x this 1..2^20 units */
  int32_t max_baseline_age_frames;     /**< older acknowledged states are no baseline: the object goes whole, 1..1056 */
  int32_t prioritize;                  /**< 1 = most important first within packet_budget_bytes and bytes_per_second, 0 = every due object every interval, unbounded */
  int32_t packet_budget_bytes;         /**< largest snapshot datagram, 64..1200 */
  float rest_priority;                 /**< priority of an object at rest (a moving one has 1), finite, >= 0 */
  float controlled_priority;           /**< priority of any peer's controlled object, finite, >= 0 */
  float came_to_rest_priority;         /**< at rest until the receiver acknowledges it at rest, finite, >= 0 */
  float settled_refresh_s;             /**< an acknowledged resting object goes again once rest_priority x this accumulates, 0..3600 (0 = whenever there is room) */
  float lod_near_m;                    /**< priority falls from 1 at this distance from the receiver's controlled object, >= 0 */
  float lod_far_m;                     /**< ... to lod_far_factor at this one and beyond, > lod_near_m */
  float lod_far_factor;                /**< 0..1 */
  int32_t rest_snapshot_interval_frames; /**< with prioritize 0, objects at rest are sent every N frames, >= 1 */
  int32_t input_redundancy;            /**< past inputs each snapshot carries, 1..16 */
  int32_t max_clock_catchup_frames;    /**< frames one update may step when the clock is behind, >= 1 */
  /* Since version 6. */
  int32_t coasting_interval_frames;    /**< a moving object no core region holds goes about every N frames (less often far away), 1..600; 1 = every frame like the others */
  /* Since version 7. */
  int32_t input_delay_frames;          /**< frames between shoal_peer_set_input and the frame the input applies to, 0..16: remote peers then know it before they simulate that frame (GGPO's frame delay) */
  /* Since version 8. */
  int32_t join_timeout_ms;             /**< how long a join may take, every step included, 100..600000; past it SHOAL_EVENT_JOIN_FAILED */
  /* Since version 12: game messages (shoal_peer_send_message), per sender, and the log hook. */
  int32_t max_message_bytes;           /**< the most bytes one message may carry, 1..SHOAL_MAX_RELIABLE_MESSAGE_BYTES; longer ones received are dropped */
  int32_t message_bytes_per_second;    /**< bytes one peer may send per second, >= max_message_bytes; a receiver drops the excess (counted) */
  int32_t messages_per_second;         /**< messages one peer may send per second, 1..100000 */
  int32_t max_queued_messages;         /**< one sender's messages waiting for shoal_peer_poll_event, 1..4096; past it its messages are dropped */
  shoal_log_callback log_callback;     /**< NULL (default): no log line is even formatted */
  void* log_user;                      /**< handed to log_callback */
  int32_t log_level;                   /**< the least shoal_log_level passed to log_callback (default SHOAL_LOG_INFO) */
  /* Since version 12: the game's own input, and objects spawned during play (shoal::SpawnConfig). */
  int32_t input_bytes;                 /**< bytes of the game's own input per frame (shoal_peer_set_input_bytes), 0..SHOAL_MAX_INPUT_BYTES; must match on all peers */
  uint32_t max_objects_per_peer;       /**< live spawned objects per peer, 1..65535; each peer spawns into its own range of this many slots */
  int32_t max_spawns_per_second;       /**< spawns one peer may make per second, 1..10000; more from a remote peer are dropped */
  uint32_t max_spawn_bytes;            /**< spawn bytes one spawn may carry, 0..SHOAL_MAX_SPAWN_BYTES; kept per slot and history frame */
  const uint16_t* removed_on_leave;    /**< NULL or removed_on_leave_count types whose objects vanish when their owner leaves (copied when the peer is created); the others pass to the default owner */
  uint32_t removed_on_leave_count;     /**< rows of removed_on_leave */
} shoal_peer_config;

/** Fills *config with the defaults of a default-constructed shoal::PeerConfig. */
SHOAL_C_API int shoal_peer_config_default(shoal_peer_config* config);

/* ---------------------------------------------------------------- reference physics world */

/** Shoal's built-in physics: spheres and boxes in a walled arena (shoal::ReferencePhysics). */
typedef struct shoal_world shoal_world;

/** Mirrors shoal::ReferencePhysicsConfig; the world's constructor checks every field. */
typedef struct shoal_world_config {
  uint32_t struct_size;                /**< sizeof(shoal_world_config) (since version 14) */
  float dt;                            /**< seconds per step, (0, 1]; match 1 / tick_hz */
  shoal_vec3 gravity;                  /**< m/s^2 */
  float arena_half_x;                  /**< walls at x = +-arena_half_x (m), > 0 */
  float arena_half_z;                  /**< walls at z = +-arena_half_z (m), > 0; ground at y = 0 */
  float restitution;                   /**< bounciness of every contact, 0..1 */
  float friction;                      /**< Coulomb coefficient, >= 0 */
  float linear_damping;                /**< 1/s, >= 0 */
  float angular_damping;               /**< 1/s, >= 0 */
  int32_t solver_iterations;           /**< contact solver passes per step, 1..256 */
  int32_t allow_sleep;                 /**< 1 = still bodies fall asleep, 0 = never */
  float sleep_linear_speed;            /**< m/s below which a body counts as still, >= 0 */
  float sleep_angular_speed;           /**< rad/s below which a body counts as still, >= 0 */
  int32_t sleep_frames;                /**< frames a still group waits before sleeping, >= 1 */
  float push_acceleration;             /**< m/s^2 of a full input push, >= 0 */
  float max_push_speed;                /**< m/s past which pushing stops accelerating, >= 0 */
  int32_t history_frames;              /**< frames of engine state kept for catch-up, >= 1 */
  float grid_cell_size;                /**< broad-phase cell edge (m), > 0 */
} shoal_world_config;

/** Fills *config with the defaults of a default-constructed shoal::ReferencePhysicsConfig. */
SHOAL_C_API int shoal_world_config_default(shoal_world_config* config);
/** Creates an empty world in *out_world (NULL on failure). */
SHOAL_C_API int shoal_world_create(const shoal_world_config* config, shoal_world** out_world);
/** Destroys a world; NULL is a no-op. Refused while a peer uses it: destroy the peer first. */
SHOAL_C_API int shoal_world_destroy(shoal_world* world);
/** Adds a sphere (mass 0 = static); build the same bodies in the same order on every peer. */
SHOAL_C_API int shoal_world_add_sphere(shoal_world* world, uint32_t object, float radius,
                                       float mass, const shoal_object_state* initial);
/** Adds a box of the given half extents (m); refused once a peer uses the world. */
SHOAL_C_API int shoal_world_add_box(shoal_world* world, uint32_t object, float half_x,
                                    float half_y, float half_z, float mass,
                                    const shoal_object_state* initial);
/** Spawning in the reference physics (since version 12; see shoal_peer_spawn): spawned objects
 *  of `type` are spheres of this radius and mass (> 0). Before the peer is created. */
SHOAL_C_API int shoal_world_set_spawn_sphere(shoal_world* world, uint16_t type, float radius, float mass);
/** Spawned objects of `type` are boxes of these half extents (m) and mass (> 0). */
SHOAL_C_API int shoal_world_set_spawn_box(shoal_world* world, uint16_t type, float half_x, float half_y,
                                          float half_z, float mass);
/** Reserves `count` spawn slots after the fixed bodies (add every fixed body first); once, before
 *  the peer is created. */
SHOAL_C_API int shoal_world_add_spawn_slots(shoal_world* world, uint32_t count);

/* ---------------------------------------------------------------- a game's own simulation */

/** A game's physics behind C callbacks (a shoal::Simulation). */
typedef struct shoal_simulation shoal_simulation;

/** The input of one controlled body for the frame being stepped. */
typedef struct shoal_body_input {
  uint32_t body;                       /**< body index, 0..body_count-1 */
  shoal_input input;                   /**< that body's input */
} shoal_body_input;

/** The contract of shoal/simulation.hpp in C. Bodies are indices 0..body_count-1, in the same
 *  order on every peer. Callbacks must not call into the peer that drives them. */
typedef struct shoal_simulation_callbacks {
  uint32_t struct_size;                /**< sizeof(shoal_simulation_callbacks) (since version 14) */
  void* user;                          /**< passed back to every callback */
  /** Advances one fixed step to `frame`, deterministically; `inputs` lists controlled bodies. */
  void (*step)(void* user, int32_t frame, const shoal_body_input* inputs, uint32_t input_count);
  /** The number of bodies; fixed once a peer uses the simulation. */
  uint32_t (*body_count)(void* user);
  /** The object id of a body; unique, the same on every peer. */
  uint32_t (*body_id)(void* user, uint32_t body);
  /** Radius around the body's position containing all of it (m). */
  float (*bounding_radius)(void* user, uint32_t body);
  /** Writes the body's current state into *out_state. */
  void (*read)(void* user, uint32_t body, shoal_object_state* out_state);
  /** Sets the body's state (at_rest = 1 puts it to sleep); a read right after returns it. */
  void (*write)(void* user, uint32_t body, const shoal_object_state* state);
  /** Optional (NULL = nothing to keep): keeps engine-private state after stepping `frame`. */
  void (*save)(void* user, int32_t frame);
  /** Optional (NULL = nothing to restore): brings back what save(frame) kept. */
  void (*restore)(void* user, int32_t frame);

  /* Optional, for speed and game state (since version 2; zero them, e.g. with memset, when
   * unused). Their C++ counterparts in shoal/simulation.hpp say what they promise. */

  /** After step(), the bodies that step may have changed (any order): sets *out_bodies (valid
   *  until the next step) and *out_count and returns 1; or returns 0 when it cannot tell. Every
   *  body not listed must read back what it held before the step. NULL (or a list naming a
   *  body out of range) = every body is read after the step, which is always correct, only
   *  slower in large, mostly sleeping worlds. */
  int (*changed_bodies)(void* user, const uint32_t** out_bodies, uint32_t* out_count);
  /** Leaves a body out of the following steps (frozen = 1) or takes it back (0); a frozen body
   *  keeps its state and is an immovable obstacle. NULL = every body is always simulated. */
  void (*set_frozen)(void* user, uint32_t body, int frozen);
  /** A small game-defined body type (smoothing rules, user bytes). NULL = 0 for every body. */
  uint16_t (*body_type)(void* user, uint32_t body);
  /** Game state kept identical on every peer: user_bytes_size bytes (0..32) per body of a type,
   *  recorded, sent, compared and restored like the state. Give all three or none. */
  uint32_t (*user_bytes_size)(void* user, uint16_t body_type);
  /** Copies a body's user bytes (size of them) into out. */
  void (*read_user_bytes)(void* user, uint32_t body, uint8_t* out, uint32_t size);
  /** Sets a body's user bytes from bytes (size of them). */
  void (*write_user_bytes)(void* user, uint32_t body, const uint8_t* bytes, uint32_t size);

  /* Optional, since version 12 (zero it when unused). */

  /** Instead of step, when given: the same, with each input's own bytes (input_bytes of
   *  shoal_peer_config of them count; the rest are 0): input i's are
   *  input_bytes[i * SHOAL_MAX_INPUT_BYTES .. + SHOAL_MAX_INPUT_BYTES - 1]. */
  void (*step_with_bytes)(void* user, int32_t frame, const shoal_body_input* inputs, const uint8_t* input_bytes,
                          uint32_t input_count);
} shoal_simulation_callbacks;

/** Spawning (since version 11): bodies that appear and vanish during play go into spawn slots,
 *  the last `spawn_slot_count` body indices, empty at first (see Simulation::spawn_slot_count
 *  in shoal/simulation.hpp for what an empty slot must do). Shoal fills and empties them only
 *  through these callbacks, at the same frames and in the same order on every peer, and again
 *  when it re-simulates. */
typedef struct shoal_spawn_callbacks {
  uint32_t struct_size;                /**< sizeof(shoal_spawn_callbacks) (since version 14) */
  uint32_t spawn_slot_count;           /**< how many of the last body indices are spawn slots; 0 = none */
  /** Fills empty slot `body` with a body of game-defined `type` in *state (its state at the
   *  frame it appears in). Deterministic, like step. */
  void (*add_body)(void* user, uint32_t body, uint16_t type, const shoal_object_state* state);
  /** Empties slot `body`: it then reads as the default state at rest and touches nothing. */
  void (*remove_body)(void* user, uint32_t body);
  /** Optional, since version 12 (zero it when unused): instead of add_body when given, the same
   *  with the object's spawn bytes (size of them, 0..max_spawn_bytes; bytes may be NULL when
   *  size is 0), as the spawner gave shoal_peer_spawn. Then add_body may be NULL. */
  void (*add_body_with_bytes)(void* user, uint32_t body, uint16_t type, const shoal_object_state* state,
                              const uint8_t* bytes, uint32_t size);
  /** Optional, since version 12: 1 when add_body can build bodies of `type`, else 0. Spawns of
   *  other types are refused (shoal_peer_spawn) or dropped (from other peers), so add_body never
   *  sees them. NULL = every type. */
  int (*can_spawn)(void* user, uint16_t type);
} shoal_spawn_callbacks;

/** Wraps the callbacks (copied; `user` must outlive the simulation) in *out_simulation. */
SHOAL_C_API int shoal_simulation_create(const shoal_simulation_callbacks* callbacks,
                                        shoal_simulation** out_simulation);
/** Gives the simulation spawn slots (since version 11). Both callbacks are required when
 *  spawn_slot_count > 0, and the count must not exceed body_count or 65536; refused while a peer uses the
 *  simulation. The callbacks' `user` is the simulation's. */
SHOAL_C_API int shoal_simulation_set_spawning(shoal_simulation* simulation,
                                              const shoal_spawn_callbacks* callbacks);
/** Destroys a simulation; NULL is a no-op. Refused while a peer uses it. */
SHOAL_C_API int shoal_simulation_destroy(shoal_simulation* simulation);

/* ---------------------------------------------------------------- transports */

/** A network endpoint, given to exactly one peer (which then owns it). */
typedef struct shoal_transport shoal_transport;

/** Impairments of one direction of a link (the seeded link conditioner). */
typedef struct shoal_link_conditions {
  float latency_ms;                    /**< one-way delay */
  float jitter_ms;                     /**< uniform +- around the latency */
  float loss;                          /**< fraction of datagrams dropped, 0..1 */
  float duplicate;                     /**< fraction delivered twice, 0..1 */
  float reorder;                       /**< fraction held back behind later ones, 0..1 */
  uint32_t queue_limit_bytes;          /**< queue cap when bandwidth-limited */
  uint64_t bandwidth_bytes_per_s;      /**< 0 = unlimited */
} shoal_link_conditions;

/** Both directions of an endpoint's simulated network. */
typedef struct shoal_conditioner {
  shoal_link_conditions outbound;      /**< what this endpoint sends */
  shoal_link_conditions inbound;       /**< what this endpoint receives */
  uint64_t seed;                       /**< the same seed replays the same impairments */
} shoal_conditioner;

/** Fills *conditions with the C++ defaults: a perfect link. */
SHOAL_C_API int shoal_link_conditions_default(shoal_link_conditions* conditions);

#define SHOAL_CREDENTIALS_CAPACITY 512  /**< bytes of credentials as text, NUL included */

/** Where a UDP endpoint is (or a fake one: host "mem" on the in-process network). */
typedef struct shoal_address {
  char host[SHOAL_HOST_CAPACITY];      /**< numeric address or host name, NUL-terminated */
  uint16_t port;                       /**< port */
} shoal_address;

/** An ENet (UDP) endpoint's settings; mirrors shoal::TransportConfig. */
typedef struct shoal_enet_config {
  uint32_t struct_size;                /**< sizeof(shoal_enet_config) (since version 14) */
  char bind_host[SHOAL_HOST_CAPACITY]; /**< local address, NUL-terminated ("0.0.0.0" = every interface) */
  uint16_t port;                       /**< UDP port, 0 = any free one (see shoal_peer_address) */
  uint32_t max_connections;            /**< peers this endpoint accepts */
  uint32_t timeout_ms;                 /**< silence after which a connection times out, > 0 */
  shoal_conditioner conditioner;       /**< simulated bad network; the defaults impair nothing */
  /* Since version 14: secured by default, as in C++ (shoal::TransportConfig::security). The
   * create functions refuse a config with neither credentials nor insecure = 1. */
  char credentials[SHOAL_CREDENTIALS_CAPACITY]; /**< this peer's, from shoal_authority_invite, NUL-terminated; "" = none */
  int32_t insecure;                    /**< 1 = in the clear, asked for explicitly (every end of a link must agree); 0 (default) = secured */
  uint32_t token_grace_ms;             /**< how long a connection may take to present a valid token, 1..60000 */
} shoal_enet_config;

/** Fills *config with the defaults of a default-constructed shoal::TransportConfig. */
SHOAL_C_API int shoal_enet_config_default(shoal_enet_config* config);
/** Binds a UDP endpoint in *out_transport, secured with config->credentials (or in the clear
 *  when config->insecure = 1); SHOAL_ERROR_INVALID_ARGUMENT for neither, or credentials that are
 *  not well-formed; SHOAL_ERROR_NETWORK when the port cannot be bound. */
SHOAL_C_API int shoal_transport_create_enet(const shoal_enet_config* config,
                                            shoal_transport** out_transport);
/** Destroys a transport never given to a peer; NULL is a no-op. */
SHOAL_C_API int shoal_transport_destroy(shoal_transport* transport);

/* Secured links (shoal/security.hpp; since version 10). A session's authority (usually the
 * host) invites each peer with credentials, as text; a transport secured with them encrypts and
 * authenticates every message, and its peer meets only peers invited by the same authority:
 *   shoal_authority* a;  shoal_authority_create("friday-night", &a);
 *   char mine[SHOAL_CREDENTIALS_CAPACITY];  shoal_authority_invite(a, 3600, mine);
 *   strcpy(ec.credentials, mine);  shoal_transport_create_enet(&ec, &t);
 * Since version 14 the ENet, relay and hybrid transports are secured when they are made, from
 * the credentials of their shoal_enet_config (relay: its `local`, hybrid: its `direct`), and
 * refuse to start without them unless the config asks for the clear (insecure = 1).
 * shoal_transport_secure secures the others: in-process and custom transports, or one made in
 * the clear. Secure every transport of a match, or none. */

/** Issues the join tokens of one session (shoal::SessionAuthority). */
typedef struct shoal_authority shoal_authority;

/** A fresh authority (a random signing key) for `session`, 1..64 bytes. */
SHOAL_C_API int shoal_authority_create(const char* session, shoal_authority** out_authority);
/** Destroys an authority (the credentials it issued stay valid); NULL is a no-op. */
SHOAL_C_API int shoal_authority_destroy(shoal_authority* authority);
/** Credentials for one peer, valid for validity_s seconds (> 0), as NUL-terminated text. */
SHOAL_C_API int shoal_authority_invite(const shoal_authority* authority, int64_t validity_s,
                                       char out_credentials[SHOAL_CREDENTIALS_CAPACITY]);
/** Secures a transport not yet given to a peer (one made in the clear: in-process, custom, or
 *  ENet with insecure = 1), in place, with `credentials` (from
 *  shoal_authority_invite). token_grace_ms: how long a connection may take to present a valid
 *  token before it is closed; 0 = the default (2000). SHOAL_ERROR_INVALID_ARGUMENT for
 *  credentials that are not well-formed or a grace over 60000. */
SHOAL_C_API int shoal_transport_secure(shoal_transport* transport, const char* credentials,
                                       uint32_t token_grace_ms);

/* Across the Internet through a relay (shoal-relay, shoal/relay.hpp). A peer reached through
 * the relay has the virtual address host "relay", port = its slot in the session; the match
 * host asks for SHOAL_RELAY_HOST_SLOT, so joiners call
 * shoal_peer_join(peer, SHOAL_RELAY_VIRTUAL_HOST, SHOAL_RELAY_HOST_SLOT). */
#define SHOAL_RELAY_HOST_SLOT 1
#define SHOAL_RELAY_VIRTUAL_HOST "relay"
#define SHOAL_RELAY_ID_CAPACITY 65     /**< bytes of a session, code or token field, NUL included */

/** Mirrors shoal::RelayClientConfig. */
typedef struct shoal_relay_config {
  uint32_t struct_size;                /**< sizeof(shoal_relay_config) (since version 14) */
  shoal_address relay;                 /**< the relay server */
  char session[SHOAL_RELAY_ID_CAPACITY]; /**< session id (created by its first member), or empty and... */
  char code[SHOAL_RELAY_ID_CAPACITY];  /**< ...the short code of a running session */
  char token[SHOAL_RELAY_ID_CAPACITY]; /**< must equal the token the session was created with */
  uint16_t slot;                       /**< 0 = any free slot; SHOAL_RELAY_HOST_SLOT for the match host */
  shoal_enet_config local;             /**< the local socket */
  uint32_t resume_timeout_ms;          /**< a relay restart shorter than this is survived */
  uint32_t relay_timeout_ms;           /**< silence after which the relay counts as lost and is rejoined */
} shoal_relay_config;

/** Fills *config with the C++ defaults (no relay, session or token: set them). */
SHOAL_C_API int shoal_relay_config_default(shoal_relay_config* config);
/** A transport whose connections all go through the relay; it joins the session in the
 *  background (a peer's updates drive it). SHOAL_ERROR_INVALID_ARGUMENT for a bad config (no
 *  session or code, an oversized id, an unresolvable relay), SHOAL_ERROR_NETWORK when the
 *  local port cannot be bound. */
SHOAL_C_API int shoal_transport_create_relay(const shoal_relay_config* config,
                                             shoal_transport** out_transport);

/** The short code (6 characters, no look-alike letters) that `session` has on every relay:
 *  what a host shows its friends, who join with shoal_relay_config.code. */
SHOAL_C_API int shoal_relay_session_code(const char* session, char out_code[SHOAL_RELAY_ID_CAPACITY]);

/** A session running on a relay (the lobby). */
typedef struct shoal_relay_session {
  char session[SHOAL_RELAY_ID_CAPACITY]; /**< its id */
  char code[SHOAL_RELAY_ID_CAPACITY];  /**< its short code */
  uint32_t members;                    /**< peers in it now */
} shoal_relay_session;

/** Asks a relay for its sessions, blocking up to timeout_ms: fills out_sessions with up to
 *  `capacity` of them and sets *out_count to how many there are (more than capacity: some
 *  left out). SHOAL_ERROR_NETWORK when the relay does not answer in time. */
SHOAL_C_API int shoal_relay_list_sessions(const shoal_address* relay, int32_t timeout_ms,
                                          shoal_relay_session* out_sessions, uint32_t capacity,
                                          uint32_t* out_count);

/** Mirrors shoal::HybridConfig: direct where possible, the relay where not. */
typedef struct shoal_hybrid_config {
  uint32_t struct_size;                /**< sizeof(shoal_hybrid_config) (since version 14) */
  shoal_relay_config relay;            /**< the fallback; its local socket is unused (shares direct's) */
  shoal_enet_config direct;            /**< the one socket */
  uint32_t direct_timeout_ms;          /**< no direct connection within this: use the relay */
  uint32_t direct_retry_ms;            /**< while on the relay, try direct again this often */
} shoal_hybrid_config;

/** Fills *config with the C++ defaults. */
SHOAL_C_API int shoal_hybrid_config_default(shoal_hybrid_config* config);
/** A transport that reaches each peer directly when it can and through the relay when not;
 *  errors as shoal_transport_create_relay. */
SHOAL_C_API int shoal_transport_create_hybrid(const shoal_hybrid_config* config,
                                              shoal_transport** out_transport);
/** The address to join a hybrid peer at: its direct address and its relay slot (0: none). */
SHOAL_C_API int shoal_hybrid_address(const shoal_address* direct, uint16_t relay_slot,
                                     shoal_address* out_address);

/** An in-process network whose time and losses the caller controls, for deterministic runs. */
typedef struct shoal_memory_network shoal_memory_network;

/** Creates a network in *out_network whose impairments replay from `seed`. */
SHOAL_C_API int shoal_memory_network_create(uint64_t seed, shoal_memory_network** out_network);
/** Destroys the handle; NULL is a no-op. Endpoints keep working, but time no longer advances. */
SHOAL_C_API int shoal_memory_network_destroy(shoal_memory_network* network);
/** Sets the network's clock (us); call it before updating the peers at that time. */
SHOAL_C_API int shoal_memory_network_set_time_us(shoal_memory_network* network, int64_t now_us);
/** Impairs every link, both directions. */
SHOAL_C_API int shoal_memory_network_set_conditions(shoal_memory_network* network,
                                                    const shoal_link_conditions* conditions);
/** A new endpoint at host "mem", `port` (0 = next free one); a taken port is refused. */
SHOAL_C_API int shoal_memory_network_create_endpoint(shoal_memory_network* network, uint16_t port,
                                                     uint32_t timeout_ms,
                                                     shoal_transport** out_transport);

/* ---------------------------------------------------------------- a game's own transport */

/* Since version 14: Shoal over any network the game has (Steam networking sockets, Epic, a
 * platform relay): a table of callbacks that does what shoal::Transport asks of a transport.
 * The peer calls them from its own calls (shoal_peer_update mostly), on their thread, and never
 * from two threads at once. Connections are numbered by the transport: any id but 0, never
 * reused while the transport lives. Each channel promises what the peer counts on:
 *   SHOAL_CHANNEL_CONTROL  reliable and ordered: every message arrives once, in the order sent
 *                          (membership, ownership, spawns, reliable game messages);
 *   SHOAL_CHANNEL_STATE    unreliable: a message may be lost or come late, but never altered;
 *                          a transport may drop one older than one it already delivered (snapshots
 *                          carry frame numbers, and the peer drops stale ones itself);
 *   SHOAL_CHANNEL_TIME     unreliable and unordered, delivered as soon as possible (clock pings:
 *                          delay, not loss, is what hurts here).
 * A message is at most max_message_size() bytes and is never split or merged. */

/** The channels of a transport (mirrors shoal::Channel; since version 14). */
typedef enum shoal_channel {
  SHOAL_CHANNEL_CONTROL = 0,           /**< reliable, ordered */
  SHOAL_CHANNEL_STATE = 1,             /**< unreliable; stale messages may be dropped */
  SHOAL_CHANNEL_TIME = 2               /**< unreliable, unordered */
} shoal_channel;

/** What a transport's poll reports (mirrors shoal::TransportEventKind; since version 14). */
typedef enum shoal_transport_event_kind {
  SHOAL_TRANSPORT_CONNECTED = 0,       /**< a connection (made by connect, or from a remote) is up */
  SHOAL_TRANSPORT_DISCONNECTED = 1,    /**< a connection ended gracefully */
  SHOAL_TRANSPORT_TIMED_OUT = 2,       /**< a connection was lost, or connect never succeeded */
  SHOAL_TRANSPORT_MESSAGE = 3          /**< a message arrived on a connection */
} shoal_transport_event_kind;

/** Why the transport or peer dropped what it received (mirrors shoal::DropReason; since version 14). */
typedef enum shoal_drop_reason {
  SHOAL_DROP_BAD_MAGIC = 0,            /**< not a Shoal datagram */
  SHOAL_DROP_UNSUPPORTED_VERSION = 1,  /**< a protocol version this build does not speak */
  SHOAL_DROP_UNKNOWN_KIND = 2,         /**< a message kind not known */
  SHOAL_DROP_TRUNCATED = 3,            /**< ends before the data it announces */
  SHOAL_DROP_OVERSIZE = 4,             /**< longer than the limit for its kind */
  SHOAL_DROP_MALFORMED = 5,            /**< parses, but a value is impossible */
  SHOAL_DROP_STALE = 6,                /**< older than what was already accepted */
  SHOAL_DROP_NOT_OWNER = 7,            /**< state for an object the sender does not own */
  SHOAL_DROP_NO_TOKEN = 8,             /**< without a valid join token in time */
  SHOAL_DROP_BAD_TOKEN = 9,            /**< a token or signature that does not verify */
  SHOAL_DROP_TOKEN_EXPIRED = 10,       /**< a join token past its expiry */
  SHOAL_DROP_WRONG_SESSION = 11,       /**< a join token for another session */
  SHOAL_DROP_FORGED = 12,              /**< fails authentication */
  SHOAL_DROP_REPLAYED = 13,            /**< a sealed message received before */
  SHOAL_DROP_BAD_SPAWN = 14,           /**< an impossible spawn or removal */
  SHOAL_DROP_OVER_LIMIT = 15,          /**< past the sender's limits */
  SHOAL_DROP_REASON_COUNT = 16         /**< the number of reasons; not a reason itself */
} shoal_drop_reason;

/** One event of a game's transport. */
typedef struct shoal_transport_event {
  int32_t kind;                        /**< a shoal_transport_event_kind */
  uint32_t connection;                 /**< on which connection */
  int32_t channel;                     /**< message only: a shoal_channel */
  const uint8_t* payload;              /**< message only: its bytes, valid until the next poll */
  uint32_t size;                       /**< message only: how many */
} shoal_transport_event;

/** A connection's figures, smoothed over about a second (mirrors shoal::LinkStats). */
typedef struct shoal_link_stats {
  float rtt_ms;                        /**< round-trip time */
  float rtt_variance_ms;               /**< its variation */
  float packet_loss;                   /**< 0..1 */
  float packets_out_per_s;             /**< datagrams sent per second */
  float packets_in_per_s;              /**< datagrams received per second */
  float bytes_out_per_s;               /**< bytes sent per second, headers included */
  float bytes_in_per_s;                /**< bytes received per second, headers included */
} shoal_link_stats;

/** A game's transport: what shoal::Transport asks, as C callbacks (since version 14). Required:
 *  connect, disconnect, send, poll, wait, local_address, remote_address, max_message_size; the
 *  others may be NULL. */
typedef struct shoal_transport_callbacks {
  uint32_t struct_size;                /**< sizeof(shoal_transport_callbacks) */
  void* user;                          /**< passed back to every callback */
  /** Starts connecting to *remote; returns the new connection's id (a CONNECTED or TIMED_OUT
   *  event follows), or 0 when it cannot even start. */
  uint32_t (*connect)(void* user, const shoal_address* remote);
  /** Starts a graceful disconnect; a DISCONNECTED event follows. */
  void (*disconnect)(void* user, uint32_t connection);
  /** Queues `size` bytes on `channel` (a shoal_channel, with its guarantee): 1 when queued, 0
   *  (nothing sent) for an unknown connection or more than max_message_size bytes. */
  int32_t (*send)(void* user, uint32_t connection, int32_t channel, const uint8_t* bytes, uint32_t size);
  /** Sends what is queued, then takes the next event into *out_event without blocking: 1 when
   *  there was one, 0 when none. now_us is the peer's clock (us, monotonic), for timers. */
  int32_t (*poll)(void* user, int64_t now_us, shoal_transport_event* out_event);
  /** Optional: sends what is queued now (the peer calls it at the end of every update). */
  void (*flush)(void* user);
  /** Blocks up to timeout_ms for network activity, then returns. */
  void (*wait)(void* user, int32_t timeout_ms);
  /** Optional (NULL: zeros): the connection's figures into *out_stats. */
  void (*stats)(void* user, uint32_t connection, shoal_link_stats* out_stats);
  /** Where this transport is reached: others pass it to shoal_peer_join. */
  void (*local_address)(void* user, shoal_address* out_address);
  /** Where the connection's other end is. */
  void (*remote_address)(void* user, uint32_t connection, shoal_address* out_address);
  /** The largest message send() takes, in bytes (at least 1200: a snapshot datagram's budget). */
  uint32_t (*max_message_size)(void* user);
  /** Optional: a simulated bad network at run time (shoal_peer_set_conditions). */
  void (*set_conditions)(void* user, const shoal_conditioner* conditions);
  /** Optional: what the transport itself dropped, SHOAL_DROP_REASON_COUNT counters by
   *  shoal_drop_reason (count says how many out_counts holds). */
  void (*drops)(void* user, uint64_t* out_counts, uint32_t count);
  /** Optional: called once when the transport is destroyed (with its peer, or by
   *  shoal_transport_destroy), the last call with `user`: free it there. */
  void (*destroy)(void* user);
} shoal_transport_callbacks;

/** A transport made of the game's callbacks (copied) in *out_transport, in the clear (see
 *  shoal_transport_secure). SHOAL_ERROR_INVALID_ARGUMENT names a required callback that is
 *  NULL. Events with an unknown kind or channel, or a message without bytes, are dropped and
 *  counted (SHOAL_DROP_MALFORMED). When the call fails, destroy is not called. */
SHOAL_C_API int shoal_transport_create_custom(const shoal_transport_callbacks* callbacks,
                                              shoal_transport** out_transport);

/* ---------------------------------------------------------------- LAN discovery */

/* Since version 4: how peers on one network find a match without typing addresses
 * (shoal/lan_discovery.hpp). The host announces its address a few times per second to a UDP
 * port on every IPv4 interface, loopback included (or loopback alone); a joiner's seeker
 * listens on that port for the session's name and protocol version:
 *
 *   shoal_lan_config lc;     shoal_lan_config_default(&lc);
 *   host:   shoal_peer_address(peer, &a);  shoal_lan_announcer_create(&lc, "my-game", &a, &announcer);
 *           every frame: shoal_lan_announcer_update(announcer);
 *   joiner: shoal_lan_seeker_create(&lc, &seeker);
 *           shoal_lan_seeker_find(seeker, "my-game", 3000, &found, &ok);
 *           if (ok) shoal_peer_join(peer, found.address.host, found.address.port); */

#define SHOAL_LAN_SESSION_CAPACITY 65  /**< bytes of an announced session name, NUL included */

/** Mirrors shoal::LanDiscoveryConfig; host and joiners must use the same port. */
typedef struct shoal_lan_config {
  uint32_t struct_size;                /**< sizeof(shoal_lan_config) (since version 14) */
  uint16_t port;                       /**< UDP port the announcements go to, 1..65535 */
  int32_t announce_interval_ms;        /**< time between announcements, 10..10000 */
  int32_t loopback_only;               /**< 1 = announce on loopback alone (every peer runs on this machine), 0 = every interface */
} shoal_lan_config;

/** One heard announcement (mirrors shoal::LanSession). */
typedef struct shoal_lan_session {
  char session[SHOAL_LAN_SESSION_CAPACITY]; /**< the session's name, NUL-terminated */
  shoal_address address;               /**< where the host's transport listens: join there */
  uint8_t protocol_version;            /**< the host's; always this build's (others are dropped) */
} shoal_lan_session;

/** What an announcer or seeker did so far (mirrors shoal::LanDiscoveryStats). */
typedef struct shoal_lan_stats {
  uint64_t sent;                       /**< announcer: datagrams sent (one per interface and interval) */
  uint64_t received;                   /**< seeker: datagrams heard on the discovery port */
  uint64_t other_sessions;             /**< seeker: well-formed announcements of another session */
  uint64_t dropped;                    /**< seeker: garbage, other protocol versions, truncated: all reasons */
} shoal_lan_stats;

/** Announces one session on the LAN (shoal::LanAnnouncer). */
typedef struct shoal_lan_announcer shoal_lan_announcer;
/** Listens for announcements (shoal::LanSeeker); seekers on one machine share the port. */
typedef struct shoal_lan_seeker shoal_lan_seeker;

/** Fills *config with the defaults of a default-constructed shoal::LanDiscoveryConfig. */
SHOAL_C_API int shoal_lan_config_default(shoal_lan_config* config);

/** Creates an announcer in *out_announcer (NULL on failure) for `session` (1..64 printable
 *  ASCII characters) at `address`, typically what shoal_peer_address() returns for the host.
 *  SHOAL_ERROR_INVALID_ARGUMENT for a bad config, session name or an address without a port;
 *  SHOAL_ERROR_NETWORK when no socket can be opened. Nothing is sent before the first update. */
SHOAL_C_API int shoal_lan_announcer_create(const shoal_lan_config* config, const char* session,
                                           const shoal_address* address,
                                           shoal_lan_announcer** out_announcer);
/** Sends the announcement when the interval has passed (at once on the first call), else
 *  returns at once; never blocks. Call it once per frame. */
SHOAL_C_API int shoal_lan_announcer_update(shoal_lan_announcer* announcer);
/** The announcer's counters (only `sent` counts for it). */
SHOAL_C_API int shoal_lan_announcer_stats(const shoal_lan_announcer* announcer,
                                          shoal_lan_stats* out_stats);
/** Stops announcing and destroys the announcer; NULL is a no-op. */
SHOAL_C_API int shoal_lan_announcer_destroy(shoal_lan_announcer* announcer);

/** Creates a seeker listening on config->port in *out_seeker (NULL on failure).
 *  SHOAL_ERROR_INVALID_ARGUMENT for a bad config, SHOAL_ERROR_NETWORK when the port cannot be
 *  bound. */
SHOAL_C_API int shoal_lan_seeker_create(const shoal_lan_config* config, shoal_lan_seeker** out_seeker);
/** Reads what has arrived without blocking: *out_found = 1 and *out_session filled with the
 *  first announcement of `session` (1..64 bytes), else *out_found = 0 and *out_session zeroed.
 *  Announcements of other sessions are skipped (and counted). */
SHOAL_C_API int shoal_lan_seeker_poll(shoal_lan_seeker* seeker, const char* session,
                                      shoal_lan_session* out_session, int32_t* out_found);
/** Same, waiting up to timeout_ms (>= 0) for an announcement of `session`. */
SHOAL_C_API int shoal_lan_seeker_find(shoal_lan_seeker* seeker, const char* session,
                                      int32_t timeout_ms, shoal_lan_session* out_session,
                                      int32_t* out_found);
/** The seeker's counters: e.g. how many announcements of other sessions it heard. */
SHOAL_C_API int shoal_lan_seeker_stats(const shoal_lan_seeker* seeker, shoal_lan_stats* out_stats);
/** Closes the seeker's socket and destroys it; NULL is a no-op. */
SHOAL_C_API int shoal_lan_seeker_destroy(shoal_lan_seeker* seeker);

/* ---------------------------------------------------------------- peer */

/** One game instance in a match (shoal::Peer). */
typedef struct shoal_peer shoal_peer;

/** What a peer reports (mirrors shoal::EventKind). */
typedef enum shoal_event_kind {
  SHOAL_EVENT_JOINED_MATCH = 0,        /**< this peer has an id and a synchronised clock (peer = own id) */
  SHOAL_EVENT_PEER_JOINED = 1,         /**< peer connected to this one */
  SHOAL_EVENT_PEER_LEFT = 2,           /**< peer left or stayed away too long; its objects passed on */
  SHOAL_EVENT_PEER_LOST = 3,           /**< peer timed out; its objects wait for the rejoin grace period */
  SHOAL_EVENT_PEER_REJOINED = 4,       /**< a lost peer came back in time */
  SHOAL_EVENT_OWNERSHIP_CHANGED = 5,   /**< object's owner became peer */
  SHOAL_EVENT_OVERRIDE_APPLIED = 6,    /**< an owner corrected object at frame, depth frames back */
  SHOAL_EVENT_SNAPPED = 7,             /**< object was too far behind to re-simulate: snapped */
  SHOAL_EVENT_DESYNC = 8,              /**< frame disagrees with peer's checksum for objects */
  SHOAL_EVENT_JOIN_FAILED = 9,         /**< gave up joining (since version 8): join_step says where, join_failure why,
                                            peer which member never answered (SHOAL_NO_PEER: the host) */
  SHOAL_EVENT_INCOMPATIBLE_PEER = 10,  /**< a peer of another wire version or snapshot encoding was refused, by this
                                            peer or by it; shoal_peer_event_reason names both values (since version 9) */
  SHOAL_EVENT_MESSAGE = 11             /**< a game message from peer, frame its tag (SHOAL_NO_FRAME: none); its bytes:
                                            shoal_peer_event_message (since version 12) */
} shoal_event_kind;

/** How a game message travels (mirrors shoal::Delivery; since version 12). */
typedef enum shoal_delivery {
  SHOAL_DELIVERY_RELIABLE = 0,         /**< arrives once, in order per sender, whatever the network loses */
  SHOAL_DELIVERY_UNRELIABLE = 1        /**< may be lost or reordered, never waits; apart from the snapshots */
} shoal_delivery;

/** The steps of joining a match, in order (mirrors shoal::JoinStep; since version 8). */
typedef enum shoal_join_step {
  SHOAL_JOIN_IDLE = 0,                 /**< neither host nor join yet */
  SHOAL_JOIN_CONNECTING = 1,           /**< reaching the host, asking for an id (retried) */
  SHOAL_JOIN_MESHING = 2,              /**< connecting to every member the host named (retried) */
  SHOAL_JOIN_SYNCING = 3,              /**< measuring the match clock against the host's */
  SHOAL_JOIN_BASELINES = 4,            /**< in the match, waiting for each older peer's baseline */
  SHOAL_JOIN_JOINED = 5,               /**< in the match with everything it needs */
  SHOAL_JOIN_FAILED = 6                /**< gave up: see SHOAL_EVENT_JOIN_FAILED */
} shoal_join_step;

/** Why a join failed (mirrors shoal::JoinFailure; since version 8). */
typedef enum shoal_join_failure {
  SHOAL_JOIN_FAILURE_NONE = 0,
  SHOAL_JOIN_FAILURE_NO_ANSWER = 1,    /**< the peer named (or the host) never answered in time */
  SHOAL_JOIN_FAILURE_REFUSED = 2,      /**< the host turned the request down */
  SHOAL_JOIN_FAILURE_HOST_LOST = 3,    /**< the host connection ended before the match started here */
  SHOAL_JOIN_FAILURE_INCOMPATIBLE = 4  /**< another wire version or snapshot encoding: see shoal_peer_event_reason (since version 9) */
} shoal_join_failure;

/** How far joining has come (shoal::JoinProgress). */
typedef struct shoal_join_progress {
  int32_t step;                        /**< a shoal_join_step */
  int32_t done;                        /**< the step's count so far (meshing: links; syncing: clock samples; baselines: peers) */
  int32_t needed;                      /**< ... of this many; 0 when the step counts nothing */
  int64_t elapsed_ms;                  /**< how long joining took, or has been trying */
} shoal_join_progress;

/** One event; fields that do not apply to its kind are SHOAL_NO_PEER, 0 or SHOAL_NO_FRAME. */
typedef struct shoal_event {
  int32_t kind;                        /**< a shoal_event_kind */
  uint16_t peer;                       /**< the peer concerned */
  uint32_t object;                     /**< the object concerned */
  int32_t frame;                       /**< the frame concerned */
  int32_t depth;                       /**< override: how many frames back it reached; sync-test desync: the rollback */
  uint32_t object_count;               /**< desync: entries of objects[] in use */
  int32_t objects_truncated;           /**< desync: 1 if it named more than SHOAL_EVENT_MAX_OBJECTS */
  uint32_t objects[SHOAL_EVENT_MAX_OBJECTS]; /**< desync: the disagreeing objects, the first ones */
  int32_t join_step;                   /**< join failed: the shoal_join_step it was stuck in (since version 8) */
  int32_t join_failure;                /**< join failed: a shoal_join_failure */
} shoal_event;

/** The main counters of shoal::PeerStats. */
typedef struct shoal_stats {
  int32_t frame;                       /**< newest simulated frame */
  uint32_t remote_count;               /**< remote peers, see shoal_peer_remote_stats */
  uint64_t overrides;                  /**< owner frames that replaced a differing own frame */
  uint64_t catchup_frames;             /**< frames re-simulated by catch-up */
  uint64_t snaps;                      /**< corrections too old to re-simulate */
  uint64_t ownership_changes;          /**< owner changes seen */
  uint64_t snapshots_sent;             /**< snapshot datagrams sent */
  uint64_t snapshots_received;         /**< snapshot datagrams received */
  uint64_t snapshot_bytes_sent;        /**< snapshot and ack bytes sent, Shoal header included */
  uint64_t baseline_misses;            /**< deltas whose baseline was missing (recovered) */
  uint64_t quantization_clamps;        /**< state fields clamped to the snapshot bounds */
  uint64_t desyncs;                    /**< desync checksums that disagreed */
  uint64_t owned_objects;              /**< objects this peer owns now */
  uint64_t frozen_objects;             /**< objects left out of the last step */
  uint64_t dropped_packets;            /**< bad or unwanted packets dropped, all reasons */
} shoal_stats;

/** The counters of what the game itself adds to the match (shoal::PeerStats): spawns and
 *  removals, its own messages, and the match's pace (since version 13; a struct of its own,
 *  so that shoal_stats keeps its size). */
typedef struct shoal_game_stats {
  uint64_t objects_spawned;            /**< spawns applied here, this peer's and the others' */
  uint64_t objects_removed;            /**< removals applied here, this peer's and the others' */
  uint64_t messages_sent;              /**< game messages sent (one per send, whatever the recipients) */
  uint64_t messages_received;          /**< game messages accepted and queued as events */
  uint64_t messages_queued;            /**< received and not taken by shoal_peer_poll_event yet */
  uint64_t rest_repairs_requested;     /**< resting objects whose owner was asked for its state */
  float pace;                          /**< the match's speed, a fraction of tick_hz: below 1 while slowed */
} shoal_game_stats;

/** One remote peer's link, smoothed over about a second. */
typedef struct shoal_remote_stats {
  uint16_t peer;                       /**< its id */
  float rtt_ms;                        /**< round-trip time */
  float rtt_variance_ms;               /**< round-trip jitter */
  float packet_loss;                   /**< measured loss of what it sends, 0..1 */
  float packets_out_per_s;             /**< datagrams sent to it per second */
  float packets_in_per_s;              /**< datagrams from it per second */
  float bytes_out_per_s;               /**< bytes sent to it per second, headers included */
  float bytes_in_per_s;                /**< bytes from it per second, headers included */
} shoal_remote_stats;

/** One change of an object's owner, as the peer applied it (shoal::OwnershipHistoryEntry; since
 *  version 15). */
typedef struct shoal_ownership_change {
  int32_t frame;                       /**< the frame from which the new owner's state counts */
  uint16_t owner;                      /**< the new owner */
  uint16_t author;                     /**< who made the change (the claimant, or the one handing over) */
  uint32_t sequence;                   /**< the object's change counter (the higher wins a race) */
  int32_t applied_at;                  /**< the peer's newest frame when it applied the change */
} shoal_ownership_change;

/** What a peer knows of one object at one frame (shoal::ObjectDiagnosis; since version 15), for
 *  finding out why peers disagree on it: its state there, who owns it and since when, whether the
 *  peer simulates it, and what its owner last said of it. */
typedef struct shoal_object_diagnosis {
  uint32_t object;                     /**< the object asked about */
  int32_t frame;                       /**< the frame asked about */
  int32_t held;                        /**< 1: that frame is in the peer's history (state is valid) */
  int32_t confirmed;                   /**< 1: ... and state is its owner's own (not the peer's guess) */
  shoal_object_state state;            /**< at frame, when held */
  uint16_t owner;                      /**< its owner now */
  int32_t frozen;                      /**< 1: left out of the peer's last step (outside its simulated region) */
  uint32_t ownership_count;            /**< entries of ownership[] in use */
  shoal_ownership_change ownership[SHOAL_OWNERSHIP_HISTORY]; /**< its last owner changes, oldest first */
  int32_t last_owner_frame;            /**< the newest frame of it its owner sent that the peer took in (SHOAL_NO_FRAME: none, or the peer owns it) */
  int32_t last_owner_frame_at;         /**< the peer's newest frame when last_owner_frame arrived */
  uint64_t overrides;                  /**< owner frames of it that differed from the peer's own */
  int32_t owner_said;                  /**< 1: owner_said_frame and owner_said_state are valid */
  int32_t owner_said_frame;            /**< the frame of owner_said_state */
  shoal_object_state owner_said_state; /**< what its owner last said of it in a snapshot, as received (quantised) */
} shoal_object_diagnosis;

/** Creates a peer on the reference physics. Always takes `transport`, even on failure (it is
 *  then destroyed): never use it after the call. The world must outlive the peer. */
SHOAL_C_API int shoal_peer_create_with_world(const shoal_peer_config* config, shoal_world* world,
                                             shoal_transport* transport, shoal_peer** out_peer);
/** Same on a game's simulation, which must outlive the peer; one peer per simulation. */
SHOAL_C_API int shoal_peer_create_with_simulation(const shoal_peer_config* config,
                                                  shoal_simulation* simulation,
                                                  shoal_transport* transport,
                                                  shoal_peer** out_peer);
/** Destroys a peer and its transport (without a goodbye: see leave); NULL is a no-op. */
SHOAL_C_API int shoal_peer_destroy(shoal_peer* peer);

/** Starts a match as its host (peer 0); the match starts at the next update. */
SHOAL_C_API int shoal_peer_host(shoal_peer* peer);
/** Records everything that reaches the peer from now on to the file at `path` (shoal::Peer::record),
 *  for shoal::Replay / shoal-replay; `world` (world_size bytes, may be NULL with 0) describes the
 *  game's world for whoever replays it. Before shoal_peer_host/join (else SHOAL_ERROR_INVALID_STATE);
 *  a file that cannot be written is SHOAL_ERROR_INVALID_ARGUMENT. Since version 8. */
SHOAL_C_API int shoal_peer_record(shoal_peer* peer, const char* path, const uint8_t* world, size_t world_size);
/** Joins the match hosted at host:port; SHOAL_EVENT_JOINED_MATCH follows. */
SHOAL_C_API int shoal_peer_join(shoal_peer* peer, const char* host, uint16_t port);
/** Leaves gracefully so the others take over at once; blocks up to 250 ms. */
SHOAL_C_API int shoal_peer_leave(shoal_peer* peer);
/** Sets the object the local player drives. */
SHOAL_C_API int shoal_peer_set_controlled(shoal_peer* peer, uint32_t object);
/** Input for the frames simulated from now on, until changed. */
SHOAL_C_API int shoal_peer_set_input(shoal_peer* peer, const shoal_input* input);
/** The game's own input bytes for the frames simulated from now on, until changed (since version
 *  12): `size` (0..input_bytes of the config) bytes; the rest of the input's bytes become 0.
 *  Kept beside the axis and buttons of shoal_peer_set_input, which leaves them as they are. */
SHOAL_C_API int shoal_peer_set_input_bytes(shoal_peer* peer, const uint8_t* bytes, uint32_t size);
/** Receives, catches up, steps the frames due by the steady clock, sends; once per render frame. */
SHOAL_C_API int shoal_peer_update(shoal_peer* peer);
/** Same at an explicit time (us on any monotonic clock), e.g. the memory network's time. */
SHOAL_C_API int shoal_peer_update_at(shoal_peer* peer, int64_t now_us);
/** Blocks until traffic arrives or timeout_ms (>= 0) pass, for loops without vsync (bots, servers). */
SHOAL_C_API int shoal_peer_wait(shoal_peer* peer, int32_t timeout_ms);
/** Takes the next event into *out_event: returns 1 if there was one, 0 if none, < 0 on error. */
SHOAL_C_API int shoal_peer_poll_event(shoal_peer* peer, shoal_event* out_event);
/** Why the last event polled happened, for SHOAL_EVENT_INCOMPATIBLE_PEER and an incompatible
 *  SHOAL_EVENT_JOIN_FAILED (e.g. "wire versions differ: the host speaks wire version 8, the
 *  joiner 9"); "" for other events or a NULL peer. Valid until the next poll. Since version 9. */
SHOAL_C_API const char* shoal_peer_event_reason(const shoal_peer* peer);
/** Sends a game message (since version 12, shoal::Peer::send_message): `size` bytes (NULL with 0
 *  is an empty message) to peer `to`, or to every other peer with SHOAL_NO_PEER, as a
 *  shoal_delivery, tagged with `frame` (SHOAL_NO_FRAME: none). Returns 1 when sent, 0 when it
 *  would exceed this peer's message rate (nothing sent: try later), < 0 on error:
 *  SHOAL_ERROR_INVALID_ARGUMENT for too many bytes, a bad delivery or frame, or a `to` that is no
 *  other live peer; SHOAL_ERROR_INVALID_STATE outside the match. */
SHOAL_C_API int shoal_peer_send_message(shoal_peer* peer, uint16_t to, const uint8_t* bytes, size_t size,
                                        int32_t delivery, int32_t frame);
/** The last event polled, when a SHOAL_EVENT_MESSAGE (since version 12): *out_bytes and
 *  *out_size its bytes (valid until the next poll), *out_reliable 1 if it came reliably. Any
 *  out-pointer may be NULL. SHOAL_ERROR_INVALID_STATE when the last event was no message. */
SHOAL_C_API int shoal_peer_event_message(const shoal_peer* peer, const uint8_t** out_bytes, size_t* out_size,
                                         int32_t* out_reliable);
/** Changes the simulated network of the peer's transport at run time. */
SHOAL_C_API int shoal_peer_set_conditions(shoal_peer* peer, const shoal_conditioner* conditions);

/** *out_in_match = 1 once hosting or joined with a synchronised clock, else 0. */
SHOAL_C_API int shoal_peer_in_match(const shoal_peer* peer, int32_t* out_in_match);
/** *out_progress = which step of joining the peer is in, with its progress (since version 8). */
SHOAL_C_API int shoal_peer_join_progress(const shoal_peer* peer, shoal_join_progress* out_progress);
/** *out_id = this peer's id, SHOAL_NO_PEER until it hosts or joins. */
SHOAL_C_API int shoal_peer_id(const shoal_peer* peer, uint16_t* out_id);
/** *out_frame = the newest simulated frame, SHOAL_NO_FRAME before the first. */
SHOAL_C_API int shoal_peer_frame(const shoal_peer* peer, int32_t* out_frame);
/** Live peers, self included, ascending: writes up to `capacity` ids, *out_count = how many exist. */
SHOAL_C_API int shoal_peer_peers(const shoal_peer* peer, uint16_t* out_ids, uint32_t capacity,
                                 uint32_t* out_count);
/** The object's simulation state at the newest frame (what is simulated and sent). */
SHOAL_C_API int shoal_peer_state(const shoal_peer* peer, uint32_t object,
                                 shoal_object_state* out_state);
/** The object's state at a frame still in the history (to compare peers at one frame). */
SHOAL_C_API int shoal_peer_state_at(const shoal_peer* peer, uint32_t object, int32_t frame,
                                    shoal_object_state* out_state);
/** What to draw for the object: smoothed and render-interpolated. */
SHOAL_C_API int shoal_peer_visual(const shoal_peer* peer, uint32_t object,
                                  shoal_visual_state* out_visual);
/** Every body's visual state in one call (since version 14), in body order (the order the
 *  bodies were added; shoal_peer_objects gives their ids): writes up to `capacity` of them,
 *  *out_count = how many bodies there are. For drawing many objects per frame. */
SHOAL_C_API int shoal_peer_visuals(const shoal_peer* peer, shoal_visual_state* out_visuals, uint32_t capacity,
                                   uint32_t* out_count);
/** The object id of every body, in the order of shoal_peer_visuals (since version 14): writes
 *  up to `capacity`, *out_count = how many bodies there are. */
SHOAL_C_API int shoal_peer_objects(const shoal_peer* peer, uint32_t* out_ids, uint32_t capacity,
                                   uint32_t* out_count);
/** *out_owner = the object's owner, SHOAL_NO_PEER before the match. */
SHOAL_C_API int shoal_peer_owner(const shoal_peer* peer, uint32_t object, uint16_t* out_owner);
/** Where other peers reach this one (the actual port when bound to port 0). */
SHOAL_C_API int shoal_peer_address(const shoal_peer* peer, shoal_address* out_address);
/* Objects spawned during play (since version 12; docs/spawning.md). The simulation needs spawn
 * slots: shoal_world_add_spawn_slots, or shoal_simulation_set_spawning. */

/** What shoal_peer_spawned_object tells of a live spawned object. */
typedef struct shoal_spawned_object {
  uint32_t object;                     /**< its id (it carries the spawner) */
  uint16_t type;                       /**< the game-defined type given to shoal_peer_spawn */
  uint16_t spawner;                    /**< the peer that spawned it */
  uint16_t owner;                      /**< its owner now: the spawner, or the default owner once the spawner left */
  int32_t frame;                       /**< the frame it was spawned in, as the spawner named it */
  uint32_t byte_count;                 /**< bytes of bytes[] in use */
  uint8_t bytes[SHOAL_MAX_SPAWN_BYTES]; /**< its spawn bytes */
} shoal_spawned_object;

/** Spawns an object of game-defined `type` in *state, owned by this peer, from the next frame on
 *  every peer; *out_object = its id. `bytes` (size of them, at most max_spawn_bytes; NULL with 0)
 *  reach every peer's add_body. SHOAL_ERROR_INVALID_STATE before the match, without spawn slots
 *  or past the limits (live objects, spawns per second); SHOAL_ERROR_INVALID_ARGUMENT for a type
 *  the simulation does not spawn, a non-finite state or too many bytes. */
SHOAL_C_API int shoal_peer_spawn(shoal_peer* peer, uint16_t type, const shoal_object_state* state,
                                 const uint8_t* bytes, uint32_t size, uint32_t* out_object);
/** Removes a spawned object this peer owns, from the next frame, on every peer.
 *  SHOAL_ERROR_UNKNOWN_OBJECT for an object that is no live spawned one; SHOAL_ERROR_INVALID_STATE
 *  when another peer owns it. */
SHOAL_C_API int shoal_peer_remove(shoal_peer* peer, uint32_t object);
/** The live spawned objects, ascending id: writes up to `capacity` ids, *out_count = how many live. */
SHOAL_C_API int shoal_peer_spawned_objects(const shoal_peer* peer, uint32_t* out_ids, uint32_t capacity,
                                           uint32_t* out_count);
/** A live spawned object's type, spawner, owner, frame and spawn bytes;
 *  SHOAL_ERROR_UNKNOWN_OBJECT for any other id. */
SHOAL_C_API int shoal_peer_spawned_object(const shoal_peer* peer, uint32_t object, shoal_spawned_object* out_object);

/** What the peer knows of `object` at `frame` (since version 15, shoal::Peer::diagnose): a frame
 *  outside the history is no error (held = 0). SHOAL_ERROR_UNKNOWN_OBJECT for an id that is no body. */
SHOAL_C_API int shoal_peer_diagnose(const shoal_peer* peer, uint32_t object, int32_t frame,
                                    shoal_object_diagnosis* out_diagnosis);
/** The peer's counters. */
SHOAL_C_API int shoal_peer_stats(const shoal_peer* peer, shoal_stats* out_stats);
/** The counters of the game's own spawns, removals and messages, and the match's pace
 *  (since version 13). */
SHOAL_C_API int shoal_peer_game_stats(const shoal_peer* peer, shoal_game_stats* out_stats);
/** What the peer dropped of what it received, by reason (since version 15, shoal::PeerStats::dropped):
 *  writes out_counts[r] for each shoal_drop_reason r below `count` (SHOAL_DROP_REASON_COUNT for
 *  all; the rest of a longer array becomes 0). */
SHOAL_C_API int shoal_peer_drops(const shoal_peer* peer, uint64_t* out_counts, uint32_t count);
/** Remote peer number `index` (0..remote_count-1 of shoal_stats) and its link. */
SHOAL_C_API int shoal_peer_remote_stats(const shoal_peer* peer, uint32_t index,
                                        shoal_remote_stats* out_stats);

#ifdef __cplusplus
}
#endif

#endif /* SHOAL_SHOAL_H */
