// SPDX-License-Identifier: MIT
#include "session/pace.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace shoal::session {

PaceController::PaceController(const PaceConfig& config) : config_(config) {
  auto require = [](bool ok, const std::string& what) {
    if (!ok) throw std::invalid_argument("PaceConfig: " + what);
  };
  require(std::isfinite(config.min_rate) && config.min_rate > 0 && config.min_rate <= 1,
          "min_rate must be in (0, 1], got " + std::to_string(config.min_rate));
  require(config.lag_frames >= 1, "lag_frames must be at least 1, got " + std::to_string(config.lag_frames));
  require(std::isfinite(config.decrease) && config.decrease > 0 && config.decrease < 1,
          "decrease must be in (0, 1), got " + std::to_string(config.decrease));
  require(std::isfinite(config.increase) && config.increase > 0 && config.increase <= 1,
          "increase must be in (0, 1], got " + std::to_string(config.increase));
  require(config.interval_ms >= 1 && config.recover_ms >= 1,
          "interval_ms and recover_ms must be at least 1, got " + std::to_string(config.interval_ms) + " and " +
              std::to_string(config.recover_ms));
}

void PaceController::report(PeerId peer, int lag_frames, std::int64_t now_us) {
  for (Report& r : reports_) {
    if (r.peer != peer) continue;
    // The worst since the last decision counts: a lag reported and then cleared within one
    // interval still says the peer could not keep up.
    r.lag_frames = std::max(r.lag_frames, lag_frames);
    r.at_us = now_us;
    return;
  }
  reports_.push_back({peer, lag_frames, now_us});
}

void PaceController::forget(PeerId peer) {
  std::erase_if(reports_, [peer](const Report& r) { return r.peer == peer; });
}

float PaceController::decide(std::int64_t now_us) {
  if (!config_.enabled) return rate_;
  if (last_change_us_ >= 0 && now_us - last_change_us_ < std::int64_t{config_.interval_ms} * 1000) return rate_;
  bool lagging = false;
  for (Report& r : reports_) {
    if (now_us - r.at_us > kReportLifetimeUs) continue;
    lagging = lagging || r.lag_frames >= config_.lag_frames;
    r.lag_frames = 0;  // each interval judges afresh
  }
  if (lagging) {
    last_lag_us_ = now_us;
    if (rate_ > config_.min_rate) {
      rate_ = std::max(config_.min_rate, rate_ * config_.decrease);
      ++slowdowns_;
    }
  } else if (rate_ < 1.0f && (last_lag_us_ < 0 || now_us - last_lag_us_ >= std::int64_t{config_.recover_ms} * 1000)) {
    rate_ = std::min(1.0f, rate_ + config_.increase);
  }
  last_change_us_ = now_us;
  return rate_;
}

}  // namespace shoal::session
