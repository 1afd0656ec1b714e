// SPDX-License-Identifier: MIT
// The state behind shoal::Peer. The peer is the top of the stack: it wires the layers
// together in the order of one tick (peer_tick.cpp), and holds its parts by value.
// Declared here is, mostly, what the peer's files call of each other. A step that serves one
// file is local to it, taking the parts it needs, or the whole peer where it needs more.
#pragma once

#include <optional>

#include "core/bounded_queue.hpp"
#include "peer/authority_state.hpp"
#include "peer/corrections.hpp"
#include "peer/frame_scratch.hpp"
#include "peer/game_messages.hpp"
#include "peer/peer_support.hpp"
#include "peer/presentation.hpp"
#include "peer/recorder.hpp"
#include "peer/session_state.hpp"
#include "peer/snapshot_links.hpp"
#include "peer/snapshot_sender.hpp"
#include "peer/spawning.hpp"
#include "peer/update_cost_clock.hpp"
#include "shoal/peer.hpp"
#include "sync/input_log.hpp"
#include "sync/owner_frames.hpp"
#include "sync/quantize_filter.hpp"
#include "sync/resimulator.hpp"
#include "sync/rest_checks.hpp"
#include "wire/dismissal.hpp"
#include "wire/refusal.hpp"
#include "world/frame_history.hpp"
#include "world/object_table.hpp"

namespace shoal {

struct Peer::Impl {
  using Phase = SessionState::Phase;
  Impl(const PeerConfig& config, Simulation& simulation, std::unique_ptr<Transport> transport);

  // --- the tick (peer_tick.cpp) ---
  void update(std::int64_t now_us);
  void validate_parts() const;  // every part's invariants; after each frame in the test build
  void touch(std::span<const BodyIndex> bodies);  // the visuals' and the regions' both
  void touch_all();
  // --- corrections (peer_corrections.cpp) ---
  void note_mismatch(BodyIndex body, Frame frame);  // an override, corrected in the next update
  void apply_corrections();
  void snap_to(BodyIndex body, Frame frame, const ObjectState& owner_state, std::span<const std::uint8_t> owner_user_bytes);
  // --- sending (peer_snapshots.cpp; the sending itself is SnapshotSender's) ---
  void settle_owned(const SendView& view);
  SendView send_view(Frame frame);
  // --- receiving owner frames (peer_snapshot_receive.cpp) ---
  void on_snapshot(PeerId from, const wire::Snapshot& snapshot, std::int64_t now_us);
  void on_snapshot_ack(PeerId from, const wire::SnapshotAckMessage& message);
  /// `user_bytes`: the owner's bytes of the body (exactly its size; empty when it has none).
  void on_owner_frame(Frame frame, BodyIndex body, const ObjectState& state, std::span<const std::uint8_t> user_bytes);
  void take_held_record(BodyIndex body, PeerId owner, Frame since);
  void check_resting_copies();
  bool check_copy(BodyIndex body, bool still, Frame changing_since);
  // --- control messages (peer_messages.cpp) ---
  void drain_transport(std::int64_t now_us);
  void on_message(ConnectionId connection, Channel channel, std::span<const std::uint8_t> bytes, std::int64_t now_us);
  void on_game_message(PeerId from, std::span<const std::uint8_t> bytes, std::int64_t now_us);  // peer_game_messages.cpp
  // --- members coming, going, lost and dialled again (peer_membership.cpp) ---
  void on_connected(ConnectionId connection);
  void on_disconnected(ConnectionId connection, bool timed_out, std::int64_t now_us);
  void admit(const session::Member& member, bool rejoined);
  void expire_absent(std::int64_t now_us);
  void peer_gone(PeerId peer);
  void on_departure_announced(PeerId from, PeerId peer);
  // --- joining, compatibility and baselines (peer_joining.cpp) ---
  void on_join_request(ConnectionId connection, const wire::JoinRequest& message);
  void on_welcome(ConnectionId connection, const wire::Welcome& message);
  void on_hello(ConnectionId connection, const wire::Hello& message);
  void advance_join(std::int64_t now_us);
  void fail_join(std::int64_t now_us, JoinFailure failure);
  JoinStep join_step() const;
  wire::EncodingSettings encoding() const { return wire::encoding_settings(config.snapshots, config.spawning); }
  void on_other_version(ConnectionId connection, std::span<const std::uint8_t> bytes);  // refused
  void on_refusal(ConnectionId connection, const wire::Refusal& refusal);
  // --- who may play: dismissals, link notices, single-use invitations (peer_admission.cpp) ---
  void dismiss(ConnectionId connection, wire::DismissalCause cause, const std::string& reason);  // a joiner turned down
  void on_dismissal(ConnectionId connection, const wire::Dismissal& dismissal);
  void on_link_notice(ConnectionId connection, const wire::LinkNotice& notice);
  // Whether the invitation on `connection` may admit `peer` (kNoPeer: a new one); if not, the
  // joiner is dismissed and false returned.
  bool invitation_admits(ConnectionId connection, PeerId peer);
  // Notes the invitation on `connection` (if the link named one) as `peer`'s; a single-use one
  // is remembered for good as the one that admitted it. admit() calls it.
  void note_invitation(ConnectionId connection, PeerId peer);
  void request_baselines();
  void send_baseline(ConnectionId connection);
  void on_baseline(PeerId from, const wire::Baseline& baseline);
  // --- regions and ownership (peer_authority.cpp) ---
  void update_regions_and_ownership(Frame frame);
  void send_decided_changes();  // authority.decided, to everyone, and noted here
  bool everyone_holds_resting_state(BodyIndex body);
  void apply_ownership(wire::OwnershipChange change, bool record);  // `change.body` is filled in here
  void send_owned_records(ConnectionId connection);
  void note_owner_changes();               // after table-wide changes: events and owned_by_me
  void note_owner_change(BodyIndex body);  // after a change of one body's owner
  // --- objects spawned and removed during play (peer_spawning.cpp) ---
  void on_world_changes(PeerId from, const wire::WorldChanges& message, bool heard_early = false);
  void send_live_set(ConnectionId connection);  // to a newcomer, before its baseline
  void apply_early_changes();  // world changes heard before the match started here
  void spawning_frame();
  // --- shared helpers (peer.cpp) ---
  std::span<std::uint8_t> held_user_bytes(Frame frame, BodyIndex body);  // its size; empty: none
  ObjectDiagnosis diagnose(BodyIndex body, Frame frame) const;
  template <class Message> void send_to(ConnectionId to, const Message& message) { send_encoded(wire::encode(message, scratch.out), to); }
  template <class Message> void broadcast(const Message& message) { send_encoded(wire::encode(message, scratch.out), kNoConnection); }
  void send_encoded(bool encoded, ConnectionId to);  // scratch.out on its kind's channel; to everyone: kNoConnection
  void drop(DropReason reason);  // counted, and logged
  void emit(Event event);

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
  AuthorityState authority;  // regions, owners, what this peer owns
  sync::RestChecks rest_checks;  // resting copies of others' bodies against their owners'
  Presentation visuals;                     // what the game draws
  SessionState session;  // members, clock, joining
  Spawning spawning;     // objects spawned during play: slots, timeline, rates
  GameMessages messages;  // the game's own messages: this peer's rate, each sender's
  std::optional<BodyIndex> controlled;
  Input current_input;
  std::vector<std::pair<PeerId, BodyIndex>> remote_controlled;
  Corrections corrections;      // owner frames this peer's differ from, to correct
  FrameScratch scratch;
  SnapshotLinks links;    // both directions' bookkeeping, per remote peer
  SnapshotSender sender;  // what this peer owns, out to the others
  // A game that never polls must not grow memory without bound: past 4096 the oldest go.
  core::BoundedQueue<Event> events{4096};
  PeerStats stats;
  DropCounters logged_transport_drops;  // what the log hook was told of the transport's own drops
  std::int64_t last_update_us = -1;
  core::Digest* emitted = nullptr;  // a replay's digest of every event emitted (peer/replay.cpp)
};

}  // namespace shoal
