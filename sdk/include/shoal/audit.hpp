// SPDX-License-Identifier: MIT
// Audit: catching a peer that lies about the objects it owns. An auditor watches the snapshots
// a relay forwards between the members of one session, samples owner frames, re-simulates
// each sampled object alone from an earlier frame of the same owner, and counts per peer how
// often the owner's later frame disagrees with the re-simulation. A peer whose recent samples
// disagree too often is a suspect: the relay expels it, and every other peer hands its objects
// to the default owner.
//
// Only what can be re-simulated alone is checked: an object that another object could reach
// within the horizon is skipped, so collisions (whose other party the auditor cannot replay)
// never count against anyone. The world factory must build the game's world exactly as the
// peers do (same bodies in the same order, same physics settings).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "shoal/simulation.hpp"
#include "shoal/snapshot_config.hpp"
#include "shoal/transport.hpp"
#include "shoal/types.hpp"

namespace shoal {

/// What an Auditor needs: the match's world, its encoding and step, and how strictly to judge.
struct AuditConfig {
  /// Builds a fresh copy of the match's world (bodies in their starting states). Required.
  std::function<std::unique_ptr<Simulation>()> world;
  /// The snapshot encoding of the match (SnapshotConfig's encoding fields must be the peers').
  SnapshotConfig snapshots;
  float frame_seconds = 1.0f / 60.0f;  ///< the match's fixed step, (0, 1]
  float sample_probability = 0.2f;     ///< chance that a received owner frame is checked, (0, 1]
  int horizon_frames = 8;              ///< re-simulate at most this many frames, 1..16
  float position_tolerance_m = 0.005f; ///< larger than this between owner and re-simulation is a mismatch, > 0
  /// Extra distance (m) beyond bounding radii and speeds within which another object makes a
  /// sample unsafe to check alone, >= 0.
  float reach_margin_m = 0.5f;
  /// The fastest a body's speed can grow, m/s^2 (gravity plus the strongest push of the game's
  /// controls), >= 0. It bounds where a moving object the auditor has not heard of for a while
  /// may be now: its owner may have stopped sending it (to no one's simulated region, or the
  /// owner is gone and the others simulate it on their own), and it may have fallen or been
  /// pushed since. Too low, and an honest owner's object that such an object hits counts as a
  /// mismatch.
  float max_acceleration_mps2 = 30;
  int window_samples = 20;             ///< a verdict looks at the last this many samples, >= 1
  float suspect_ratio = 0.5f;          ///< mismatches / window above which a peer is a suspect, [0, 1)
  std::uint64_t seed = 1;              ///< sampling
};

/// What the auditor found of one sending member (by its relay slot).
struct AuditPeerStats {
  std::uint16_t slot = 0;  ///< the member's slot on the relay
  PeerId peer = kNoPeer;            ///< as its snapshots name it
  std::uint64_t owner_frames = 0;   ///< distinct owner frames decoded
  std::uint64_t samples = 0;        ///< re-simulated and compared
  std::uint64_t mismatches = 0;     ///< of those, beyond the tolerance
  std::uint64_t skipped = 0;        ///< sampled but not checkable (neighbours, missing frames or inputs)
  float max_error_m = 0;            ///< largest position difference seen in a sample
  bool suspect = false;             ///< the window is full and its mismatch ratio above the threshold

  /// mismatches / samples, 0 before any sample
  double mismatch_ratio() const { return samples == 0 ? 0.0 : double(mismatches) / double(samples); }
};

/// Re-simulates a sample of the owner frames members send through a relay and flags members whose
/// frames the physics does not reproduce (liars).
class Auditor {
 public:
  /// Throws std::invalid_argument naming the field for a bad config (or a world factory that
  /// returns nothing).
  explicit Auditor(const AuditConfig& config);
  ~Auditor();
  Auditor(const Auditor&) = delete;
  Auditor& operator=(const Auditor&) = delete;

  /// One message the member in slot `from` sent the member in slot `to`, as the receiver's
  /// transport delivers it. Anything but a snapshot is ignored; bad bytes are ignored too
  /// (the receiving peer drops and counts them).
  void observe(std::uint16_t from, std::uint16_t to, Channel channel, std::span<const std::uint8_t> bytes);

  /// The slots of the current suspects.
  std::vector<std::uint16_t> suspects() const;
  /// Every sending member seen so far, by slot.
  std::vector<AuditPeerStats> stats() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// shoal-relay with an auditor per session: what a game runs instead of the generic relay to
/// have liars expelled (the generic one cannot know the game's world). Peers use it as any
/// relay (shoal/relay.hpp). Their links are secured end to end, so the game gives the relay's
/// audit_key() to every member explicitly (SecurityConfig::audit_key): each link's keys are then
/// disclosed to this auditor alone.
///
///   shoal::AuditingRelayConfig config;
///   config.audit.world = [] { return make_my_world(); };   // as every peer builds it
///   shoal::AuditingRelay relay(config);
///   for (;;) { relay.wait(10); relay.poll(); }
struct AuditingRelayConfig {
  std::string bind_host = "0.0.0.0";  ///< the local address the relay binds
  std::uint16_t port = 40100;   ///< UDP; 0 = any free port
  std::size_t max_sessions = 64;  ///< sessions served at once; more are refused
  AuditConfig audit;            ///< every session's auditor is built with this
};

/// A relay (shoal-relay's behaviour) with an Auditor per session that expels its suspects.
class AuditingRelay {
 public:
  /// Throws std::invalid_argument for a bad config (as Auditor, or the relay's limits) and
  /// std::runtime_error when the port cannot be bound.
  explicit AuditingRelay(const AuditingRelayConfig& config);
  ~AuditingRelay();
  AuditingRelay(const AuditingRelay&) = delete;
  AuditingRelay& operator=(const AuditingRelay&) = delete;

  /// Forwards and audits everything that has arrived, then expels every session's suspects
  /// (their slots and endpoints are refused from then on). Does not block.
  void poll();
  /// Blocks up to timeout_ms for traffic.
  void wait(int timeout_ms);

  Address address() const;  ///< where clients reach the relay (the bound port when config.port was 0)
  /// The public key (X25519) to which members disclose their links' keys: the game hands it to
  /// every member as SecurityConfig::audit_key. Made at random with the relay.
  std::array<std::uint8_t, 32> audit_key() const;
  /// What the auditor of `session` found, by slot (empty for a session it has not seen).
  std::vector<AuditPeerStats> audit_stats(const std::string& session) const;
  /// The slots expelled from `session`, in order.
  std::vector<std::uint16_t> expelled(const std::string& session) const;
  /// Members of `session` on the relay now (0 when it is gone).
  std::size_t members(const std::string& session) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace shoal
