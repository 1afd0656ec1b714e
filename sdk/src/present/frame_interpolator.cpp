// SPDX-License-Identifier: MIT
#include "present/frame_interpolator.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace shoal::present {

FrameInterpolator::FrameInterpolator(const InterpolatorConfig& config) : config_(config) {
  if (!(std::isfinite(config.tick_seconds) && config.tick_seconds > 0 && config.tick_seconds <= 1)) {
    throw std::invalid_argument("InterpolatorConfig.tick_seconds must be in (0, 1] s, got " +
                                std::to_string(config.tick_seconds));
  }
  if (!(std::isfinite(config.max_extrapolation_seconds) && config.max_extrapolation_seconds >= 0)) {
    throw std::invalid_argument(
        "InterpolatorConfig.max_extrapolation_seconds must be a finite value >= 0, got " +
        std::to_string(config.max_extrapolation_seconds));
  }
}

ObjectState FrameInterpolator::interpolate(const FrameData& a, const FrameData& b, Frame at) const {
  if (!(a.frame < b.frame && a.frame <= at && at <= b.frame)) {
    throw std::invalid_argument("FrameInterpolator::interpolate needs a.frame < b.frame and "
                                "a.frame <= at <= b.frame, got a=" + std::to_string(a.frame) +
                                " b=" + std::to_string(b.frame) + " at=" + std::to_string(at));
  }
  const float s = static_cast<float>(at - a.frame) / static_cast<float>(b.frame - a.frame);
  const float span_seconds = static_cast<float>(b.frame - a.frame) * config_.tick_seconds;
  const float s2 = s * s;
  const float s3 = s2 * s;
  const float h00 = 2 * s3 - 3 * s2 + 1;
  const float h10 = s3 - 2 * s2 + s;
  const float h01 = -2 * s3 + 3 * s2;
  const float h11 = s3 - s2;

  ObjectState out;
  out.position = a.state.position * h00 + a.state.linear_velocity * (span_seconds * h10) +
                 b.state.position * h01 + b.state.linear_velocity * (span_seconds * h11);
  out.orientation = slerp(a.state.orientation, b.state.orientation, s);
  out.linear_velocity = lerp(a.state.linear_velocity, b.state.linear_velocity, s);
  out.angular_velocity = lerp(a.state.angular_velocity, b.state.angular_velocity, s);
  out.at_rest = a.state.at_rest && b.state.at_rest;
  return out;
}

ObjectState FrameInterpolator::extrapolate(const ObjectState& newest, float seconds) const {
  if (newest.at_rest) return newest;
  const float t = std::isfinite(seconds)
                      ? std::clamp(seconds, 0.0f, config_.max_extrapolation_seconds)
                      : 0.0f;
  ObjectState out = newest;
  out.position += newest.linear_velocity * t;
  const float spin = length(newest.angular_velocity);
  if (spin > 0) {
    // World-frame angular velocity: the turn applies on the left.
    out.orientation = normalized(axis_angle(newest.angular_velocity, spin * t) * newest.orientation);
  }
  return out;
}

std::optional<ObjectState> FrameInterpolator::sample(std::span<const FrameData> frames,
                                                     Frame at) const {
  if (frames.empty() || at < frames.front().frame) return std::nullopt;
  if (at >= frames.back().frame) {
    return extrapolate(frames.back().state,
                       static_cast<float>(at - frames.back().frame) * config_.tick_seconds);
  }
  // First frame after `at`; the one before it is at or before `at`.
  const auto after = std::upper_bound(frames.begin(), frames.end(), at,
                                      [](Frame f, const FrameData& d) { return f < d.frame; });
  const FrameData& before = *(after - 1);
  if (before.frame == at) return before.state;
  return interpolate(before, *after, at);
}

}  // namespace shoal::present
