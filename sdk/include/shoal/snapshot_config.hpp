// SPDX-License-Identifier: MIT
// How snapshots are encoded and what each remote peer is sent within its byte budget.
// The encoding fields (quantize ... max_baseline_age_frames) must be the same on every peer of
// a match, like the physics: they decide the values every peer simulates.
#pragma once

#include "shoal/math.hpp"

namespace shoal {

/// How snapshots are encoded (equal on every peer of a match) and what each remote peer is sent
/// within its byte budget.
struct SnapshotConfig {
  // --- encoding ---
  /// Quantise positions, orientations and velocities, on the owner and on every receiver
  /// after every step (so exact compare is meaningful). false = raw 32-bit floats, no delta.
  bool quantize = true;
  /// Also send the (zero) velocities of objects at rest. Only for measuring what omitting them
  /// saves; at rest means zero velocities either way.
  bool velocities_at_rest = false;
  /// Encode each object relative to the newest state of it the receiver has acknowledged.
  bool delta = true;
  /// Positions outside these bounds are clamped (and counted).
  Vec3 world_min{-500, -50, -500};
  Vec3 world_max{500, 200, 500};  ///< see world_min
  float position_units_per_m = 4096;  ///< 1/4096 m = 0.24 mm steps
  int orientation_bits = 15;          ///< per smallest-three component, 8..20
  float max_linear_speed_mps = 50;    ///< faster is clamped (and counted)
  float max_angular_speed_radps = 50;  ///< faster spins are clamped (and counted)
  float velocity_units_per_mps = 512;  ///< also units per rad/s for angular velocity
  /// Older baselines are not used: the object is sent whole. 1..1056 frames.
  int max_baseline_age_frames = 600;
  /// Bytes of the game's own input per frame (Input::bytes), 0..kMaxInputBytes: sent with
  /// every input, with the same redundancy and delay, replayed in catch-ups. An encoding field:
  /// the same on every peer.
  int input_bytes = 0;

  // --- priority and budget (per remote peer) ---
  /// Send by priority within the budget below; false = every due object every interval
  /// (PeerConfig::snapshot_interval_frames, rest_snapshot_interval_frames), unbounded.
  bool prioritize = true;
  int packet_budget_bytes = 1200;  ///< largest snapshot datagram, 64..1200
  /// Per remote peer, counting 40 bytes of ENet, UDP and IP headers per packet.
  int bytes_per_second = 24000;
  float rest_priority = 0.05f;         ///< moving objects have priority 1
  float controlled_priority = 8;       ///< any peer's controlled object
  float came_to_rest_priority = 2;     ///< at rest, until the receiver acknowledges it at rest
  /// An object at rest whose very state the receiver acknowledged tells it nothing new: it is
  /// sent again only once its accumulated priority reaches rest_priority x this many seconds
  /// (later for far or irrelevant objects), not whenever the budget has room. Receivers find
  /// most drifted copies themselves (a copy their own physics moved, once it rests, is checked
  /// against the owner's last record, and the owner asked for its state where they differ):
  /// this refresh is the backstop for what that misses. 0 = whenever the budget has room. >= 0.
  float settled_refresh_s = 10;
  /// A moving object that no player touches or is about to (within 0.1 s, whether or not a
  /// core region holds it: a core takes in what a player may reach within T_predict) moves by
  /// the physics alone, which every peer reproduces from the same state. It waits until its
  /// accumulated priority reaches this many frames' worth: it goes about every N frames near
  /// the receiver, less often farther away. Owner frames of such objects nearly always confirm
  /// what receivers simulated; resending them every frame costs both sides for little. Only
  /// once the receiver has acknowledged it moving, in a frame after a player last touched it
  /// (or such a record is on its way), and only with quantize, which acknowledges: that it
  /// started to move, or how a player pushed it, goes at once. 1 = like any moving object. 1..600.
  int coasting_interval_frames = 3;
  /// Network level of detail: priority falls linearly from 1 at lod_near_m to lod_far_factor
  /// at lod_far_m from the receiver's controlled object (no fall-off when it controls none).
  float lod_near_m = 10;
  float lod_far_m = 40;  ///< see lod_near_m
  float lod_far_factor = 0.1f;  ///< priority factor at and beyond lod_far_m
};

}  // namespace shoal
