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

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "shoal/diagnosis.hpp"
#include "shoal/drop_reason.hpp"
#include "shoal/events.hpp"
#include "shoal/histogram.hpp"
#include "shoal/join.hpp"
#include "shoal/messages.hpp"
#include "shoal/peer_config.hpp"
#include "shoal/security.hpp"
#include "shoal/simulation.hpp"
#include "shoal/state.hpp"
#include "shoal/transport.hpp"
#include "shoal/update_cost.hpp"

namespace shoal {



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
  /// Others' objects that came to rest here somewhere else than their owner last said, or kept
  /// moving here while their owner said nothing of it: the owner was asked for its state (this
  /// peer's simulation had gone its own way).
  std::uint64_t rest_repairs_requested = 0;
  std::uint64_t quantization_clamps = 0;   ///< state fields clamped to the snapshot bounds
  std::uint64_t desyncs = 0;  ///< checksums of confirmed frames that disagreed with a peer's (EventKind::desync)
  std::uint64_t objects_spawned = 0;  ///< spawns applied here, this peer's and the others' (Peer::spawn)
  std::uint64_t objects_removed = 0;  ///< removals applied here, this peer's and the others'
  std::uint64_t messages_sent = 0;      ///< game messages sent (one per send_message, whatever the recipients)
  std::uint64_t messages_received = 0;  ///< game messages accepted and queued as events
  /// Game messages received and not taken by poll_event yet, every sender's.
  std::size_t messages_queued = 0;
  std::size_t owned_objects = 0;  ///< objects this peer owns now
  /// How fast the match's timeline runs now, as a fraction of tick_hz: below 1 while the host
  /// slows it for a peer that cannot keep up (PaceConfig).
  float pace = 1.0f;
  std::size_t frozen_objects = 0;     ///< left out of the last step (outside the simulated region)
  /// Correction latency, in ms: for every owner's snapshot received in the match, from when its
  /// owner stepped and sent its frame (that frame's time on the match timeline) to the update
  /// of this peer that took it in (0 for a frame ahead of this peer). 1 ms buckets.
  Histogram correction_latency_ms{1.0f};
  /// Visual correction, in mm: for every update and drawn object carrying an error offset
  /// (a correction being smoothed out), how far the smoothing moved it beyond the simulated
  /// motion it follows, per frame (1 / tick_hz); a warp counts its whole jump. 0.25 mm buckets.
  Histogram visual_correction_mm{0.25f};
  DropCounters dropped;               ///< bad or unwanted packets, by reason
  UpdateCost cost;                    ///< where update() spent its time (when measured)
  std::vector<RemotePeerStats> remotes;  ///< one entry per connected remote peer
};

/// A live object spawned during play (Peer::spawned_object).
struct SpawnedObject {
  ObjectId id = 0;              ///< its id (it carries the spawner)
  std::uint16_t type = 0;       ///< the game-defined type given to Peer::spawn
  PeerId spawner = kNoPeer;     ///< the peer that spawned it
  PeerId owner = kNoPeer;       ///< its owner now: the spawner, or the default owner once the spawner left
  Frame frame = kNoFrame;       ///< the frame it was spawned in (its first), as the spawner named it
  std::uint8_t byte_count = 0;  ///< how many of `bytes` the spawner gave
  std::array<std::uint8_t, kMaxSpawnBytes> bytes{};  ///< its spawn bytes (the first byte_count)

  /// The spawn bytes, byte_count of them.
  std::span<const std::uint8_t> spawn_bytes() const { return {bytes.data(), byte_count}; }
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
  /// Input for the frames simulated from now on, until changed. Throws std::invalid_argument
  /// when a byte of Input::bytes past SnapshotConfig::input_bytes is not 0.
  void set_input(const Input& input);

  /// Runs the frames that are due by the steady clock, then refreshes visual states.
  void update();
  /// Same, at an explicit time (microseconds on any monotonic clock): for tests and replays.
  void update_at(std::int64_t now_us);

  bool poll_event(Event& event);  ///< Takes the next event (shoal/events.hpp) into `event`; false when there is none.

  /// Blocks until network traffic arrives or timeout_ms pass, for headless loops (servers,
  /// bots, tests) that have no vsync to pace them. A game that renders never needs it.
  void wait(int timeout_ms);

  /// Spawns an object of game-defined `type` in `state` (see docs/spawning.md). It exists from
  /// the next frame stepped, is owned by this peer, and reaches every peer on the reliable
  /// channel with that frame; a peer that hears of it late re-simulates from it. The id carries
  /// this peer (no peer asks another). `spawn_bytes` (at most SpawnConfig::max_spawn_bytes)
  /// travel with it: every peer's Simulation::add_body gets them, and spawned_object() tells
  /// them. Needs a Simulation with spawn slots. Throws std::logic_error before the match or
  /// without slots, std::invalid_argument for a type the simulation does not spawn, a
  /// non-finite state (or a non-unit orientation) or too many bytes, and std::runtime_error
  /// past SpawnConfig's limits (live objects, spawns per second).
  ObjectId spawn(std::uint16_t type, const ObjectState& state, std::span<const std::uint8_t> spawn_bytes = {});
  /// Removes a spawned object this peer owns, from the next frame stepped, on every peer.
  /// Throws std::invalid_argument for an object that is not a live spawned one,
  /// std::logic_error when another peer owns it (or before the match).
  void remove(ObjectId object);
  /// Sends a game message (shoal/messages.hpp, docs/messages.md) to peer `to`, or to every
  /// other peer with kNoPeer; it reaches them as EventKind::message, tagged with `frame`
  /// (kNoFrame: no tag; Shoal only carries it). Returns false, sending nothing, when it would
  /// exceed this peer's MessageConfig rate (bytes or messages per second): try again later.
  /// Throws std::logic_error outside the match, std::invalid_argument for bytes longer than
  /// MessageConfig::max_message_bytes (or kMaxUnreliableMessageBytes when unreliable), a frame
  /// below kNoFrame, or a `to` that is this peer or no live member.
  bool send_message(PeerId to, std::span<const std::uint8_t> bytes, Delivery delivery = Delivery::reliable,
                    Frame frame = kNoFrame);
  /// Throws `member` out of the session for good (kick and ban; docs/security.md): has
  /// `authority` revoke the invitation the member joined with and applies the revocation
  /// (revoke()). Every member closes its links to it (its objects pass to the default owner
  /// as when a peer leaves), it gets EventKind::kicked with `reason`, and its invitation admits
  /// it through no member any more. Throws std::invalid_argument for a `member` that is not
  /// another live member, std::logic_error when its invitation is unknown (links in the clear).
  void kick(PeerId member, const SessionAuthority& authority, std::string_view reason);
  /// Applies a revocation made by the session's authority (SessionAuthority::revoke), e.g. on
  /// a peer other than the authority's: this peer's transport hands it to every member it
  /// reaches, and it goes on from there. Throws std::invalid_argument when the transport
  /// refuses it (another authority's, or links in the clear).
  void revoke(const Revocation& revocation);
  /// The spawned objects alive here, ascending id: what this peer has heard of so far.
  std::vector<ObjectId> spawned_objects() const;
  /// A live spawned object's type, spawner, frame and spawn bytes; nullopt for any other id.
  std::optional<SpawnedObject> spawned_object(ObjectId object) const;

  /// What to draw: the smoothed, render-interpolated state. Throws for an unknown object.
  VisualState visual(ObjectId object) const;
  /// What to draw for every body at once, in body order (the simulation's body indices): fills
  /// out[0..min(out.size(), bodies)) and returns how many bodies there are. For games and
  /// bindings that draw many objects a frame, without one lookup per object.
  std::size_t visuals(std::span<VisualState> out) const;
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

  /// The SDK's state behind this peer: declared only, never defined for games. Named here so
  /// that the SDK's own files can pass it to their helpers.
  struct Impl;

 private:
  friend class ReplaySession;  // sets the recorded secret on the peer it replays
  std::unique_ptr<Impl> impl_;
};

}  // namespace shoal
