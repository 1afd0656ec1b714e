// SPDX-License-Identifier: MIT
// What a peer is configured with: timing, history depth, how owner frames are compared,
// snapshot encoding, regions and ownership, smoothing. Plain values, the same on every peer of
// a match where the match's consistency depends on them (see PeerConfig's fields).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "shoal/authority_config.hpp"
#include "shoal/log.hpp"
#include "shoal/messages.hpp"
#include "shoal/smoothing.hpp"
#include "shoal/snapshot_config.hpp"

namespace shoal {

/// How a received owner frame is compared with the peer's own frame of the same number.
/// A difference is an override: the peer re-simulates its simulated region from that frame
/// (catch-up). Differences of a fraction of a millimetre between moving objects are invisible,
/// and catching up on each one bit for bit nearly doubles the physics a busy match costs, so by
/// default they are tolerated for a while: the next catch-up (which injects every owner frame
/// from its start on) corrects them anyway, and one that no catch-up corrects within
/// `tolerated_frames` gets a catch-up of its own. Frames where either side has the object at
/// rest are always compared bit for bit, so a settled world ends with the owners' exact states
/// (quantised on both sides) on every peer.
struct CompareTolerance {
  bool exact = false;  ///< bitwise for every frame; else the tolerances below while moving
  float position_m = 0.001f;  ///< position difference tolerated while moving
  float rotation_rad = 0.001f;  ///< orientation difference tolerated while moving
  float linear_velocity_mps = 0.01f;  ///< linear velocity difference tolerated while moving
  float angular_velocity_radps = 0.01f;  ///< angular velocity difference tolerated while moving
  /// Frames a difference within tolerance may stand before it is caught up on by itself
  /// (>= 1): bounds how long peers hold different bits of a moving object.
  int tolerated_frames = 30;
};

enum class CatchupScope : std::uint8_t {
  region,  ///< re-simulate the whole simulated region from the overridden frame
  object,  ///< re-simulate the overridden objects and what they touch; the rest replays
};

/// The match's pace: when a peer cannot simulate its frames as fast as the timeline runs (an
/// overloaded machine), the host slows the whole match's timeline, as GGPO's wait frames do,
/// and speeds it up again once every peer keeps up. A slower match, not a spiral: a peer
/// behind the timeline sends old frames, whose overrides cost everyone catch-ups.
/// PeerStats::pace says how fast the match runs now.
struct PaceConfig {
  bool enabled = true;     ///< false: the timeline always runs at tick_hz, whoever lags
  float min_rate = 0.25f;  ///< the slowest the match may run, as a fraction of tick_hz, (0, 1]
  /// A peer that had at least this many frames due and not simulated after every update of a
  /// quarter second is lagging (a hitch that clears at the next update is not). >= 1.
  int lag_frames = 3;
  float decrease = 0.85f;  ///< the rate is multiplied by this while someone lags, (0, 1)
  float increase = 0.05f;  ///< and raised by this once nobody has lagged for recover_ms, (0, 1]
  int interval_ms = 250;   ///< how often the rate may change, >= 1
  int recover_ms = 2000;   ///< how long nobody must lag before the match speeds up, >= 1
};

/// Objects spawned during play (Peer::spawn); only with a Simulation that has spawn slots.
struct SpawnConfig {
  /// Live spawned objects per peer, 1..65535. Each peer spawns into its own range of this many
  /// slots (range peer mod (slots / this)), so the simulation needs at least this many slots
  /// per peer that may spawn; fewer ranges than peers make peers share one, which the
  /// receivers then refuse as bad_spawn.
  std::size_t max_objects_per_peer = 64;
  /// Spawns per second one peer may make, averaged over a second, 1..10000: more from a remote
  /// peer are dropped as over_limit; Peer::spawn throws past it.
  int max_spawns_per_second = 60;
  /// The most spawn bytes one spawn may carry (Peer::spawn), 0..kMaxSpawnBytes: a longer
  /// spawn from a remote peer is dropped as bad_spawn; Peer::spawn throws. Every peer keeps
  /// this many per spawn slot and history frame, so a game that needs none saves that memory.
  std::size_t max_spawn_bytes = 32;
  /// Types whose objects are removed when their owner leaves the match (projectiles); the
  /// objects of every other type pass to the default owner.
  std::vector<std::uint16_t> removed_on_leave;
};

/// Everything a Peer is configured with; the defaults suit a 60 Hz game on a LAN or the internet.
/// Fields that decide what every peer simulates (tick_hz, snapshots' encoding) must be equal on
/// every peer: joins with other encodings are refused.
struct PeerConfig {
  std::string session = "shoal";  ///< peers join only a host of the same session name
  float tick_hz = 60;  ///< fixed steps per second, the same on every peer
  int history_frames = 64;               ///< how far back a correction can re-simulate
  int max_clock_catchup_frames = 4;      ///< frames one update may advance when behind
  int max_resimulated_frames = 32;       ///< catch-up work per update, in frames
  int snapshot_interval_frames = 1;      ///< owners send (moving objects, inputs) every N frames
  /// Objects at rest are sent this rarely (when snapshots.prioritize is off).
  int rest_snapshot_interval_frames = 30;
  int input_redundancy = 4;              ///< past inputs carried by each snapshot
  /// Frames between set_input() and the frame the input applies to (GGPO's frame delay).
  /// Each snapshot carries the inputs of the frames ahead, so remote peers know a player's
  /// input before they simulate its frame instead of predicting it: with a delay that covers
  /// the one-way latency, a remote player's own pushes cause no re-simulation at all. The cost
  /// is that the local player's controls answer this many frames later. 0..16; 0 = none.
  int input_delay_frames = 0;
  int checksum_interval_frames = 60;     ///< 0 disables desync detection
  /// Time sync keeps each peer's last 64 pongs: at 100 ms that is 6.4 s, long enough for the
  /// quickest legs to see through 80 ms of jitter; much faster pings shorten that window.
  /// A joiner pings four times as often (at least every 10 ms apart) until it holds 32 of the
  /// host's pongs, so that its first estimate does not rest on a handful.
  int ping_interval_ms = 100;
  /// A peer that times out keeps its id and its objects this long, so that it can rejoin
  /// after a network hiccup; 0 hands its objects to the default owner at once.
  int rejoin_grace_ms = 5000;
  /// How long join() may take, every step included (shoal/join.hpp); past it the join fails
  /// with EventKind::join_failed naming the step it was stuck in. Each step retries what the
  /// network loses meanwhile. 100..600000.
  int join_timeout_ms = 10000;
  CompareTolerance compare;  ///< when an owner frame differs enough to override this peer's own
  SnapshotConfig snapshots;              ///< encoding, priority and byte budget
  CatchupScope catchup = CatchupScope::region;  ///< what a catch-up re-simulates
  PaceConfig pace;  ///< slowing the match while a peer cannot keep up
  /// Simulate only the simulated region (authority.simulated_radius around the controlled
  /// object's core), the objects this peer owns and every player's controlled object; the rest
  /// is frozen (Simulation::set_frozen) until it comes near, when its owner's snapshots bring
  /// it up to date. Needs an engine that implements set_frozen (the reference physics does);
  /// a peer that controls nothing simulates everything.
  bool freeze_outside_simulated_region = true;
  AuthorityConfig authority;  ///< regions, ownership claims and hand-over
  SmoothingRules smoothing = SmoothingRules{};  ///< how corrections are blended into what is drawn, per body type
  SpawnConfig spawning;  ///< limits of objects spawned during play, and what a leaving owner's become
  MessageConfig messages;  ///< limits of game messages, sent and received (Peer::send_message)
  /// Where log lines go: why Shoal dropped, snapped or expelled something (shoal/log.hpp).
  /// Not part of a recording, and not compared between peers.
  LogConfig log;
  /// Sync-test mode (as in GGPO): every frame, roll back this many frames and re-simulate,
  /// raising a desync event if the result differs bit for bit. 0 = off.
  int sync_test_frames = 0;
  /// Time each phase of update() (PeerStats::cost): about ten steady-clock reads per update
  /// and two per physics step. Off, no clock is read.
  bool measure_update_cost = false;
};

}  // namespace shoal
