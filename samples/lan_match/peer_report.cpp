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

void SampleWriter::joined(shoal::PeerId peer, std::string_view address) {
  fmt::format_to(std::back_inserter(buffer_), "joined peer={} address={}\n", peer, address);
  flush();
}

void SampleWriter::sample(const PeerSample& s) {
  const PeerFigures& f = s.figures;
  fmt::format_to(std::back_inserter(buffer_),
                 "sample final={} frame={} peer={} peers={} rtt_ms={} loss={} kbps_out={} kbps_in={} "
                 "overrides={} catchup_frames={} ownership_changes={} owned_objects={} frozen_objects={} desyncs={} "
                 "join_ms={} bodies={}\n",
                 s.final ? 1 : 0, f.frame, f.peer, f.peers_seen, f.rtt_ms, f.loss, f.kbps_out, f.kbps_in,
                 f.overrides, f.catchup_frames, f.ownership_changes, f.owned_objects, f.frozen_objects, f.desyncs,
                 f.join_ms, s.poses.size());
  for (const std::optional<Pose>& pose : s.poses) {
    if (!pose) {
      fmt::format_to(std::back_inserter(buffer_), "pose -\n");
      continue;
    }
    const shoal::Vec3& p = pose->position;
    const shoal::Quat& q = pose->orientation;
    fmt::format_to(std::back_inserter(buffer_), "pose {} {} {} {} {} {} {} {}\n", p.x, p.y, p.z, q.w, q.x, q.y, q.z,
                   pose->at_rest ? 1 : 0);
  }
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

void SampleReader::add_line(std::string_view line) {
  auto unreadable = [&] { errors.push_back(fmt::format("unreadable line from a peer: '{}'", line)); };
  if (pending_) {
    if (!line.starts_with("pose ")) {
      pending_.reset();
      unreadable();
      return;
    }
    std::optional<Pose> pose;
    if (line != "pose -") {
      float v[8];
      std::size_t at = 5;
      for (float& value : v) {
        const std::size_t end = std::min(line.find(' ', at), line.size());
        if (at >= line.size() || !read_number(line.substr(at, end - at), value)) {
          pending_.reset();
          unreadable();
          return;
        }
        at = end + 1;
      }
      if (v[7] != 0 && v[7] != 1) {
        pending_.reset();
        unreadable();
        return;
      }
      pose = Pose{{v[0], v[1], v[2]}, {v[3], v[4], v[5], v[6]}, v[7] == 1};
    }
    pending_->poses.push_back(pose);
    if (pending_->poses.size() == pending_bodies_) {
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
                    read_field(line, "join_ms", f.join_ms) && read_field(line, "bodies", pending_bodies_);
    if (!ok) {
      unreadable();
      return;
    }
    s.final = final != 0;
    if (pending_bodies_ == 0) {
      samples.push_back(std::move(s));
    } else {
      s.poses.reserve(pending_bodies_);
      pending_ = std::move(s);
    }
  } else if (line.starts_with("error ")) {
    errors.emplace_back(line.substr(6));
  } else {
    unreadable();
  }
}

}  // namespace lan_match
