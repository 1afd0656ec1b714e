// SPDX-License-Identifier: MIT
#include "peer_report.hpp"

#include <charconv>
#include <cstdlib>

namespace lan_match {
namespace {

// Splits "key=value" words; returns the value of `key` or an empty view.
std::string_view field(std::string_view line, std::string_view key) {
  std::size_t at = 0;
  while (at < line.size()) {
    const std::size_t end = std::min(line.find(' ', at), line.size());
    const std::string_view word = line.substr(at, end - at);
    if (word.size() > key.size() && word.starts_with(key) && word[key.size()] == '=') {
      return word.substr(key.size() + 1);
    }
    at = end + 1;
  }
  return {};
}

template <class Number>
bool read_number(std::string_view text, Number& value) {
  if constexpr (std::is_floating_point_v<Number>) {
    // strtof reads the shortest round-trip form fmt prints, including "inf" and "nan".
    const std::string copy(text);
    char* end = nullptr;
    value = std::strtof(copy.c_str(), &end);
    return !copy.empty() && end == copy.c_str() + copy.size();
  } else {
    const auto [stop, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    return !text.empty() && error == std::errc{} && stop == text.data() + text.size();
  }
}

template <class Number>
bool read_field(std::string_view line, std::string_view key, Number& value) {
  return read_number(field(line, key), value);
}

// A field a peer in another language may leave out (what its binding cannot measure): absent, the
// value stays as it was (0, reported as not measured).
template <class Number>
bool read_optional_field(std::string_view line, std::string_view key, Number& value) {
  const std::string_view text = field(line, key);
  return text.empty() || read_number(text, value);
}

bool read_step(std::string_view text, shoal::JoinStep& step) {
  for (int i = 0; i <= static_cast<int>(shoal::JoinStep::failed); ++i) {
    const auto candidate = static_cast<shoal::JoinStep>(i);
    if (shoal::to_string(candidate) == text) {
      step = candidate;
      return true;
    }
  }
  return false;
}

}  // namespace

void SampleWriter::phase(const shoal::JoinProgress& p) {
  fmt::format_to(std::back_inserter(buffer_), "phase step={} done={} needed={} elapsed_ms={}\n", shoal::to_string(p.step),
                 p.done, p.needed, p.elapsed_ms);
  flush();
}

void SampleWriter::reowned(shoal::PeerId dead, std::int64_t at_us) {
  fmt::format_to(std::back_inserter(buffer_), "reowned peer={} at_us={}\n", dead, at_us);
  flush();
}

void SampleWriter::joined(shoal::PeerId peer, std::string_view address) {
  fmt::format_to(std::back_inserter(buffer_), "joined peer={} address={}\n", peer, address);
  flush();
}

void SampleWriter::sample(const PeerSample& s) {
  const PeerFigures& f = s.figures;
  fmt::format_to(std::back_inserter(buffer_),
                 "sample final={} frame={} peer={} peers={} rtt_ms={} loss={} kbps_out={} kbps_in={} "
                 "overrides={} catchup_frames={} ownership_changes={} owned_objects={} frozen_objects={} desyncs={} "
                 "join_ms={} pace={} cpu_ms={} spawned={} removed={} live={} bad_spawn={} over_limit={} "
                 "latency_p50_ms={} latency_p99_ms={} visual_p99_mm={} visual_max_mm={} bodies={} spawned_states={} "
                 "diagnoses={}\n",
                 s.final ? 1 : 0, f.frame, f.peer, f.peers_seen, f.rtt_ms, f.loss, f.kbps_out, f.kbps_in,
                 f.overrides, f.catchup_frames, f.ownership_changes, f.owned_objects, f.frozen_objects, f.desyncs,
                 f.join_ms, f.pace, f.cpu_ms, f.objects_spawned, f.objects_removed, f.live_objects, f.bad_spawn, f.over_limit,
                 f.latency_p50_ms, f.latency_p99_ms, f.visual_p99_mm, f.visual_max_mm, s.states.size(),
                 s.spawned_ids.size(), s.diagnoses.size());
  for (const std::optional<shoal::ObjectState>& state : s.states) {
    fmt::format_to(std::back_inserter(buffer_), "pose");
    write_pose(state);
  }
  for (std::size_t i = 0; i < s.spawned_ids.size(); ++i) {
    fmt::format_to(std::back_inserter(buffer_), "spawned {}", s.spawned_ids[i]);
    write_pose(s.spawned_states[i]);
  }
  for (const shoal::ObjectDiagnosis& d : s.diagnoses) {
    fmt::format_to(std::back_inserter(buffer_), "diag owner={} frozen={} confirmed={} owner_frame={}@{} overrides={} said=",
                   d.owner, d.frozen ? 1 : 0, d.confirmed ? 1 : 0, d.last_owner_frame, d.last_owner_frame_at,
                   d.overrides);
    if (d.owner_said) {
      const shoal::ObjectState& o = d.owner_said_state;
      fmt::format_to(std::back_inserter(buffer_), "{}:{},{},{},{}", d.owner_said_frame, o.position.x, o.position.y,
                     o.position.z, o.at_rest ? 1 : 0);
    } else {
      fmt::format_to(std::back_inserter(buffer_), "-");
    }
    fmt::format_to(std::back_inserter(buffer_), " history=");
    if (d.ownership.empty()) fmt::format_to(std::back_inserter(buffer_), "-");
    for (std::size_t i = 0; i < d.ownership.size(); ++i) {
      const shoal::OwnershipHistoryEntry& e = d.ownership[i];
      fmt::format_to(std::back_inserter(buffer_), "{}{}:{}:{}:{}:{}", i == 0 ? "" : ",", e.frame, e.owner, e.sequence,
                     e.author, e.applied_at);
    }
    fmt::format_to(std::back_inserter(buffer_), "\n");
  }
  flush();
}

// " X Y Z ..." after a line's first word(s), or " -" for a state unknown.
void SampleWriter::write_pose(const std::optional<shoal::ObjectState>& state) {
  if (!state) {
    fmt::format_to(std::back_inserter(buffer_), " -\n");
    return;
  }
  const shoal::Vec3& p = state->position;
  const shoal::Quat& q = state->orientation;
  const shoal::Vec3& v = state->linear_velocity;
  const shoal::Vec3& w = state->angular_velocity;
  fmt::format_to(std::back_inserter(buffer_), " {} {} {} {} {} {} {} {} {} {} {} {} {} {}\n", p.x, p.y, p.z, q.w, q.x, q.y,
                 q.z, v.x, v.y, v.z, w.x, w.y, w.z, state->at_rest ? 1 : 0);
}

void SampleWriter::kicked(std::string_view reason) {
  fmt::format_to(std::back_inserter(buffer_), "kicked {}\n", reason);
  flush();
}

void SampleWriter::comeback(bool refused, std::string_view reason) {
  fmt::format_to(std::back_inserter(buffer_), "comeback refused={} {}\n", refused ? 1 : 0, reason);
  flush();
}

void SampleWriter::error(std::string_view message) {
  fmt::format_to(std::back_inserter(buffer_), "error {}\n", message);
  flush();
}

void SampleWriter::flush() {
  std::fwrite(buffer_.data(), 1, buffer_.size(), out_);
  std::fflush(out_);
  buffer_.clear();
}

// The 14 numbers of a pose ("-": unknown); false when they do not parse.
static bool read_pose(std::string_view text, std::optional<shoal::ObjectState>& out) {
  if (text == "-") {
    out.reset();
    return true;
  }
  float v[14];
  std::size_t at = 0;
  for (float& value : v) {
    const std::size_t end = std::min(text.find(' ', at), text.size());
    if (at >= text.size() || !read_number(text.substr(at, end - at), value)) return false;
    at = end + 1;
  }
  if (at < text.size() || (v[13] != 0 && v[13] != 1)) return false;
  shoal::ObjectState state;
  state.position = {v[0], v[1], v[2]};
  state.orientation = {v[3], v[4], v[5], v[6]};
  state.linear_velocity = {v[7], v[8], v[9]};
  state.angular_velocity = {v[10], v[11], v[12]};
  state.at_rest = v[13] == 1;
  out = state;
  return true;
}

// "pose ..." into the pending sample's next state; false when it does not parse.
bool SampleReader::read_state_line(std::string_view line) {
  if (!line.starts_with("pose ")) return false;
  return read_pose(line.substr(5), pending_->states.emplace_back());
}

// "spawned ID ..." into the pending sample's next spawned object; false when it does not parse.
bool SampleReader::read_spawned_line(std::string_view line) {
  if (!line.starts_with("spawned ")) return false;
  const std::size_t space = line.find(' ', 8);
  shoal::ObjectId id = 0;
  if (space == std::string_view::npos || !read_number(line.substr(8, space - 8), id)) return false;
  pending_->spawned_ids.push_back(id);
  return read_pose(line.substr(space + 1), pending_->spawned_states.emplace_back());
}

// "diag ..." into the pending sample's next diagnosis; false when it does not parse.
bool SampleReader::read_diagnosis_line(std::string_view line) {
  if (!line.starts_with("diag ")) return false;
  shoal::ObjectDiagnosis d;
  int frozen = 0, confirmed = 0;
  const std::string_view owner_frame = field(line, "owner_frame");
  const std::size_t at = owner_frame.find('@');
  if (!read_field(line, "owner", d.owner) || !read_field(line, "frozen", frozen) ||
      !read_field(line, "confirmed", confirmed) || !read_field(line, "overrides", d.overrides) ||
      at == std::string_view::npos || !read_number(owner_frame.substr(0, at), d.last_owner_frame) ||
      !read_number(owner_frame.substr(at + 1), d.last_owner_frame_at)) {
    return false;
  }
  d.frozen = frozen != 0;
  d.confirmed = confirmed != 0;
  // Comma- or colon-separated numbers of one field.
  auto numbers = [](std::string_view text, std::vector<std::string_view>& out) {
    out.clear();
    for (std::size_t start = 0; start <= text.size();) {
      const std::size_t stop = std::min(text.find_first_of(":,", start), text.size());
      out.push_back(text.substr(start, stop - start));
      start = stop + 1;
    }
  };
  std::vector<std::string_view> parts;
  const std::string_view said = field(line, "said");
  if (said != "-") {
    numbers(said, parts);
    float x = 0, y = 0, z = 0;
    int rest = 0;
    if (parts.size() != 5 || !read_number(parts[0], d.owner_said_frame) || !read_number(parts[1], x) ||
        !read_number(parts[2], y) || !read_number(parts[3], z) || !read_number(parts[4], rest)) {
      return false;
    }
    d.owner_said = true;
    d.owner_said_state.position = {x, y, z};
    d.owner_said_state.at_rest = rest != 0;
  }
  const std::string_view history = field(line, "history");
  if (history != "-") {
    numbers(history, parts);
    if (parts.empty() || parts.size() % 5 != 0) return false;
    for (std::size_t i = 0; i < parts.size(); i += 5) {
      shoal::OwnershipHistoryEntry e;
      if (!read_number(parts[i], e.frame) || !read_number(parts[i + 1], e.owner) ||
          !read_number(parts[i + 2], e.sequence) || !read_number(parts[i + 3], e.author) ||
          !read_number(parts[i + 4], e.applied_at)) {
        return false;
      }
      d.ownership.push_back(e);
    }
  }
  pending_->diagnoses.push_back(std::move(d));
  return true;
}

void SampleReader::add_line(std::string_view line) {
  auto unreadable = [&] { errors.push_back(fmt::format("unreadable line from a peer: '{}'", line)); };
  if (pending_) {
    const bool states_done = pending_->states.size() == pending_bodies_;
    const bool spawned_done = pending_->spawned_ids.size() == pending_spawned_;
    const bool read = !states_done    ? read_state_line(line)
                      : !spawned_done ? read_spawned_line(line)
                                      : read_diagnosis_line(line);
    if (!read) {
      pending_.reset();
      unreadable();
      return;
    }
    if (pending_->states.size() == pending_bodies_ && pending_->spawned_ids.size() == pending_spawned_ &&
        pending_->diagnoses.size() == pending_diagnoses_) {
      samples.push_back(std::move(*pending_));
      pending_.reset();
    }
    return;
  }
  if (line.starts_with("phase ")) {
    shoal::JoinProgress p;
    if (read_step(field(line, "step"), p.step) && read_field(line, "done", p.done) &&
        read_field(line, "needed", p.needed) && read_field(line, "elapsed_ms", p.elapsed_ms)) {
      phase = p;
    } else {
      unreadable();
    }
  } else if (line.starts_with("joined ")) {
    shoal::PeerId id = shoal::kNoPeer;
    if (read_field(line, "peer", id)) peer = id; else unreadable();
  } else if (line.starts_with("kicked ")) {
    kicked = std::string(line.substr(7));
  } else if (line.starts_with("comeback ")) {
    int refused = 0;
    if (!read_field(line, "refused", refused)) return unreadable();
    ++comebacks;
    if (refused != 0) ++comebacks_refused;
    const std::size_t reason = line.find(' ', 9);
    comeback_reason = reason == std::string_view::npos ? std::string{} : std::string(line.substr(reason + 1));
  } else if (line.starts_with("reowned ")) {
    Reowned r;
    if (read_field(line, "peer", r.dead) && read_field(line, "at_us", r.at_us)) reowned.push_back(r); else unreadable();
  } else if (line.starts_with("sample ")) {
    PeerSample s;
    PeerFigures& f = s.figures;
    int final = 0;
    const bool ok = read_field(line, "final", final) && read_field(line, "frame", f.frame) &&
                    read_field(line, "peer", f.peer) && read_field(line, "peers", f.peers_seen) &&
                    read_field(line, "rtt_ms", f.rtt_ms) && read_field(line, "loss", f.loss) &&
                    read_field(line, "kbps_out", f.kbps_out) && read_field(line, "kbps_in", f.kbps_in) &&
                    read_field(line, "overrides", f.overrides) &&
                    read_field(line, "catchup_frames", f.catchup_frames) &&
                    read_field(line, "ownership_changes", f.ownership_changes) &&
                    read_field(line, "owned_objects", f.owned_objects) &&
                    read_field(line, "frozen_objects", f.frozen_objects) && read_field(line, "desyncs", f.desyncs) &&
                    read_field(line, "join_ms", f.join_ms) && read_field(line, "pace", f.pace) &&
                    read_field(line, "cpu_ms", f.cpu_ms) && read_field(line, "spawned", f.objects_spawned) &&
                    read_field(line, "removed", f.objects_removed) && read_field(line, "live", f.live_objects) &&
                    read_field(line, "bad_spawn", f.bad_spawn) && read_field(line, "over_limit", f.over_limit) &&
                    read_optional_field(line, "latency_p50_ms", f.latency_p50_ms) &&
                    read_optional_field(line, "latency_p99_ms", f.latency_p99_ms) &&
                    read_optional_field(line, "visual_p99_mm", f.visual_p99_mm) &&
                    read_optional_field(line, "visual_max_mm", f.visual_max_mm) &&
                    read_field(line, "bodies", pending_bodies_) &&
                    read_field(line, "spawned_states", pending_spawned_) &&
                    read_field(line, "diagnoses", pending_diagnoses_);
    if (!ok || (pending_diagnoses_ != 0 && pending_diagnoses_ != pending_bodies_)) {
      unreadable();
      return;
    }
    s.final = final != 0;
    if (pending_bodies_ == 0 && pending_spawned_ == 0) {
      samples.push_back(std::move(s));
    } else {
      s.states.reserve(pending_bodies_);
      s.spawned_ids.reserve(pending_spawned_);
      s.spawned_states.reserve(pending_spawned_);
      s.diagnoses.reserve(pending_diagnoses_);
      pending_ = std::move(s);
    }
  } else if (line.starts_with("error ")) {
    errors.emplace_back(line.substr(6));
  } else {
    unreadable();
  }
}

}  // namespace lan_match
