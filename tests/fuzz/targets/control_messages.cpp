// SPDX-License-Identifier: MIT
// Control and time messages (wire/control_messages.hpp), dispatched on the header as a peer
// does: any bytes get a verdict with a reason; an accepted message re-encodes to the very same
// bytes (the format has one encoding per value) and holds nothing a peer could not use.
#include <algorithm>
#include <cmath>
#include <vector>

#include "fuzz_target.hpp"
#include "wire/control_messages.hpp"
#include "wire/dismissal.hpp"
#include "wire/game_message.hpp"
#include "wire/refusal.hpp"
#include "wire/state_checks.hpp"

using namespace shoal;
using namespace shoal::wire;

namespace {

bool plausible(const JoinRequest& m) { return m.session.size() <= kMaxNameLength; }
bool plausible(const Welcome& m) {
  return std::all_of(m.members.begin(), m.members.end(), [](const Member& x) { return x.host.size() <= kMaxNameLength; });
}
bool plausible(const Baseline& m) {
  return std::all_of(m.objects.begin(), m.objects.end(), [](const BaselineObject& o) {
    return is_plausible(o.state) && o.user_bytes.size <= kMaxUserBytes;
  });
}
bool plausible(const Pong& m) {
  return std::isfinite(m.wall_frame) && std::isfinite(m.pace_wall) && std::isfinite(m.pace_match) && m.pace_rate > 0 &&
         m.pace_rate <= 1;
}
bool plausible(const WorldChanges& m) {
  return std::all_of(m.spawns.begin(), m.spawns.end(), [](const Spawn& s) {
    return is_plausible(s.state) && s.frame >= 0 && s.bytes.size <= kMaxSpawnBytes;
  });
}
template <class Message>
bool plausible(const Message&) { return true; }

// A fixed layout (dismissal, link notice): its encoder cannot refuse.
template <class Message>
void decode_and_check_fixed(std::span<const std::uint8_t> datagram) {
  Message message;
  const DecodeStatus status = decode(datagram, message);
  if (!status) {
    FUZZ_CHECK(status.reason() < DropReason::count, "a rejected message names a reason");
    return;
  }
  std::vector<std::uint8_t> again;
  encode(message, again);
  FUZZ_CHECK(std::equal(datagram.begin(), datagram.end(), again.begin(), again.end()),
             "an accepted message re-encodes to the same bytes");
}

template <class Message>
void decode_and_check(std::span<const std::uint8_t> datagram) {
  Message message;
  const DecodeStatus status = decode(datagram, message);
  if (!status) {
    FUZZ_CHECK(status.reason() < DropReason::count, "a rejected message names a reason");
    return;
  }
  FUZZ_CHECK(plausible(message), "an accepted message holds only usable values");
  std::vector<std::uint8_t> again;
  FUZZ_CHECK(encode(message, again), "an accepted message can be encoded");
  FUZZ_CHECK(std::equal(datagram.begin(), datagram.end(), again.begin(), again.end()),
             "an accepted message re-encodes to the same bytes");
}

}  // namespace

SHOAL_FUZZ_TARGET(control_messages) {
  const std::span<const std::uint8_t> datagram(data, size);
  MessageKind kind{};
  if (!read_header(datagram, kind)) return 0;  // the packet_header target's business
  switch (kind) {
    case MessageKind::join_request: decode_and_check<JoinRequest>(datagram); break;
    case MessageKind::welcome: decode_and_check<Welcome>(datagram); break;
    case MessageKind::hello: decode_and_check<Hello>(datagram); break;
    case MessageKind::peer_left: decode_and_check<PeerLeft>(datagram); break;
    case MessageKind::ownership: decode_and_check<Ownership>(datagram); break;
    case MessageKind::checksum: decode_and_check<Checksum>(datagram); break;
    case MessageKind::baseline_request: decode_and_check<BaselineRequest>(datagram); break;
    case MessageKind::baseline: decode_and_check<Baseline>(datagram); break;
    case MessageKind::world_changes: decode_and_check<WorldChanges>(datagram); break;
    case MessageKind::ping: decode_and_check<Ping>(datagram); break;
    case MessageKind::pong: decode_and_check<Pong>(datagram); break;
    case MessageKind::dismissal: decode_and_check_fixed<Dismissal>(datagram); break;
    case MessageKind::link_notice: decode_and_check_fixed<LinkNotice>(datagram); break;
    case MessageKind::refusal: {
      // Read by every wire version: its own decoder, which must hold its reason to the limit.
      Refusal refusal;
      if (decode_refusal(datagram, refusal)) {
        FUZZ_CHECK(refusal.reason.size() <= kMaxRefusalReason, "an accepted refusal's reason stays in bounds");
      }
      break;
    }
    case MessageKind::game_message:
    case MessageKind::game_datagram: {
      GameMessage message;
      if (!decode(datagram, message)) break;
      FUZZ_CHECK(message.frame >= kNoFrame, "an accepted game message has a frame tag of -1 or more");
      std::vector<std::uint8_t> again;
      FUZZ_CHECK(encode(message, kind == MessageKind::game_message, again), "an accepted game message can be encoded");
      FUZZ_CHECK(std::equal(datagram.begin(), datagram.end(), again.begin(), again.end()),
                 "an accepted game message re-encodes to the same bytes");
      break;
    }
    case MessageKind::snapshot:
    case MessageKind::snapshot_ack: break;  // the snapshot target's
  }
  // A message of one kind is never taken for another.
  if (kind != MessageKind::ping) {
    Ping ping;
    FUZZ_CHECK(!decode(datagram, ping) && decode(datagram, ping).reason() == DropReason::unknown_kind,
               "a datagram of another kind is refused as unknown_kind");
  }
  return 0;
}
