// SPDX-License-Identifier: MIT
#include "session/time_sync.hpp"

#include <algorithm>
#include <cstddef>
#include <cmath>
#include <stdexcept>
#include <string>

namespace shoal::session {
namespace {

/// Median of the values (reorders them). Requires at least one value.
double median_in_place(std::vector<double>& values) {
  std::sort(values.begin(), values.end());
  const std::size_t mid = values.size() / 2;
  return values.size() % 2 == 1 ? values[mid] : 0.5 * (values[mid - 1] + values[mid]);
}

}  // namespace

TimeSync::TimeSync(const TimeSyncConfig& config) : config_(config), tick_us_(0) {
  if (!(std::isfinite(config.tick_hz) && config.tick_hz > 0 && config.tick_hz <= 10000)) {
    throw std::invalid_argument("TimeSyncConfig.tick_hz must be in (0, 10000], got " +
                                std::to_string(config.tick_hz));
  }
  if (config.samples_per_peer == 0 || config.samples_per_peer > 1024) {
    throw std::invalid_argument("TimeSyncConfig.samples_per_peer must be in 1..1024, got " +
                                std::to_string(config.samples_per_peer));
  }
  tick_us_ = 1e6 / config.tick_hz;
  scratch_values_.reserve(config.samples_per_peer);
}

bool TimeSync::add_sample(PeerId from, std::int64_t ping_sent_us, double remote_match_time,
                          std::int64_t received_us) {
  // A ping this peer sent, answered within a minute: an echoed time outside that (a hostile
  // pong) would also overflow the round trip's subtraction.
  constexpr std::int64_t kLongestRoundTripUs = 60'000'000;
  if (received_us < ping_sent_us || ping_sent_us < received_us - kLongestRoundTripUs ||
      !std::isfinite(remote_match_time) || remote_match_time < 0) {
    ++rejected_samples_;
    return false;
  }
  const double rtt = static_cast<double>(received_us - ping_sent_us);
  const double timeline_at_receive = remote_match_time + 0.5 * rtt / tick_us_;
  Sample sample{rtt, timeline_at_receive - static_cast<double>(received_us) / tick_us_};

  PeerSamples& peer = samples_of(from);
  const std::size_t slot = peer.next;
  if (peer.ring.size() < config_.samples_per_peer) {
    peer.ring.push_back(sample);
  } else {
    peer.ring[slot] = sample;
    std::erase_if(peer.endpoints, [slot](const Endpoint& e) { return e.slot == slot; });
  }
  peer.next = (peer.next + 1) % config_.samples_per_peer;
  // Openings sort before closings at the same point, so touching intervals count as agreeing.
  auto before = [](const Endpoint& a, const Endpoint& b) {
    return a.at != b.at ? a.at < b.at : a.coverage_change > b.coverage_change;
  };
  const double half_width = 0.5 * sample.rtt_us / tick_us_;
  for (const Endpoint e : {Endpoint{sample.timeline_at_local_zero - half_width, +1, slot},
                           Endpoint{sample.timeline_at_local_zero + half_width, -1, slot}}) {
    peer.endpoints.insert(std::upper_bound(peer.endpoints.begin(), peer.endpoints.end(), e, before), e);
  }
  update_peer_estimate(peer);
  update_combined_estimate();
  return true;
}

void TimeSync::forget(PeerId peer) {
  const auto it = std::find_if(peers_.begin(), peers_.end(),
                               [peer](const PeerSamples& p) { return p.peer == peer; });
  if (it == peers_.end()) return;
  peers_.erase(it);
  update_combined_estimate();
}

void TimeSync::set_reference_peer(PeerId peer) {
  reference_ = peer;
  update_combined_estimate();
}

std::optional<double> TimeSync::target_wall_frame(std::int64_t now_us) const {
  if (!combined_) return std::nullopt;
  return *combined_ + static_cast<double>(now_us) / tick_us_;
}

std::optional<double> TimeSync::rtt_us(PeerId peer) const {
  const PeerSamples* found = find(peer);
  if (found == nullptr) return std::nullopt;
  std::vector<double> rtts;
  rtts.reserve(found->ring.size());
  for (const Sample& s : found->ring) rtts.push_back(s.rtt_us);
  return median_in_place(rtts);
}

std::size_t TimeSync::reference_samples() const {
  const PeerSamples* reference = find(reference_);
  return reference == nullptr ? 0 : reference->ring.size();
}

const TimeSync::PeerSamples* TimeSync::find(PeerId peer) const {
  const auto it = std::find_if(peers_.begin(), peers_.end(),
                               [peer](const PeerSamples& p) { return p.peer == peer; });
  return it == peers_.end() ? nullptr : &*it;
}

TimeSync::PeerSamples& TimeSync::samples_of(PeerId peer) {
  const auto it = std::find_if(peers_.begin(), peers_.end(),
                               [peer](const PeerSamples& p) { return p.peer == peer; });
  if (it != peers_.end()) return *it;
  PeerSamples fresh;
  fresh.peer = peer;
  fresh.ring.reserve(config_.samples_per_peer);
  fresh.endpoints.reserve(2 * config_.samples_per_peer);
  peers_.push_back(std::move(fresh));
  return peers_.back();
}

void TimeSync::update_peer_estimate(PeerSamples& peer) {
  // Sweep the interval endpoints in order and keep the range covered by the most samples.
  const std::vector<Endpoint>& endpoints = peer.endpoints;
  int coverage = 0;
  int best_coverage = 0;
  double best_low = 0;
  double best_high = 0;
  for (std::size_t i = 0; i < endpoints.size(); ++i) {
    coverage += endpoints[i].coverage_change;
    if (coverage > best_coverage) {
      best_coverage = coverage;
      best_low = endpoints[i].at;
      best_high = endpoints[i + 1].at;  // an opening is always followed by a closing
    }
  }
  peer.estimate = 0.5 * (best_low + best_high);
}

void TimeSync::update_combined_estimate() {
  if (peers_.empty()) {
    combined_.reset();
    return;
  }
  if (const PeerSamples* reference = find(reference_)) {
    combined_ = reference->estimate;
    return;
  }
  scratch_values_.clear();
  for (const PeerSamples& p : peers_) scratch_values_.push_back(p.estimate);
  combined_ = median_in_place(scratch_values_);
}

}  // namespace shoal::session
