// SPDX-License-Identifier: MIT
// See snapshot_sender.hpp. Per remote peer (SnapshotLink): the sender's log of what went out
// and the baselines the receiver acknowledged, the priority accumulators and the byte budget.
#include "peer/snapshot_sender.hpp"

#include <algorithm>
#include <stdexcept>

namespace shoal {
namespace {

// Resting objects outside a receiver's simulated region go this many times less often.
constexpr int kIrrelevantRestSlowdown = 4;

const authority::PeerRegions* regions_of(std::span<const authority::PeerRegions> regions, PeerId peer) {
  for (const authority::PeerRegions& r : regions) {
    if (r.peer == peer) return &r;
  }
  return nullptr;
}

}  // namespace

SnapshotSender::SnapshotSender(const PeerConfig& config, std::size_t bodies, const world::UserBytesLayout& user_bytes,
                               world::FrameHistory& history, const wire::Quantizer& quantizer,
                               sync::QuantizeFilter& filter, const sync::InputLog& inputs, SnapshotLinks& links,
                               const std::unique_ptr<Transport>& transport, PeerStats& stats)
    : config_(config),
      user_bytes_(user_bytes),
      history_(history),
      quantizer_(quantizer),
      filter_(filter),
      inputs_(inputs),
      links_(links),
      transport_(transport),
      stats_(stats),
      quantized_(bodies),
      code_since_(bodies, kNoFrame),
      relevant_(bodies),
      coasting_(bodies),
      last_contact_(bodies, kNoFrame),
      made_records_(bodies) {
  packet_records_.reserve(bodies);
  candidates_.reserve(bodies);
  settled_.reserve(bodies);
}

// By priority, a link sends one packet per interval; without, resting objects are due on frames
// of their own.
bool SnapshotSender::sending(Frame frame) const {
  return frame % config_.snapshot_interval_frames == 0 || !config_.snapshots.prioritize;
}

std::span<const SnapshotSender::Settled> SnapshotSender::settle_owned(const SendView& view) {
  settled_.clear();
  if (view.remotes.empty() || !config_.snapshots.quantize || !sending(view.frame)) return settled_;
  const std::span<const ObjectState> states = history_.newest_states();  // of view.frame
  for (BodyIndex b : view.owned) {
    ObjectState state = states[b];
    wire::QuantizedState code;
    if (filter_.encode(b, state, code)) settled_.push_back({b, state});
    if (!(code == quantized_[b])) {
      quantized_[b] = code;
      code_since_[b] = view.frame;
    }
  }
  return settled_;
}

void SnapshotSender::send(const SendView& view) {
  if (view.remotes.empty()) return;
  const Frame frame = view.frame;
  const SnapshotConfig& sc = config_.snapshots;
  const std::span<const ObjectState> states = history_.newest_states();  // of `frame`
  const bool moving_due = frame % config_.snapshot_interval_frames == 0;
  const bool due = sending(frame);
  if (due) note_coasting(view);
  snapshot_out_.sender = view.self;
  snapshot_out_.frame = frame;
  snapshot_out_.quantized = sc.quantize;
  snapshot_out_.velocities_at_rest = sc.velocities_at_rest;
  snapshot_out_.controlled = view.controlled_id;
  snapshot_out_.inputs.clear();
  if (view.controlled) {
    // The newest input is the one for the frame input_delay_frames ahead.
    const Frame newest_input = frame + config_.input_delay_frames;
    for (int k = 0; k < config_.input_redundancy && newest_input - k >= 0; ++k) {
      snapshot_out_.inputs.push_back({newest_input - k, inputs_.input(*view.controlled, newest_input - k)});
    }
  }

  for (const session::Member& m : view.remotes) {
    SnapshotLink& link = links_.get(m.id);
    if (due) {
      // Interest: only what the receiver's simulated region holds, as this peer sees it; a
      // peer that controls nothing (yet) gets everything.
      const authority::PeerRegions* interest = regions_of(view.regions, m.id);
      const bool everything = std::none_of(view.remote_controlled.begin(), view.remote_controlled.end(),
                                           [&](auto& p) { return p.first == m.id; });
      candidates_.clear();
      for (BodyIndex b : view.owned) {
        // Outside the receiver's simulated region only resting objects go, and rarely: enough
        // for every peer to agree on the whole world once it settles, at almost no cost.
        // This peer's player goes everywhere: every peer places its region by it, and one
        // that freezes it (outside its simulated region) writes these frames in instead.
        relevant_[b] = everything || (interest != nullptr && authority::is_member(interest->simulated, b)) ||
                       view.controlled == b;
        if (relevant_[b] || states[b].at_rest) candidates_.push_back(b);
      }
      if (sc.prioritize) {
        send_prioritized(link, m.connection, view);
      } else {
        send_due(link, m.connection, view, moving_due);
      }
    }
    if (link.received.ack_due()) {  // nothing went back this frame to carry the ack
      ack_out_.sender = view.self;
      link.received.take_ack(ack_out_.ack);
      if (wire::encode(ack_out_, out_buffer_)) {
        transport_->send(m.connection, Channel::state, out_buffer_);
        stats_.snapshot_bytes_sent += out_buffer_.size();
      }
    }
  }
}

void SnapshotSender::validate(std::span<const BodyIndex> owned) const {
  const std::size_t bodies = quantized_.size();
  if (code_since_.size() != bodies || relevant_.size() != bodies || coasting_.size() != bodies ||
      last_contact_.size() != bodies || made_records_.size() != bodies) {
    throw std::logic_error("SnapshotSender: a column per body");
  }
  for (std::size_t i = 0; i < owned.size(); ++i) {
    if (owned[i] >= bodies) throw std::logic_error("SnapshotSender: an owned body out of range");
    if (i > 0 && owned[i - 1] >= owned[i]) throw std::logic_error("SnapshotSender: owned bodies not ascending");
  }
  for (const wire::EncodedRef& r : packet_records_) {
    if (r.index >= bodies) throw std::logic_error("SnapshotSender: a packet record out of range");
  }
}

// Moving, nobody's controlled object, and no player about to touch it (as this peer sees the
// players: remote ones a few frames old). Its motion is the physics' own, from a state every
// peer shares once it acknowledged one from after the last touch.
void SnapshotSender::note_coasting(const SendView& view) {
  for (const authority::PeerRegions& r : view.regions) {
    for (BodyIndex b : r.contact_bodies) last_contact_[b] = view.frame;
  }
  const std::span<const ObjectState> states = history_.newest_states();
  for (BodyIndex b : view.owned) {
    coasting_[b] = static_cast<std::uint8_t>(!states[b].at_rest && view.controlled != b && last_contact_[b] != view.frame);
  }
}

// Whether a coasting body waits its turn on this link: only once the receiver has acknowledged
// it moving, in a frame after a player last touched it. That it started to move, or how a
// player pushed it, is news, which goes at once like any other; the receiver can foresee only
// the frames after.
bool SnapshotSender::coasts_on(const SnapshotLink& link, BodyIndex body, Frame frame, const SendView&) const {
  if (coasting_[body] == 0) return false;
  const wire::QuantizedState* acked = link.sent.acknowledged(body);
  if (acked == nullptr || acked->at_rest) return false;
  const Frame after_contact = last_contact_[body] + 1;
  return link.sent.acknowledged_frame(body) >= after_contact || link.sent.in_flight(body, after_contact, frame);
}

// A body's record depends on the link only through its baseline, which is what the body was
// at the baseline's frame, the same for every link: links whose baseline is of the same frame
// (most of them, acknowledgements coming back alike) share one record, made once a frame.
const SnapshotSender::MadeRecord& SnapshotSender::record_for(SnapshotLink& link, BodyIndex body, Frame frame) {
  const SnapshotConfig& sc = config_.snapshots;
  std::uint32_t age = 0;
  const wire::QuantizedState* baseline =
      sc.quantize && sc.delta ? link.sent.baseline(body, frame, sc.max_baseline_age_frames, age) : nullptr;
  MadeRecord& made = made_records_[body];
  if (made.frame == frame && made.record.baseline_age == age) return made;
  wire::ObjectRecord& r = made.record;
  if (sc.quantize) {
    r = wire::make_record(body, quantized_[body], baseline, age);
  } else {
    r = wire::ObjectRecord{};
    r.index = body;
    r.raw = history_.state(frame, body);
    r.at_rest = r.raw.at_rest;
  }
  if (user_bytes_.any()) add_user_bytes(r, link, frame);
  made.frame = frame;
  made.fits = wire::encode_record(snapshot_out_, r, quantizer_.limits(), made.encoded);
  return made;
}

// A record carries its body's user bytes, or "unchanged" when its baseline had the same.
void SnapshotSender::add_user_bytes(wire::ObjectRecord& record, const SnapshotLink& link, Frame frame) {
  const std::size_t size = user_bytes_.size[record.index];
  if (size == 0) return;
  const std::span<const std::uint8_t> baseline =
      record.baseline_age > 0 ? link.sent.baseline_user_bytes(record.index).first(size)
                              : std::span<const std::uint8_t>{};
  wire::set_user_bytes(record, history_.user_bytes(frame, record.index).first(size), baseline);
}

// Sends snapshot_out_'s header with packet_records_ (and the ack for this link) and logs it;
// returns the bytes sent.
std::size_t SnapshotSender::send_packet(SnapshotLink& link, ConnectionId connection, Frame frame) {
  snapshot_out_.has_ack = link.received.has_received();
  if (snapshot_out_.has_ack) link.received.take_ack(snapshot_out_.ack);
  snapshot_out_.sequence = link.sent.begin_packet(frame);
  if (config_.snapshots.quantize) {
    for (const wire::EncodedRef& r : packet_records_) {
      link.sent.add(r.index, quantized_[r.index], made_records_[r.index].record.user_bytes.view());
    }
  }
  if (!wire::encode(snapshot_out_, packet_records_, out_buffer_)) return 0;
  transport_->send(connection, Channel::state, out_buffer_);
  stats_.snapshot_bytes_sent += out_buffer_.size();
  return out_buffer_.size();
}

// Without priorities: every due object (moving ones every snapshot_interval_frames, those at
// rest every rest_snapshot_interval_frames), in as many packets as it takes.
void SnapshotSender::send_due(SnapshotLink& link, ConnectionId connection, const SendView& view, bool moving_due) {
  const Frame frame = view.frame;
  const std::span<const ObjectState> states = history_.newest_states();  // of `frame`
  const std::size_t limit_bits =
      (static_cast<std::size_t>(config_.snapshots.packet_budget_bytes) - wire::kHeaderSize) * 8;
  packet_records_.clear();
  snapshot_out_.has_ack = link.received.has_received();  // as the packet will be sent
  std::size_t bits = wire::header_bits(snapshot_out_);
  bool sent = false;
  for (BodyIndex b : candidates_) {
    const Frame rest_interval = config_.rest_snapshot_interval_frames * (relevant_[b] ? 1 : kIrrelevantRestSlowdown);
    // Coasting objects go every coasting_interval_frames-th interval, spread over the intervals.
    const Frame interval_number = frame / config_.snapshot_interval_frames + static_cast<Frame>(b);
    const bool due = states[b].at_rest ? (frame + static_cast<Frame>(b)) % rest_interval == 0
                                       : moving_due && (!coasts_on(link, b, frame, view) ||
                                                        interval_number % config_.snapshots.coasting_interval_frames == 0);
    if (!due) continue;
    const MadeRecord& made = record_for(link, b, frame);
    const BodyIndex next = packet_records_.empty() ? 0 : packet_records_.back().index + 1;
    std::size_t cost = made.encoded.bits + wire::index_bits(b - next);
    if (bits + cost > limit_bits && !packet_records_.empty()) {
      send_packet(link, connection, frame);
      sent = true;
      packet_records_.clear();
      snapshot_out_.has_ack = link.received.has_received();
      bits = wire::header_bits(snapshot_out_);
      cost = made.encoded.bits + wire::index_bits(b);
    }
    packet_records_.push_back(made.ref());
    bits += cost;
  }
  // Inputs travel even when nothing owned is due, so remote prediction keeps up.
  if (!packet_records_.empty() || (!sent && view.controlled && moving_due)) {
    send_packet(link, connection, frame);
    sent = true;
  }
  if (sent) ++stats_.snapshots_sent;
}

// With priorities: every candidate's accumulator grows by its priority for each of the `frames`
// since the link's last packet; the highest go first, as many as one packet and the byte
// budget hold.
void SnapshotSender::send_prioritized(SnapshotLink& link, ConnectionId connection, const SendView& view) {
  const Frame frame = view.frame;
  const int frames = config_.snapshot_interval_frames;
  const SnapshotConfig& sc = config_.snapshots;
  const std::span<const ObjectState> states = history_.newest_states();  // of `frame`
  const double refill = sc.bytes_per_second / static_cast<double>(config_.tick_hz) * frames;
  link.budget.refill(refill, std::max<double>(refill, sc.packet_budget_bytes + sync::kPacketOverheadBytes));

  std::optional<Vec3> viewer;
  for (const auto& [peer, body] : view.remote_controlled) {
    if (peer == link.peer) viewer = states[body].position;
  }
  const float settled_due = sc.rest_priority * sc.settled_refresh_s * config_.tick_hz;
  const auto coasting_due = static_cast<float>(sc.coasting_interval_frames);
  std::size_t kept = 0;
  for (BodyIndex b : candidates_) {
    sync::PriorityFacts facts;
    facts.at_rest = states[b].at_rest;
    facts.controlled = (view.controlled && *view.controlled == b) ||
                       std::any_of(view.remote_controlled.begin(), view.remote_controlled.end(),
                                   [&](auto& p) { return p.second == b; });
    bool settled = false;  // at rest, and the receiver acknowledged exactly this state
    bool waiting = false;  // at rest, and this state went out and may yet be acknowledged
    if (sc.quantize && facts.at_rest) {
      const wire::QuantizedState* acked = link.sent.acknowledged(b);
      facts.came_to_rest = acked == nullptr || !acked->at_rest;
      settled = acked != nullptr && *acked == quantized_[b];
      waiting = !settled && link.sent.in_flight(b, code_since_[b], frame);
    }
    if (viewer) facts.distance_m = distance(states[b].position, *viewer);
    const float slowdown = relevant_[b] ? 1.0f : 1.0f / kIrrelevantRestSlowdown;
    link.priority.add(b, sync::object_priority(sc, facts) * slowdown * static_cast<float>(frames));
    // Settled and coasting objects wait until enough priority has accumulated; the rest go
    // whenever the budget has room.
    const float due = settled ? settled_due : coasts_on(link, b, frame, view) ? coasting_due : 0.0f;
    if (!waiting && link.priority.value(b) >= due) candidates_[kept++] = b;
  }
  candidates_.resize(kept);
  // Even records of unchanged resting objects take a dozen bits: no packet holds more.
  constexpr std::size_t kMinRecordBits = 12;
  const double room_bytes = std::clamp(link.budget.available(), 0.0, double(sc.packet_budget_bytes));
  const auto most_per_packet = static_cast<std::size_t>(room_bytes * 8 / kMinRecordBits) + 1;
  link.priority.order(candidates_, most_per_packet);

  packet_records_.clear();
  snapshot_out_.has_ack = link.received.has_received();
  const double room = std::min<double>(link.budget.available(), sc.packet_budget_bytes + sync::kPacketOverheadBytes);
  const double payload_bytes = room - sync::kPacketOverheadBytes - static_cast<double>(wire::kHeaderSize);
  const std::size_t header = wire::header_bits(snapshot_out_);
  if (payload_bytes * 8 > static_cast<double>(header)) {
    const auto limit_bits = static_cast<std::size_t>(payload_bytes * 8);
    // Selection in priority order, each record's index gap estimated as a short one; the exact
    // size is checked once the chosen records are in index order, from each record's bits
    // without its index code (measured once) and the index codes of the real gaps.
    constexpr BodyIndex kTypicalGap = 8;
    std::size_t bits = header;
    const std::size_t considered = std::min(candidates_.size(), most_per_packet);
    int misses = 0;
    constexpr int kMaxMisses = 32;  // a nearly full packet: stop looking for small records
    for (std::size_t i = 0; i < considered && limit_bits - bits >= kMinRecordBits; ++i) {
      const BodyIndex b = candidates_[i];
      const MadeRecord& made = record_for(link, b, frame);
      const std::size_t cost = made.encoded.bits + wire::index_bits(std::min(b, kTypicalGap));
      if (bits + cost > limit_bits) {  // a smaller one further down may still fit
        if (++misses == kMaxMisses) break;
        continue;
      }
      packet_records_.push_back(made.ref());
      bits += cost;
    }
    auto by_index = [](const wire::EncodedRef& a, const wire::EncodedRef& c) { return a.index < c.index; };
    std::sort(packet_records_.begin(), packet_records_.end(), by_index);
    auto exact_bits = [&] {
      std::size_t total = header;
      BodyIndex next = 0;
      for (const wire::EncodedRef& r : packet_records_) {
        total += made_records_[r.index].encoded.bits + wire::index_bits(r.index - next);
        next = r.index + 1;
      }
      return total;
    };
    while (!packet_records_.empty() && exact_bits() > limit_bits) {
      // Estimates fell short: drop the least important until it fits.
      auto least = std::min_element(packet_records_.begin(), packet_records_.end(),
                                    [&](const wire::EncodedRef& a, const wire::EncodedRef& c) {
                                      return link.priority.value(a.index) < link.priority.value(c.index);
                                    });
      packet_records_.erase(least);
    }
  }
  // Inputs travel every interval even when the budget is spent: remote prediction needs them.
  if (packet_records_.empty() && !view.controlled) return;
  const std::size_t bytes = send_packet(link, connection, frame);
  link.budget.spend(static_cast<double>(bytes + sync::kPacketOverheadBytes));
  for (const wire::EncodedRef& r : packet_records_) link.priority.sent(r.index);
  ++stats_.snapshots_sent;
}

}  // namespace shoal
