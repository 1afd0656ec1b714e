// SPDX-License-Identifier: MIT
// The peer's part that sends what it owns: once per frame, per remote peer, a snapshot of the
// owned objects that peer needs (interest by simulated region), within its byte budget and
// by priority, delta-coded against what it acknowledged, carrying this peer's inputs.
//
// Owns (per body): the quantised state of each owned body as sent and since when, whether it
// coasts, when a player last came near it, the record last made for it; and the packet being
// built. Nothing else writes them. It reads the rest of the peer through SendView, each frame.
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "authority/regions.hpp"
#include "peer/snapshot_links.hpp"
#include "session/membership.hpp"
#include "shoal/peer.hpp"
#include "sync/input_log.hpp"
#include "sync/quantize_filter.hpp"
#include "wire/quantize.hpp"
#include "wire/snapshot_codec.hpp"
#include "world/frame_history.hpp"
#include "world/user_bytes.hpp"

namespace shoal {

/// What the sender reads of the rest of the peer for one frame.
struct SendView {
  Frame frame = kNoFrame;
  std::span<const BodyIndex> owned;  ///< ascending
  std::optional<BodyIndex> controlled;
  ObjectId controlled_id = wire::kNoObject;
  std::span<const std::pair<PeerId, BodyIndex>> remote_controlled;
  std::span<const authority::PeerRegions> regions;  ///< every live peer's, as seen here
  PeerId self = kNoPeer;
  std::span<const session::Member> remotes;
};

class SnapshotSender {
 public:
  SnapshotSender(const PeerConfig& config, std::size_t bodies, const world::UserBytesLayout& user_bytes,
                 world::FrameHistory& history, const wire::Quantizer& quantizer, sync::QuantizeFilter& filter,
                 const sync::InputLog& inputs, SnapshotLinks& links, const std::unique_ptr<Transport>& transport,
                 PeerStats& stats);

  /// A body whose state quantising changed, and its settled state.
  struct Settled {
    BodyIndex body;
    ObjectState state;
  };
  /// Quantises the newest states of the owned bodies, as they will be sent. A state this peer
  /// got from elsewhere (its previous owner, a snap) may not survive quantising: the owned
  /// bodies whose state the settled value changes are listed, for the tick to write that value
  /// into the history and the simulation before anyone has seen the frame. Only on frames that
  /// send (and when quantising); empty otherwise.
  std::span<const Settled> settle_owned(const SendView& view);
  /// Sends this frame's snapshots and acks. Changes nothing but what it owns and the links.
  void send(const SendView& view);

  /// Its invariants (the test build checks them every frame); throws std::logic_error.
  void validate(std::span<const BodyIndex> owned) const;

 private:
  // Per body: the record last made for it, for the frame and baseline age it was made for,
  // and its bits but the index code, encoded once for every packet that carries it.
  struct MadeRecord {
    Frame frame = kNoFrame;
    wire::ObjectRecord record;
    wire::EncodedRecord encoded;
    bool fits = false;  // the format carries it (else a packet with it is not sent)
    wire::EncodedRef ref() const { return {record.index, fits ? &encoded : nullptr}; }
  };

  bool sending(Frame frame) const;
  void note_coasting(const SendView& view);
  bool coasts_on(const SnapshotLink& link, BodyIndex body, Frame frame, const SendView& view) const;
  const MadeRecord& record_for(SnapshotLink& link, BodyIndex body, Frame frame);
  void add_user_bytes(wire::ObjectRecord& record, const SnapshotLink& link, Frame frame);
  std::size_t send_packet(SnapshotLink& link, ConnectionId connection, Frame frame);
  void send_due(SnapshotLink& link, ConnectionId connection, const SendView& view, bool moving_due);
  void send_prioritized(SnapshotLink& link, ConnectionId connection, const SendView& view);

  const PeerConfig& config_;
  const world::UserBytesLayout& user_bytes_;
  world::FrameHistory& history_;
  const wire::Quantizer& quantizer_;
  sync::QuantizeFilter& filter_;
  const sync::InputLog& inputs_;
  SnapshotLinks& links_;
  const std::unique_ptr<Transport>& transport_;  // the peer's, wrapped when it records
  PeerStats& stats_;

  std::vector<wire::QuantizedState> quantized_;  // owned bodies' states of the frame being sent
  std::vector<Frame> code_since_;                // per owned body: the frame since which quantized_ holds
  std::vector<std::uint8_t> relevant_;           // per body: in the receiver's simulated region
  std::vector<std::uint8_t> coasting_;           // per owned body: moving, no player about to touch it
  std::vector<Frame> last_contact_;              // per body: the newest frame a player was about to touch it
  std::vector<MadeRecord> made_records_;
  std::vector<BodyIndex> candidates_;
  std::vector<Settled> settled_;                 // settle_owned's answer
  std::vector<wire::EncodedRef> packet_records_;  // the next snapshot packet's, by index
  wire::Snapshot snapshot_out_;
  wire::SnapshotAckMessage ack_out_;
  std::vector<std::uint8_t> out_buffer_;
};

}  // namespace shoal
