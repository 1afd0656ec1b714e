// SPDX-License-Identifier: MIT
#include "session/joining.hpp"

#include <algorithm>

namespace shoal {

std::string_view to_string(JoinStep step) {
  switch (step) {
    case JoinStep::idle: return "idle";
    case JoinStep::connecting: return "connecting";
    case JoinStep::meshing: return "meshing";
    case JoinStep::syncing: return "syncing";
    case JoinStep::baselines: return "baselines";
    case JoinStep::joined: return "joined";
    case JoinStep::failed: return "failed";
  }
  return "unknown";
}

std::string_view to_string(JoinFailure failure) {
  switch (failure) {
    case JoinFailure::none: return "none";
    case JoinFailure::no_answer: return "no_answer";
    case JoinFailure::refused: return "refused";
    case JoinFailure::incompatible: return "incompatible";
    case JoinFailure::host_lost: return "host_lost";
  }
  return "unknown";
}

namespace session {

void Joining::begin(const Address& host, std::int64_t timeout_us) {
  host_ = host;
  timeout_us_ = timeout_us;
  start_pending_ = true;
}

void Joining::host() { start_pending_ = true; }

void Joining::tick(std::int64_t now_us) {
  if (!start_pending_) return;
  start_pending_ = false;
  started_us_ = now_us;
  deadline_us_ = now_us + timeout_us_;
}

void Joining::welcomed(std::size_t other_members) {
  mesh_needed_ = static_cast<int>(other_members);
}

std::optional<PendingLink> Joining::take_link(ConnectionId connection) {
  const auto found = std::find_if(mesh_.begin(), mesh_.end(), [&](const PendingLink& l) { return l.connection == connection; });
  if (found == mesh_.end()) return std::nullopt;
  PendingLink link = *found;
  mesh_.erase(found);
  return link;
}

void Joining::await_baselines(std::vector<PeerId> older) {
  baselines_awaited_ = std::move(older);
  baselines_needed_ = static_cast<int>(baselines_awaited_.size());
}

void Joining::await_baseline(PeerId peer) {
  if (finished() || std::find(baselines_awaited_.begin(), baselines_awaited_.end(), peer) != baselines_awaited_.end()) {
    return;
  }
  baselines_awaited_.push_back(peer);
  ++baselines_needed_;
}

void Joining::baseline_done(PeerId peer) { std::erase(baselines_awaited_, peer); }

void Joining::finish(std::int64_t now_us, bool failed) {
  if (finished()) return;
  finished_us_ = std::max<std::int64_t>(now_us, started_us_);
  if (started_us_ < 0) started_us_ = finished_us_;
  failed_ = failed;
  mesh_.clear();
  baselines_awaited_.clear();
}

PeerId Joining::blocking_peer(JoinStep step) const {
  if (step == JoinStep::meshing && !mesh_.empty()) return mesh_.front().peer;
  if (step == JoinStep::baselines && !baselines_awaited_.empty()) return baselines_awaited_.front();
  return kNoPeer;
}

JoinProgress Joining::progress(JoinStep step, int clock_samples, int clock_samples_needed, std::int64_t now_us) const {
  JoinProgress p;
  p.step = step;
  switch (step) {
    case JoinStep::meshing:
      p.needed = mesh_needed_;
      p.done = mesh_needed_ - static_cast<int>(mesh_.size());
      break;
    case JoinStep::syncing:
      p.needed = clock_samples_needed;
      p.done = std::min(clock_samples, clock_samples_needed);
      break;
    case JoinStep::baselines:
      p.needed = baselines_needed_;
      p.done = baselines_needed_ - static_cast<int>(baselines_awaited_.size());
      break;
    default:
      break;
  }
  if (started_us_ >= 0) p.elapsed_ms = ((finished() ? finished_us_ : now_us) - started_us_) / 1000;
  return p;
}

}  // namespace session
}  // namespace shoal
