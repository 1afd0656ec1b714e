// Snapshots sent: what this peer sends of the objects it owns, to whom and within which budget
// (what it does with those it receives is in peer_snapshot_receive.cpp).
//
// Per remote peer (SnapshotLink): the sender's log of what went out and the baselines the
// receiver acknowledged, the receiver's record of what arrived (acked on receipt, in the next
// packet to that peer or a standalone ack), the priority accumulators and the byte budget.
#include <algorithm>

#include "peer/peer_impl.hpp"

namespace shoal {
namespace {

// Resting objects outside a receiver's simulated region go this many times less often.
constexpr int kIrrelevantRestSlowdown = 4;

}  // namespace

Peer::Impl::SnapshotLink* Peer::Impl::find_snapshot_link(PeerId peer) const {
  for (const auto& link : snapshot_links) {
    if (link->peer == peer) return link.get();
  }
  return nullptr;
}

Peer::Impl::SnapshotLink& Peer::Impl::snapshot_link(PeerId peer) {
  if (SnapshotLink* link = find_snapshot_link(peer)) return *link;
  snapshot_links.push_back(std::make_unique<SnapshotLink>(peer, body_count, user_bytes.max));
  return *snapshot_links.back();
}

void Peer::Impl::send_snapshots(Frame frame) {
  if (members.remotes().empty()) return;
  const SnapshotConfig& sc = config.snapshots;
  const std::span<const ObjectState> states = history.newest_states();  // of `frame`
  const bool moving_due = frame % config.snapshot_interval_frames == 0;
  // By priority, a link sends one packet per interval; without, resting objects are due on
  // frames of their own.
  const bool sending = moving_due || !sc.prioritize;
  if (sc.quantize && sending) {
    // Receivers must get the owner's exact state. A state the owner got from elsewhere (its
    // previous owner, a snap) may not survive quantising: the owner takes the settled value
    // itself first, in its newest frame, before anyone has seen that frame.
    for (BodyIndex b : owned_bodies) {
      ObjectState state = states[b];
      wire::QuantizedState code;
      if (quantize_filter.encode(b, state, code)) {
        history.set(frame, b, state);
        sim.write(b, state);
        touch(std::span(&b, 1));
      }
      if (!(code == quantized[b])) {
        quantized[b] = code;
        code_since[b] = frame;
      }
    }
  }
  if (sending) note_coasting(frame);
  snapshot_out.sender = members.self();
  snapshot_out.frame = frame;
  snapshot_out.quantized = sc.quantize;
  snapshot_out.velocities_at_rest = sc.velocities_at_rest;
  snapshot_out.controlled = controlled ? objects.id(*controlled) : wire::kNoObject;
  snapshot_out.inputs.clear();
  if (controlled) {
    // The newest input is the one for the frame input_delay_frames ahead.
    const Frame newest_input = frame + config.input_delay_frames;
    for (int k = 0; k < config.input_redundancy && newest_input - k >= 0; ++k) {
      snapshot_out.inputs.push_back({newest_input - k, inputs.input(*controlled, newest_input - k)});
    }
  }

  for (const session::Member& m : members.remotes()) {
    SnapshotLink& link = snapshot_link(m.id);
    if (sending) {
      // Interest: only what the receiver's simulated region holds, as this peer sees it; a
      // peer that controls nothing (yet) gets everything.
      const authority::PeerRegions& interest = regions_of(m.id);
      const bool everything = std::none_of(remote_controlled.begin(), remote_controlled.end(),
                                           [&](auto& p) { return p.first == m.id; });
      candidates.clear();
      for (BodyIndex b : owned_bodies) {
        // Outside the receiver's simulated region only resting objects go, and rarely: enough
        // for every peer to agree on the whole world once it settles, at almost no cost.
        // This peer's player goes everywhere: every peer places its region by it, and one
        // that freezes it (outside its simulated region) writes these frames in instead.
        relevant[b] = everything || authority::is_member(interest.simulated, b) || controlled == b;
        if (relevant[b] || states[b].at_rest) candidates.push_back(b);
      }
      if (sc.prioritize) {
        send_prioritized(link, m.connection, frame, config.snapshot_interval_frames);
      } else {
        send_due(link, m.connection, frame, moving_due);
      }
    }
    if (link.received.ack_due()) {  // nothing went back this frame to carry the ack
      ack_out.sender = members.self();
      link.received.take_ack(ack_out.ack);
      if (wire::encode(ack_out, out_buffer)) {
        transport->send(m.connection, Channel::state, out_buffer);
        stats.snapshot_bytes_sent += out_buffer.size();
      }
    }
  }
}

// Moving, nobody's controlled object, and no player about to touch it (as this peer sees the
// players: remote ones a few frames old). Its motion is the physics' own, from a state every
// peer shares once it acknowledged one from after the last touch.
void Peer::Impl::note_coasting(Frame frame) {
  for (const authority::PeerRegions& r : peer_regions) {
    for (BodyIndex b : r.contact_bodies) last_contact[b] = frame;
  }
  const std::span<const ObjectState> states = history.newest_states();
  for (BodyIndex b : owned_bodies) {
    coasting[b] = static_cast<std::uint8_t>(!states[b].at_rest && controlled != b && last_contact[b] != frame);
  }
}

// Whether a coasting body waits its turn on this link: only once the receiver has acknowledged
// it moving, in a frame after a player last touched it. That it started to move, or how a
// player pushed it, is news, which goes at once like any other; the receiver can foresee only
// the frames after.
bool Peer::Impl::coasts_on(const SnapshotLink& link, BodyIndex body, Frame frame) const {
  if (coasting[body] == 0) return false;
  const wire::QuantizedState* acked = link.sent.acknowledged(body);
  if (acked == nullptr || acked->at_rest) return false;
  const Frame after_contact = last_contact[body] + 1;
  return link.sent.acknowledged_frame(body) >= after_contact || link.sent.in_flight(body, after_contact, frame);
}

// A body's record depends on the link only through its baseline, which is what the body was
// at the baseline's frame, the same for every link: links whose baseline is of the same frame
// (most of them, acknowledgements coming back alike) share one record, made once a frame.
const Peer::Impl::MadeRecord& Peer::Impl::record_for(SnapshotLink& link, BodyIndex body, Frame frame) {
  const SnapshotConfig& sc = config.snapshots;
  std::uint32_t age = 0;
  const wire::QuantizedState* baseline =
      sc.quantize && sc.delta ? link.sent.baseline(body, frame, sc.max_baseline_age_frames, age) : nullptr;
  MadeRecord& made = made_records[body];
  if (made.frame == frame && made.record.baseline_age == age) return made;
  wire::ObjectRecord& r = made.record;
  if (sc.quantize) {
    r = wire::make_record(body, quantized[body], baseline, age);
  } else {
    r = wire::ObjectRecord{};
    r.index = body;
    r.raw = history.state(frame, body);
    r.at_rest = r.raw.at_rest;
  }
  if (user_bytes.any()) add_user_bytes(r, link, frame);
  made.frame = frame;
  made.fits = wire::encode_record(snapshot_out, r, quantizer.limits(), made.encoded);
  return made;
}

// A record carries its body's user bytes, or "unchanged" when its baseline had the same.
void Peer::Impl::add_user_bytes(wire::ObjectRecord& record, const SnapshotLink& link, Frame frame) {
  const std::size_t size = user_bytes.size[record.index];
  if (size == 0) return;
  const std::span<const std::uint8_t> baseline =
      record.baseline_age > 0 ? link.sent.baseline_user_bytes(record.index).first(size)
                              : std::span<const std::uint8_t>{};
  wire::set_user_bytes(record, held_user_bytes(frame, record.index), baseline);
}

std::span<std::uint8_t> Peer::Impl::held_user_bytes(Frame frame, BodyIndex body) {
  return history.user_bytes(frame, body).first(user_bytes.size[body]);
}

// Sends snapshot_out's header with packet_records (and the ack for this link) and logs it;
// returns the bytes sent.
std::size_t Peer::Impl::send_snapshot_packet(SnapshotLink& link, ConnectionId connection, Frame frame) {
  snapshot_out.has_ack = link.received.has_received();
  if (snapshot_out.has_ack) link.received.take_ack(snapshot_out.ack);
  snapshot_out.sequence = link.sent.begin_packet(frame);
  if (config.snapshots.quantize) {
    for (const wire::EncodedRef& r : packet_records) {
      link.sent.add(r.index, quantized[r.index], made_records[r.index].record.user_bytes.view());
    }
  }
  if (!wire::encode(snapshot_out, packet_records, out_buffer)) return 0;
  transport->send(connection, Channel::state, out_buffer);
  stats.snapshot_bytes_sent += out_buffer.size();
  return out_buffer.size();
}

// Without priorities: every due object (moving ones every snapshot_interval_frames, those at
// rest every rest_snapshot_interval_frames), in as many packets as it takes.
void Peer::Impl::send_due(SnapshotLink& link, ConnectionId connection, Frame frame, bool moving_due) {
  const std::span<const ObjectState> states = history.newest_states();  // of `frame`
  const std::size_t limit_bits =
      (static_cast<std::size_t>(config.snapshots.packet_budget_bytes) - wire::kHeaderSize) * 8;
  packet_records.clear();
  snapshot_out.has_ack = link.received.has_received();  // as the packet will be sent
  std::size_t bits = wire::header_bits(snapshot_out);
  bool sent = false;
  for (BodyIndex b : candidates) {
    const Frame rest_interval = config.rest_snapshot_interval_frames * (relevant[b] ? 1 : kIrrelevantRestSlowdown);
    // Coasting objects go every coasting_interval_frames-th interval, spread over the intervals.
    const Frame interval_number = frame / config.snapshot_interval_frames + static_cast<Frame>(b);
    const bool due = states[b].at_rest ? (frame + static_cast<Frame>(b)) % rest_interval == 0
                                       : moving_due && (!coasts_on(link, b, frame) ||
                                                        interval_number % config.snapshots.coasting_interval_frames == 0);
    if (!due) continue;
    const MadeRecord& made = record_for(link, b, frame);
    const BodyIndex next = packet_records.empty() ? 0 : packet_records.back().index + 1;
    std::size_t cost = made.encoded.bits + wire::index_bits(b - next);
    if (bits + cost > limit_bits && !packet_records.empty()) {
      send_snapshot_packet(link, connection, frame);
      sent = true;
      packet_records.clear();
      snapshot_out.has_ack = link.received.has_received();
      bits = wire::header_bits(snapshot_out);
      cost = made.encoded.bits + wire::index_bits(b);
    }
    packet_records.push_back(made.ref());
    bits += cost;
  }
  // Inputs travel even when nothing owned is due, so remote prediction keeps up.
  if (!packet_records.empty() || (!sent && controlled && moving_due)) {
    send_snapshot_packet(link, connection, frame);
    sent = true;
  }
  if (sent) ++stats.snapshots_sent;
}

// With priorities: every candidate's accumulator grows by its priority for each of the `frames`
// since the link's last packet; the highest go first, as many as one packet and the byte
// budget hold.
void Peer::Impl::send_prioritized(SnapshotLink& link, ConnectionId connection, Frame frame, int frames) {
  const SnapshotConfig& sc = config.snapshots;
  const std::span<const ObjectState> states = history.newest_states();  // of `frame`
  const double refill = sc.bytes_per_second / static_cast<double>(config.tick_hz) * frames;
  link.budget.refill(refill, std::max<double>(refill, sc.packet_budget_bytes + sync::kPacketOverheadBytes));

  std::optional<Vec3> viewer;
  for (const auto& [peer, body] : remote_controlled) {
    if (peer == link.peer) viewer = states[body].position;
  }
  const float settled_due = sc.rest_priority * sc.settled_refresh_s * config.tick_hz;
  const auto coasting_due = static_cast<float>(sc.coasting_interval_frames);
  std::size_t kept = 0;
  for (BodyIndex b : candidates) {
    sync::PriorityFacts facts;
    facts.at_rest = states[b].at_rest;
    facts.controlled = (controlled && *controlled == b) ||
                       std::any_of(remote_controlled.begin(), remote_controlled.end(),
                                   [&](auto& p) { return p.second == b; });
    bool settled = false;  // at rest, and the receiver acknowledged exactly this state
    bool waiting = false;  // at rest, and this state went out and may yet be acknowledged
    if (sc.quantize && facts.at_rest) {
      const wire::QuantizedState* acked = link.sent.acknowledged(b);
      facts.came_to_rest = acked == nullptr || !acked->at_rest;
      settled = acked != nullptr && *acked == quantized[b];
      waiting = !settled && link.sent.in_flight(b, code_since[b], frame);
    }
    if (viewer) facts.distance_m = distance(states[b].position, *viewer);
    const float slowdown = relevant[b] ? 1.0f : 1.0f / kIrrelevantRestSlowdown;
    link.priority.add(b, sync::object_priority(sc, facts) * slowdown * static_cast<float>(frames));
    // Settled and coasting objects wait until enough priority has accumulated; the rest go
    // whenever the budget has room.
    const float due = settled ? settled_due : coasts_on(link, b, frame) ? coasting_due : 0.0f;
    if (!waiting && link.priority.value(b) >= due) candidates[kept++] = b;
  }
  candidates.resize(kept);
  // Even records of unchanged resting objects take a dozen bits: no packet holds more.
  constexpr std::size_t kMinRecordBits = 12;
  const double room_bytes = std::clamp(link.budget.available(), 0.0, double(sc.packet_budget_bytes));
  const auto most_per_packet = static_cast<std::size_t>(room_bytes * 8 / kMinRecordBits) + 1;
  link.priority.order(candidates, most_per_packet);

  packet_records.clear();
  snapshot_out.has_ack = link.received.has_received();
  const double room = std::min<double>(link.budget.available(), sc.packet_budget_bytes + sync::kPacketOverheadBytes);
  const double payload_bytes = room - sync::kPacketOverheadBytes - static_cast<double>(wire::kHeaderSize);
  const std::size_t header = wire::header_bits(snapshot_out);
  if (payload_bytes * 8 > static_cast<double>(header)) {
    const auto limit_bits = static_cast<std::size_t>(payload_bytes * 8);
    // Selection in priority order, each record's index gap estimated as a short one; the exact
    // size is checked once the chosen records are in index order, from each record's bits
    // without its index code (measured once) and the index codes of the real gaps.
    constexpr BodyIndex kTypicalGap = 8;
    std::size_t bits = header;
    const std::size_t considered = std::min(candidates.size(), most_per_packet);
    int misses = 0;
    constexpr int kMaxMisses = 32;  // a nearly full packet: stop looking for small records
    for (std::size_t i = 0; i < considered && limit_bits - bits >= kMinRecordBits; ++i) {
      const BodyIndex b = candidates[i];
      const MadeRecord& made = record_for(link, b, frame);
      const std::size_t cost = made.encoded.bits + wire::index_bits(std::min(b, kTypicalGap));
      if (bits + cost > limit_bits) {  // a smaller one further down may still fit
        if (++misses == kMaxMisses) break;
        continue;
      }
      packet_records.push_back(made.ref());
      bits += cost;
    }
    auto by_index = [](const wire::EncodedRef& a, const wire::EncodedRef& c) { return a.index < c.index; };
    std::sort(packet_records.begin(), packet_records.end(), by_index);
    auto exact_bits = [&] {
      std::size_t total = header;
      BodyIndex next = 0;
      for (const wire::EncodedRef& r : packet_records) {
        total += made_records[r.index].encoded.bits + wire::index_bits(r.index - next);
        next = r.index + 1;
      }
      return total;
    };
    while (!packet_records.empty() && exact_bits() > limit_bits) {
      // Estimates fell short: drop the least important until it fits.
      auto least = std::min_element(packet_records.begin(), packet_records.end(),
                                    [&](const wire::EncodedRef& a, const wire::EncodedRef& c) {
                                      return link.priority.value(a.index) < link.priority.value(c.index);
                                    });
      packet_records.erase(least);
    }
  }
  // Inputs travel every interval even when the budget is spent: remote prediction needs them.
  if (packet_records.empty() && !controlled) return;
  const std::size_t bytes = send_snapshot_packet(link, connection, frame);
  link.budget.spend(static_cast<double>(bytes + sync::kPacketOverheadBytes));
  for (const wire::EncodedRef& r : packet_records) link.priority.sent(r.index);
  ++stats.snapshots_sent;
}

}  // namespace shoal
