// SPDX-License-Identifier: MIT
// shoal::Replay: a fresh peer fed a recording (peer/recorder.hpp) through ReplayTransport
// (peer/replay_transport.hpp), which answers every transport call with the recorded answer,
// and driven by the recorded calls and update times. After each update the recording says
// what the peer held; the first difference ends the replay and is described.
#include <fmt/format.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include "peer/peer_impl.hpp"
#include "peer/replay_transport.hpp"
#include "shoal/recording.hpp"

namespace shoal {
namespace {

std::string field_differences(const ObjectState& recorded, const ObjectState& replayed) {
  std::string out;
  auto compare = [&](const char* name, float a, float b) {
    if (std::bit_cast<std::uint32_t>(a) != std::bit_cast<std::uint32_t>(b)) out += fmt::format(" {} {} vs {};", name, a, b);
  };
  const char* names[] = {"position.x", "position.y", "position.z", "orientation.w", "orientation.x",
                         "orientation.y", "orientation.z", "linear_velocity.x", "linear_velocity.y",
                         "linear_velocity.z", "angular_velocity.x", "angular_velocity.y", "angular_velocity.z"};
  const float a[] = {recorded.position.x, recorded.position.y, recorded.position.z, recorded.orientation.w,
                     recorded.orientation.x, recorded.orientation.y, recorded.orientation.z,
                     recorded.linear_velocity.x, recorded.linear_velocity.y, recorded.linear_velocity.z,
                     recorded.angular_velocity.x, recorded.angular_velocity.y, recorded.angular_velocity.z};
  const float b[] = {replayed.position.x, replayed.position.y, replayed.position.z, replayed.orientation.w,
                     replayed.orientation.x, replayed.orientation.y, replayed.orientation.z,
                     replayed.linear_velocity.x, replayed.linear_velocity.y, replayed.linear_velocity.z,
                     replayed.angular_velocity.x, replayed.angular_velocity.y, replayed.angular_velocity.z};
  for (std::size_t i = 0; i < std::size(names); ++i) compare(names[i], a[i], b[i]);
  if (recorded.at_rest != replayed.at_rest) out += fmt::format(" at_rest {} vs {};", recorded.at_rest, replayed.at_rest);
  return out;
}

std::string check_difference(const wire::RecordedCheck& recorded, const wire::RecordedCheck& replayed) {
  if (recorded.frame != replayed.frame) {
    return fmt::format("the newest frame is {} in the replay, {} in the recording", replayed.frame, recorded.frame);
  }
  std::string what;
  if (recorded.states != replayed.states) what += "the states of frame " + std::to_string(recorded.frame);
  if (recorded.sends != replayed.sends) what += std::string(what.empty() ? "" : ", ") + "what it sent";
  if (recorded.events != replayed.events) what += std::string(what.empty() ? "" : ", ") + "its events";
  return what.empty() ? what : what + " differ";
}

}  // namespace

struct Replay::Impl {
  std::string path;
  std::vector<std::uint8_t> bytes;
  wire::RecordingHeader header;
  bool complete = false;
};

Replay::Replay(const std::string& path) : impl_(std::make_unique<Impl>()) {
  impl_->path = path;
  std::ifstream file(path, std::ios::binary);
  if (!file) throw std::runtime_error("shoal::Replay: cannot read '" + path + "'");
  impl_->bytes.assign(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
  wire::RecordingReader reader(impl_->bytes);
  if (const wire::DecodeStatus s = reader.header(impl_->header); !s) {
    throw std::runtime_error(fmt::format("shoal::Replay: '{}' is not a Shoal recording of version {} ({})", path,
                                         wire::kRecordingVersion, to_string(s.reason())));
  }
  // Walk it once: a damaged record is reported now, and a missing end is known up front.
  wire::Record record;
  for (bool at_end = false;;) {
    if (const wire::DecodeStatus s = reader.next(record, at_end); !s) {
      throw std::runtime_error(fmt::format("shoal::Replay: '{}' is damaged at byte {} ({})", path, reader.offset(),
                                           to_string(s.reason())));
    }
    if (at_end) break;
    impl_->complete = impl_->complete || record.kind == wire::RecordKind::end;
  }
}

Replay::~Replay() = default;

const PeerConfig& Replay::config() const { return impl_->header.config; }
std::span<const std::uint8_t> Replay::world() const { return impl_->header.world; }
bool Replay::complete() const { return impl_->complete; }

struct ReplaySession::Impl {
  Impl(const Replay::Impl& recording, Simulation& simulation, const ReplayOptions& options)
      : cursor(recording.bytes),
        peer(config_for(recording.header.config, options), simulation, std::make_unique<ReplayTransport>(cursor, sends)),
        inside(*peer.impl_) {
    const wire::RecordingHeader& header = recording.header;
    inside.session.secret = header.secret;
    inside.emitted = &events;  // digested as emitted, like the recorder's
    if (header.has_controlled) peer.set_controlled(header.controlled);
    peer.set_input(header.input);
  }

  static PeerConfig config_for(PeerConfig config, const ReplayOptions& options) {
    config.measure_update_cost = options.measure_update_cost;
    if (options.smoothing) config.smoothing = *options.smoothing;
    return config;
  }

  Frame newest() const { return inside.history.empty() ? kNoFrame : inside.history.newest(); }
  std::uint64_t corrections() const { return inside.stats.catchup_frames + inside.stats.snaps; }

  // After an update: the recording's check (if the recorded peer wrote one) against the replay.
  void compare_update() {
    const bool changed = newest() != before_frame || corrections() != before_corrections;
    const wire::Record* next = cursor.peek();
    const bool checked = next != nullptr && next->kind == wire::RecordKind::check;
    if (checked != (changed && !inside.history.empty())) {
      throw ReplayDiverged{fmt::format("update {} (at {} us) {} the peer's frames in the replay but {} in the recording",
                                 report.updates, update_us, changed ? "changed" : "did not change",
                                 checked ? "did" : "did not")};
    }
    if (!checked) return;
    const wire::RecordedCheck recorded = next->check;
    cursor.take();
    ++report.checks;
    const wire::RecordedCheck replayed = make_check(newest(), inside.history.newest_states(), events, sends);
    if (const std::string what = check_difference(recorded, replayed); !what.empty()) {
      throw ReplayDiverged{fmt::format("update {} (at {} us, frame {}): {}", report.updates, update_us, recorded.frame, what)};
    }
  }

  // The recording's end: the final states, field by field.
  void compare_end(const wire::Record& end) {
    const Frame frame = newest();
    if (frame != end.check.frame) {
      throw ReplayDiverged{fmt::format("at the end the newest frame is {} in the replay, {} in the recording", frame,
                                 end.check.frame)};
    }
    const std::span<const ObjectState> states =
        inside.history.empty() ? std::span<const ObjectState>{} : inside.history.newest_states();
    std::string first;
    for (std::size_t b = 0; b < states.size() && b < end.states.size(); ++b) {
      const std::string fields = field_differences(end.states[b], states[b]);
      if (fields.empty()) continue;
      const ObjectId id = inside.objects.id(static_cast<BodyIndex>(b));
      report.differing_objects.push_back(id);
      if (first.empty()) first = fmt::format("object {} (recorded vs replayed):{}", id, fields);
    }
    if (!first.empty() || states.size() != end.states.size()) {
      throw ReplayDiverged{fmt::format("at the end, frame {}: {} objects differ; {}", frame, report.differing_objects.size(),
                                 first)};
    }
  }

  // The game's spawn, again: the same id, or the replay went its own way.
  void spawn(const wire::Record& record) {
    ObjectId id = 0;
    try {
      id = peer.spawn(record.type, record.state, record.spawn_bytes.view());
    } catch (const std::exception& e) {
      throw ReplayDiverged{fmt::format("after update {}, the recorded spawn of object {} failed: {}", report.updates,
                                 record.object, e.what())};
    }
    if (id != record.object) {
      throw ReplayDiverged{fmt::format("after update {}, a spawn gave object {} in the replay, {} in the recording",
                                 report.updates, id, record.object)};
    }
  }
  // The game's message, again: the same answer from the peer's limits, or the replay went its own way.
  void message(const wire::Record& record) {
    bool sent = false;
    try {
      sent = peer.send_message(record.peer, record.payload, record.delivery, record.frame);
    } catch (const std::exception& e) {
      throw ReplayDiverged{fmt::format("after update {}, the recorded message to peer {} failed: {}", report.updates,
                                       record.peer, e.what())};
    }
    if (sent != record.sent) {
      throw ReplayDiverged{fmt::format("after update {}, a message to peer {} was {} in the replay, {} in the recording",
                                       report.updates, record.peer, sent ? "sent" : "refused", record.sent ? "sent" : "refused")};
    }
  }
  // The events the game took: the same ones leave the queue at the same point.
  void take_events(std::uint64_t count) {
    for (std::uint64_t i = 0; i < count; ++i) {
      if (Event e; !peer.poll_event(e)) {
        throw ReplayDiverged{fmt::format("after update {}, the game took {} events in the recording, {} in the replay",
                                         report.updates, count, i)};
      }
    }
  }
  void remove(ObjectId object) {
    try {
      peer.remove(object);
    } catch (const std::exception& e) {
      throw ReplayDiverged{fmt::format("after update {}, the recorded removal of object {} failed: {}", report.updates,
                                 object, e.what())};
    }
  }

  // Applies records up to the next update; its time, or nothing at the end.
  std::optional<std::int64_t> advance() {
    for (const wire::Record* r; (r = cursor.peek()) != nullptr;) {
      const wire::Record record = *r;
      cursor.take();
      switch (record.kind) {
        case wire::RecordKind::update:
          before_frame = newest();
          before_corrections = corrections();
          update_us = record.time_us;
          return record.time_us;
        case wire::RecordKind::input: peer.set_input(record.input); break;
        case wire::RecordKind::controlled: peer.set_controlled(record.object); break;
        case wire::RecordKind::host: peer.host(); break;
        case wire::RecordKind::join: peer.join(record.address); break;
        case wire::RecordKind::leave: break;  // the goodbye is not replayed; the end follows
        case wire::RecordKind::spawn: spawn(record); break;
        case wire::RecordKind::remove: remove(record.object); break;
        case wire::RecordKind::message: message(record); break;
        case wire::RecordKind::events_taken: take_events(record.count); break;
        case wire::RecordKind::end: compare_end(record); return std::nullopt;
        default:
          throw ReplayDiverged{fmt::format("after update {}, the recording has {} where the replayed peer asked nothing",
                                     report.updates, describe_record(record.kind))};
      }
    }
    return std::nullopt;
  }

  RecordCursor cursor;
  core::Digest sends, events;
  Peer peer;
  Peer::Impl& inside;
  ReplayReport report;
  bool pending = false;   // an update was announced and not yet compared
  bool updated = false;   // ... and it ran
  bool finished = false;
  std::int64_t update_us = 0;
  Frame before_frame = kNoFrame;
  std::uint64_t before_corrections = 0;
};

ReplaySession::ReplaySession(const Replay& replay, Simulation& simulation, const ReplayOptions& options) {
  const Replay::Impl& recording = *replay.impl_;
  const wire::RecordingHeader& header = recording.header;
  if (simulation.body_count() != header.body_count || world_digest(simulation) != header.world_states) {
    throw std::invalid_argument(fmt::format(
        "shoal::Replay: the simulation given ({} bodies) is not the world '{}' was recorded with ({} bodies, "
        "or other states)", simulation.body_count(), recording.path, header.body_count));
  }
  impl_ = std::make_unique<Impl>(recording, simulation, options);
}

ReplaySession::~ReplaySession() = default;

std::optional<std::int64_t> ReplaySession::next() {
  Impl& s = *impl_;
  if (s.finished) return std::nullopt;
  try {
    if (s.pending) {
      if (!s.updated) update();  // announced and skipped by the caller: run it all the same
      if (s.finished) return std::nullopt;
      s.pending = false;
      s.compare_update();
    }
    const std::optional<std::int64_t> at = s.advance();
    if (!at) {
      s.finished = true;
      s.report.identical = true;
      return std::nullopt;
    }
    s.pending = true;
    s.updated = false;
    return at;
  } catch (const ReplayDiverged& d) {
    s.finished = true;
    s.report.first_difference = d.what;
    return std::nullopt;
  }
}

void ReplaySession::update() {
  Impl& s = *impl_;
  if (!s.pending || s.updated) return;
  s.updated = true;
  ++s.report.updates;
  try {
    s.peer.update_at(s.update_us);
  } catch (const ReplayDiverged& d) {  // the peer asked its transport what the recorded one did not
    s.finished = true;
    s.pending = false;
    s.report.first_difference = d.what;
  }
}

Peer& ReplaySession::peer() { return impl_->peer; }

ReplayReport ReplaySession::report() const {
  ReplayReport r = impl_->report;
  r.final_frame = impl_->newest();
  r.stats = impl_->peer.stats();
  return r;
}

ReplayReport Replay::run(Simulation& simulation, const std::function<void(const Peer&)>& after_update,
                         const ReplayOptions& options) const {
  ReplaySession session(*this, simulation, options);
  while (session.next()) {
    session.update();
    if (after_update) after_update(session.peer());
  }
  return session.report();
}

}  // namespace shoal
