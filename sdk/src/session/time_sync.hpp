// SPDX-License-Identifier: MIT
// Estimates where the host's wall clock is right now, from ping/pong samples. That clock
// (the host's local time in frames at the nominal tick rate) never changes rate; the match
// timeline is a function of it (session/pace.hpp), so samples taken while the match was
// slowed stay comparable. Below, "match time" is that wall time.
//
// A pong carries the responder's match time (frame + fraction) at the moment it answered and
// echoes the local time at which we sent the ping. When the pong arrives, the responder's
// timeline has moved on by the return leg, which is somewhere between 0 and the whole RTT:
// each sample therefore bounds the timeline to `remote_match_time + [0, rtt] / tick`, centred
// on the usual `remote_match_time + (rtt / 2) / tick`. Queueing only widens these intervals,
// so the lowest-RTT samples bound it most tightly. Each peer's estimate is the middle of the
// range that most of its recent samples agree on (Marzullo's intersection, as NTP does): the
// quickest outbound and the quickest return leg both narrow it, and a sample with a bogus
// match time simply falls outside the majority. Peers are then combined by their median so
// that one bad peer cannot drag the result, except that the reference peer (the host, whose
// clock defines the timeline) is used alone while it has samples: the others only relay its
// timeline with their own error added, and with two sources a median is merely their mean.
//
// Only peers whose clock is already synchronised (or the host, which defines the timeline)
// should answer pings: an unsynchronised peer's match time says nothing about the match.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "shoal/types.hpp"

namespace shoal::session {

struct TimeSyncConfig {
  double tick_hz = 60.0;
  /// Recent samples kept per remote peer. The estimate is off by half the difference between
  /// the quickest outbound and the quickest return leg among them, so the window must be long
  /// enough for both to come close to the link's floor: under 80 ms of jitter, 16 samples (1.6
  /// s of pings) left peers more than a frame apart now and then; 64 (6.4 s at the default
  /// ping interval) did not. Oscillator drift over such a window (about 0.1 ms per 1e-5 of
  /// rate difference and second) stays far below a frame.
  std::size_t samples_per_peer = 64;
};

class TimeSync {
 public:
  /// Throws std::invalid_argument when the config is unusable.
  explicit TimeSync(const TimeSyncConfig& config = {});

  /// Records one pong. `ping_sent_us` is our local time echoed by the responder,
  /// `remote_match_time` the responder's match time (frames) when it answered,
  /// `received_us` our local time when the pong arrived. Returns false (and counts the sample
  /// as rejected) when the sample is impossible: arrival before sending, a non-finite or
  /// negative match time.
  bool add_sample(PeerId from, std::int64_t ping_sent_us, double remote_match_time,
                  std::int64_t received_us);
  /// Drops a peer's samples (it left, or its clock restarted).
  void forget(PeerId peer);
  /// The peer whose clock defines the timeline (the host); kNoPeer = median of all peers.
  void set_reference_peer(PeerId peer);

  /// The host's wall time (frames) at local time `now_us`, or nothing before the first sample.
  std::optional<double> target_wall_frame(std::int64_t now_us) const;
  /// Median round-trip time of the samples kept for `peer`, in microseconds.
  std::optional<double> rtt_us(PeerId peer) const;

  std::size_t peer_count() const { return peers_.size(); }
  /// Samples kept of the reference peer: 0 when it has none, or when no reference is set.
  std::size_t reference_samples() const;
  std::uint64_t rejected_samples() const { return rejected_samples_; }

 private:
  struct Sample {
    double rtt_us = 0;
    /// The middle of the sample's interval, moved back to our local time 0 (frames), so that
    /// samples taken at different times are comparable.
    double timeline_at_local_zero = 0;
  };
  struct Endpoint {
    double at = 0;
    int coverage_change = 0;  ///< +1 where a sample's interval opens, -1 where it closes
    std::size_t slot = 0;     ///< the ring slot of its sample
  };
  struct PeerSamples {
    PeerId peer = kNoPeer;
    std::vector<Sample> ring;  ///< capacity samples_per_peer, oldest overwritten first
    std::size_t next = 0;
    /// The ring's interval endpoints in sweep order, kept sorted as samples come and go (a
    /// sample replaces one: two removals and two insertions, not a sort of them all).
    std::vector<Endpoint> endpoints;
    double estimate = 0;  ///< filtered timeline_at_local_zero
  };

  PeerSamples& samples_of(PeerId peer);
  const PeerSamples* find(PeerId peer) const;  ///< nullptr when it has no samples
  void update_peer_estimate(PeerSamples& peer);
  void update_combined_estimate();

  TimeSyncConfig config_;
  double tick_us_;
  std::vector<PeerSamples> peers_;
  std::vector<double> scratch_values_;
  PeerId reference_ = kNoPeer;
  std::optional<double> combined_;     ///< the reference's estimate, else the median over peers
  std::uint64_t rejected_samples_ = 0;
};

}  // namespace shoal::session
