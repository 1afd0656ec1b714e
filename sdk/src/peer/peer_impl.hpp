// SPDX-License-Identifier: MIT
// The state behind shoal::Peer. The peer is the top of the stack: it wires the layers
// together in the order of one tick (docs/architecture.md, "One tick on one peer").
#pragma once

#include <optional>
#include <vector>

#include "authority/ownership.hpp"
#include "authority/regions.hpp"
#include "core/bounded_queue.hpp"
#include "peer/presentation.hpp"
#include "peer/recorder.hpp"
#include "peer/snapshot_links.hpp"
#include "peer/snapshot_sender.hpp"
#include "peer/touched_bodies.hpp"
#include "peer/update_cost_clock.hpp"
#include "present/frame_interpolator.hpp"
#include "present/visual_smoother.hpp"
#include "session/frame_clock.hpp"
#include "session/joining.hpp"
#include "session/membership.hpp"
#include "session/time_sync.hpp"
#include "shoal/peer.hpp"
#include "sync/body_forensics.hpp"
#include "sync/input_log.hpp"
#include "sync/owner_frames.hpp"
#include "sync/priority.hpp"
#include "sync/quantize_filter.hpp"
#include "sync/resimulator.hpp"
#include "sync/rest_checks.hpp"
#include "sync/snapshot_baselines.hpp"
#include "sync/tolerated_differences.hpp"
#include "wire/control_messages.hpp"
#include "wire/quantize.hpp"
#include "wire/refusal.hpp"
#include "wire/snapshot_codec.hpp"
#include "world/frame_history.hpp"
#include "world/object_table.hpp"
#include "world/user_bytes.hpp"

namespace shoal {

inline Event make_event(EventKind kind, PeerId peer, ObjectId object = 0, Frame frame = kNoFrame,
                        int depth = 0) {
  Event e;
  e.kind = kind;
  e.peer = peer;
  e.object = object;
  e.frame = frame;
  e.depth = depth;
  return e;
}

/// Digest of every body's state: what a recording began with, checked by its replay.
std::uint64_t world_digest(const Simulation& simulation);

// How far ahead of its newest frame a peer keeps inputs: those of snapshots up to a quarter of
// the history ahead (what on_snapshot accepts), plus their senders' input delay.
inline int input_frames_ahead(const PeerConfig& c) { return c.history_frames / 4 + wire::kMaxInputFramesAhead; }

struct Peer::Impl {
  enum class Phase { idle, hosting, joining, syncing, in_match, left };

  Impl(const PeerConfig& config, Simulation& simulation, std::unique_ptr<Transport> transport);

  // --- the tick (peer_tick.cpp) ---
  void update(std::int64_t now_us);
  void start_match(std::int64_t now_us, Frame frame);
  void step_frame();
  void validate_parts() const;  // every part's invariants; after each frame in the test build
  void apply_corrections();
  void correct_tolerated();
  void correct_frozen_bodies();
  void catch_up(Frame from);
  void note_step_changes();
  void snap_to(BodyIndex body, Frame frame, const ObjectState& owner_state,
               std::span<const std::uint8_t> owner_user_bytes);
  void run_sync_test(Frame frame);
  void sync_test_user_bytes(Frame frame, std::vector<ObjectId>& differing);
  std::span<const std::uint8_t> replay_outside_reach(Frame from);
  void update_regions_and_ownership(Frame frame);
  std::span<const std::uint8_t> frozen_for_next_step();
  bool everyone_holds_resting_state(BodyIndex body);
  // --- snapshots (peer_snapshots.cpp; the sending itself is SnapshotSender's) ---
  void send_snapshots(Frame frame);
  SendView send_view(Frame frame);
  bool receive_user_bytes(SnapshotLink& link, const wire::ObjectRecord& record, Frame frame);
  void on_snapshot_ack(PeerId from, const wire::SnapshotAckMessage& message);
  void send_checksum(Frame frame);
  void send_pings(std::int64_t now_us);
  void refresh_visuals(std::int64_t now_us);

  // --- messages (peer_messages.cpp) ---
  void drain_transport(std::int64_t now_us);
  void on_connected(ConnectionId connection);
  void on_disconnected(ConnectionId connection, bool timed_out, std::int64_t now_us);
  void admit(const session::Member& member, bool rejoined);
  void advance_join(std::int64_t now_us);
  void fail_join(std::int64_t now_us, JoinFailure failure);
  JoinStep join_step() const;
  void expire_absent(std::int64_t now_us);
  void start_rejoin();
  void request_baselines();
  void send_baseline(ConnectionId connection);
  void on_baseline(PeerId from, const wire::Baseline& baseline);
  void on_message(ConnectionId connection, Channel channel, std::span<const std::uint8_t> bytes,
                  std::int64_t now_us);
  void on_join_request(ConnectionId connection, const wire::JoinRequest& message);
  void on_welcome(ConnectionId connection, const wire::Welcome& message);
  void on_hello(ConnectionId connection, const wire::Hello& message);
  // --- compatibility (peer_membership.cpp): other wire versions and encodings are refused ---
  wire::EncodingSettings encoding() const { return wire::encoding_settings(config.snapshots); }
  void on_other_version(ConnectionId connection, std::span<const std::uint8_t> bytes);
  void on_refusal(ConnectionId connection, const wire::Refusal& refusal);
  void refuse(ConnectionId connection, int their_version, const std::string& reason);
  void note_incompatible(const std::string& reason);
  void on_ownership(PeerId from, const wire::Ownership& message);
  void on_checksum(PeerId from, const wire::Checksum& message);
  void on_snapshot(PeerId from, const wire::Snapshot& snapshot);
  void prefetch_for(const wire::Snapshot& snapshot, const SnapshotLink& link) const;
  /// `user_bytes`: the owner's bytes of the body (exactly its size; empty when it has none).
  void on_owner_frame(Frame frame, BodyIndex body, const ObjectState& state,
                      std::span<const std::uint8_t> user_bytes);
  void note_mismatch(BodyIndex body, Frame frame);  // an override, corrected in the next update
  void take_held_record(BodyIndex body, PeerId owner, Frame since);  // see peer_snapshot_receive.cpp
  void check_resting_copies();
  bool check_resting_copy(BodyIndex body);
  /// This peer's user bytes of body at a held frame (its size; empty when it has none).
  std::span<std::uint8_t> held_user_bytes(Frame frame, BodyIndex body);
  void peer_gone(PeerId peer);
  void apply_ownership(const wire::OwnershipChange& change, bool record);
  void reset_regions(PeerId peer);
  void send_owned_records(ConnectionId connection);
  void note_owner_changes();   // after table-wide changes: events and owned_by_me
  void note_owner_change(BodyIndex body);  // after a change of one body's owner
  authority::PeerRegions& regions_of(PeerId peer);
  PeerId owner_of(BodyIndex body) const;
  ObjectDiagnosis diagnose(BodyIndex body, Frame frame) const;

  template <class Message>
  void send_to(ConnectionId connection, const Message& message);
  template <class Message>
  void broadcast(const Message& message);
  void drop(DropReason reason) { stats.dropped.add(reason); }
  void emit(Event event);
  BodyIndex body_of(ObjectId object) const;  // throws std::invalid_argument

  PeerConfig config;
  Simulation& sim;
  std::unique_ptr<Recorder> recorder;  // Peer::record; before transport, which may write to it
  std::unique_ptr<Transport> transport;
  world::ObjectTable objects;
  std::size_t body_count;
  world::UserBytesLayout user_bytes;  // before history, owner_frames: they take its stride
  world::FrameHistory history;
  sync::OwnerFrames owner_frames;
  sync::InputLog inputs;
  sync::Resimulator resimulator;
  UpdateCostClock cost_clock;  // PeerConfig::measure_update_cost
  wire::Quantizer quantizer;
  sync::QuantizeFilter quantize_filter;  // installed on the resimulator when quantising
  authority::RegionBuilder regions;
  sync::RestChecks rest_checks;  // resting copies of others' bodies against their owners'
  std::vector<authority::PeerRegions> peer_regions;   // self and every remote, ascending id
  std::optional<authority::OwnershipTable> ownership;  // from the start of the match
  struct EarlyChange {
    wire::OwnershipChange change;
    bool record;
  };
  std::vector<EarlyChange> early_ownership;  // received while syncing, applied at the start
  // Baselines asked for from each older member as soon as its link is up, while the clock
  // still syncs (it saves their round trip after the start): kept until the start, then
  // taken like any owner frames.
  std::vector<std::pair<PeerId, wire::Baseline>> early_baselines;
  bool baselines_requested = false;
  Presentation visuals;                     // what the game draws
  present::FrameInterpolator interpolator;  // snaps: extrapolate, and bridge the frames between
  session::Membership members;
  session::TimeSync time_sync;
  std::optional<session::FrameClock> clock;

  Phase phase = Phase::idle;
  bool is_host = false;
  int pongs_received = 0;
  static constexpr int kPongsBeforeStart = 4;  // a few RTT samples before trusting the estimate
  // Until time sync holds this many of the host's samples, pings go four times as often.
  static constexpr std::size_t kQuickPingSamples = 32;
  ConnectionId host_connection = kNoConnection;
  bool rejoining = false;
  std::uint64_t secret;  // this peer's, random: proves a rejoin is really it
  session::Joining joining;
  std::int64_t next_host_attempt_us = 0;  // joining: when to ask the host again
  bool host_link_up = false;              // joining: host_connection is connected
  std::optional<BodyIndex> controlled;
  Input current_input;
  std::vector<std::pair<PeerId, BodyIndex>> remote_controlled;

  // Corrections found since the last tick.
  std::vector<Frame> mismatched_since;         // per body: its earliest overridden frame, or kNoFrame
  std::vector<BodyIndex> mismatched_bodies;
  sync::ToleratedDifferences tolerated;        // owner frames that agreed only within tolerance
  sync::BodyForensics forensics;               // what explains a disagreement (Peer::diagnose)
  std::vector<PeerId> known_owner;             // per body, to report table-wide changes
  std::vector<std::uint8_t> owned_by_me;       // per body: replayed, never re-simulated
  std::vector<BodyIndex> owned_bodies;         // the same, as a list: the per-frame sends walk it

  // Per-frame scratch, sized once.
  std::vector<ObjectState> before;
  std::vector<ObjectState> past_states;  // a past frame's, copied whole
  std::vector<std::uint8_t> user_bytes_before;  // sync-test mode: bodies x user_bytes.max
  std::vector<std::uint8_t> received_user_bytes;  // one body's, as a snapshot record carries them
  std::vector<std::uint8_t> replay_scratch;
  std::vector<float> radii;
  std::vector<BodyIndex> controlled_scratch;
  std::vector<authority::OwnershipChange> decided;
  std::vector<BodyIndex> decide_candidates;  // owned or in this peer's core
  std::vector<std::uint8_t> out_buffer;
  wire::Snapshot snapshot_in;
  wire::SnapshotAckMessage ack_in;
  std::vector<std::uint8_t> frozen_next;  // per body: left out of the next step
  bool freezing = false;                  // the last step was given frozen_next
  TouchedBodies region_touched;  // the region pass's; the visuals keep their own
  void touch(std::span<const BodyIndex> bodies);  // both
  void touch_all();                                // both

  SnapshotLinks links;    // both directions' bookkeeping, per remote peer
  SnapshotSender sender;  // what this peer owns, out to the others
  wire::Ownership ownership_out;
  // Control messages decoded and built here, kept so that their vectors keep their capacity.
  wire::Ownership ownership_in;
  wire::Checksum checksum_in, checksum_out;

  struct PendingPong {
    ConnectionId connection;
    std::int64_t ping_sent_us;
  };
  std::vector<PendingPong> pending_pongs;  // answered once the clock has advanced
  // A game that never polls must not grow memory without bound: past 4096 the oldest go.
  core::BoundedQueue<Event> events{4096};
  PeerStats stats;
  std::int64_t last_update_us = -1;
  std::int64_t last_ping_us = -1;
};

template <class Message>
void Peer::Impl::send_to(ConnectionId connection, const Message& message) {
  if (!wire::encode(message, out_buffer)) return;
  transport->send(connection, wire::channel_of(static_cast<wire::MessageKind>(out_buffer[3])),
                  out_buffer);
}

template <class Message>
void Peer::Impl::broadcast(const Message& message) {
  if (!wire::encode(message, out_buffer)) return;
  const Channel channel = wire::channel_of(static_cast<wire::MessageKind>(out_buffer[3]));
  for (const session::Member& m : members.remotes()) transport->send(m.connection, channel, out_buffer);
}

}  // namespace shoal
