// SPDX-License-Identifier: MIT
// shoal::Peer — one game instance in a match. The game gives it a config, its physics
// (a Simulation) and a Transport; then once per render frame it feeds the local player's input,
// calls update(), draws visual(...) and handles poll_event(...).
//
//   shoal::ReferencePhysics physics(physics_config);        // or the game's own adapter
//   ...add bodies, the same on every peer...
//   shoal::Peer peer(config, physics, shoal::make_enet_transport({}));
//   peer.host();                     // or peer.join({"192.168.1.20", 40000});
//   peer.set_controlled(my_ball_id);
//   while (running) {
//     peer.set_input(read_keyboard());
//     peer.update();
//     for (shoal::Event e; peer.poll_event(e);) { ... }
//     draw(peer.visual(id)) for every object;
//   }
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "shoal/authority_config.hpp"
#include "shoal/diagnosis.hpp"
#include "shoal/drop_reason.hpp"
#include "shoal/events.hpp"
#include "shoal/join.hpp"
#include "shoal/simulation.hpp"
#include "shoal/smoothing.hpp"
#include "shoal/snapshot_config.hpp"
#include "shoal/state.hpp"
#include "shoal/transport.hpp"

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
  /// Simulate only the simulated region (authority.simulated_radius around the controlled
  /// object's core), the objects this peer owns and every player's controlled object; the rest
  /// is frozen (Simulation::set_frozen) until it comes near, when its owner's snapshots bring
  /// it up to date. Needs an engine that implements set_frozen (the reference physics does);
  /// a peer that controls nothing simulates everything.
  bool freeze_outside_simulated_region = true;
  AuthorityConfig authority;  ///< regions, ownership claims and hand-over
  SmoothingRules smoothing = SmoothingRules{};  ///< how corrections are blended into what is drawn, per body type
  /// Sync-test mode (as in GGPO): every frame, roll back this many frames and re-simulate,
  /// raising a desync event if the result differs bit for bit. 0 = off.
  int sync_test_frames = 0;
  /// Time each phase of update() (PeerStats::cost): about ten steady-clock reads per update
  /// and two per physics step. Off, no clock is read.
  bool measure_update_cost = false;
};

/// Where update() spent its time, summed since the peer was created (nanoseconds of the steady
/// clock; all zero unless PeerConfig::measure_update_cost). The fields partition update():
/// they add up to total_ns exactly. Physics, straight and re-simulated, is the Simulation's
/// step() and is taken out of the phase it ran in; every other field is Shoal's own work.
struct UpdateCost {
  std::uint64_t updates = 0;     ///< update() calls measured
  std::int64_t receive_ns = 0;   ///< draining the transport: decoding, comparing owner frames
  std::int64_t correct_ns = 0;   ///< applying overrides: catch-up bookkeeping, snaps
  std::int64_t step_ns = 0;      ///< recording stepped frames, quantising them, sync-test mode
  std::int64_t authority_ns = 0; ///< regions and ownership
  std::int64_t send_ns = 0;      ///< snapshots, acks and checksums
  std::int64_t present_ns = 0;   ///< smoothing and render interpolation
  std::int64_t session_ns = 0;   ///< membership, time sync and the rest
  std::int64_t physics_ns = 0;   ///< Simulation::step() of frames stepped for the first time
  std::int64_t resimulated_physics_ns = 0;  ///< Simulation::step() re-run by catch-up
  std::int64_t total_ns = 0;     ///< update() as a whole

  /// Shoal's own work: everything but the physics.
  std::int64_t sdk_ns() const {
    return receive_ns + correct_ns + step_ns + authority_ns + send_ns + present_ns + session_ns;
  }
};

/// Statistics of the link to one remote peer.
struct RemotePeerStats {
  PeerId peer = kNoPeer;  ///< the remote peer
  /// The transport's figures, except packet_loss: measured from the gaps in that peer's
  /// snapshot sequence numbers (all traffic, not only ENet's reliable packets).
  LinkStats link;
};

/// What a Peer has done so far (Peer::stats); counters grow from its construction.
struct PeerStats {
  Frame frame = kNoFrame;  ///< the newest frame simulated
  std::uint64_t overrides = 0;        ///< owner frames that replaced a differing own frame
  /// Owner frames of moving objects that differed only within CompareTolerance: left to a
  /// later catch-up (or, once overdue, counted in overrides).
  std::uint64_t tolerated = 0;
  std::uint64_t catchup_frames = 0;   ///< frames re-simulated by catch-up
  std::uint64_t snaps = 0;            ///< corrections too old to re-simulate
  std::uint64_t ownership_changes = 0;  ///< ownership changes applied
  std::uint64_t snapshots_sent = 0;        ///< snapshot datagrams sent
  std::uint64_t snapshots_received = 0;    ///< snapshot datagrams received
  std::uint64_t snapshot_bytes_sent = 0;   ///< snapshot and ack datagrams, Shoal header included
  std::uint64_t baseline_misses = 0;       ///< deltas whose baseline was not held (recovered)
  /// Others' objects that came to rest here somewhere else than their owner last said: the
  /// owner was asked for its state (this peer's simulation had gone its own way).
  std::uint64_t rest_repairs_requested = 0;
  std::uint64_t quantization_clamps = 0;   ///< state fields clamped to the snapshot bounds
  std::uint64_t desyncs = 0;  ///< checksums of confirmed frames that disagreed with a peer's (EventKind::desync)
  std::size_t owned_objects = 0;  ///< objects this peer owns now
  std::size_t frozen_objects = 0;     ///< left out of the last step (outside the simulated region)
  DropCounters dropped;               ///< bad or unwanted packets, by reason
  UpdateCost cost;                    ///< where update() spent its time (when measured)
  std::vector<RemotePeerStats> remotes;  ///< one entry per connected remote peer
};

/// One player's end of a match: hosts or joins, steps the shared world, sends what it owns and
/// corrects what others own. See docs/concepts.md.
class Peer {
 public:
  /// Throws std::invalid_argument when the config is invalid (the message says which field
  /// and what it expects). The simulation must outlive the peer.
  Peer(const PeerConfig& config, Simulation& simulation, std::unique_ptr<Transport> transport);
  ~Peer();
  Peer(const Peer&) = delete;
  Peer& operator=(const Peer&) = delete;

  /// Starts a match as its host (peer 0, frame 0 is now).
  void host();
  /// Joins the match hosted at `host`; joined_match follows once the clock is synchronised,
  /// and join_progress() says `joined` once every older peer's baseline arrived too. Past
  /// PeerConfig::join_timeout_ms, join_failed says where it was stuck instead.
  void join(const Address& host);
  /// Records everything that reaches this peer from now on (config, datagrams with their times,
  /// inputs, update times) to `path`, so that shoal::Replay (shoal/recording.hpp) can run it
  /// again bit for bit. `world` describes the game's world for whoever replays it (opaque to
  /// Shoal: e.g. a level name and seed). Call before host() or join(); throws
  /// std::logic_error after, std::runtime_error when the file cannot be written. Costs a few
  /// appends per update and about the bytes received (see the README's figures).
  void record(const std::string& path, std::span<const std::uint8_t> world = {});
  /// Leaves the match gracefully; the others hand this peer's objects to the default owner
  /// at once. Blocks up to 250 ms so that the goodbye actually leaves.
  void leave();

  /// The object the local player drives (kNoObject-like values are rejected).
  void set_controlled(ObjectId object);
  /// Input for the frames simulated from now on, until changed.
  void set_input(const Input& input);

  /// Runs the frames that are due by the steady clock, then refreshes visual states.
  void update();
  /// Same, at an explicit time (microseconds on any monotonic clock): for tests and replays.
  void update_at(std::int64_t now_us);

  bool poll_event(Event& event);  ///< Takes the next event (shoal/events.hpp) into `event`; false when there is none.

  /// Blocks until network traffic arrives or timeout_ms pass, for headless loops (servers,
  /// bots, tests) that have no vsync to pace them. A game that renders never needs it.
  void wait(int timeout_ms);

  /// What to draw: the smoothed, render-interpolated state. Throws for an unknown object.
  VisualState visual(ObjectId object) const;
  /// The simulation state at the newest frame (what is simulated and sent).
  ObjectState state(ObjectId object) const;
  /// The simulation state at a frame still held in the history, for comparing peers.
  std::optional<ObjectState> state_at(ObjectId object, Frame frame) const;
  PeerId owner(ObjectId object) const;  ///< the object's owner now (kNoPeer before the match)
  /// What this peer knows of the object at `frame` (shoal/diagnosis.hpp): for finding out why
  /// peers disagree on it. Throws for an unknown object. Not for every frame: it copies.
  ObjectDiagnosis diagnose(ObjectId object, Frame frame) const;

  PeerId id() const;          ///< kNoPeer until hosted or joined
  bool in_match() const;  ///< hosting, or joined and synchronised
  /// Which step of joining the peer is in (shoal/join.hpp), with its progress.
  JoinProgress join_progress() const;
  Frame frame() const;  ///< the newest frame simulated (kNoFrame before the match)
  std::vector<PeerId> peers() const;  ///< live peers, self included, ascending
  PeerStats stats() const;  ///< counters and link figures so far
  Address address() const;    ///< where other peers reach this one

  /// Changes the transport's simulated network at run time (every link, both directions as
  /// configured): the Peer owns its transport, so games and tools reach it through here.
  void set_conditions(const ConditionerConfig& conditions);

 private:
  friend class ReplaySession;  // sets the recorded secret on the peer it replays
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace shoal
