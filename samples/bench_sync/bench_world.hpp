// SPDX-License-Identifier: MIT
// The world the sync benchmark measures: an arena of resting objects and one ball per peer,
// bots that push their balls from object to object, and a Simulation decorator that times
// every physics step (straight steps apart from re-simulated ones).
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/random.hpp"
#include "engine_world.hpp"
#include "shoal/forwarding_simulation.hpp"
#include "shoal/peer.hpp"

namespace shoal::bench {

inline constexpr ObjectId kFirstBall = 1;        // ball of peer p: kFirstBall + p
inline constexpr ObjectId kFirstObject = 1'000;  // shared objects: kFirstObject + i

struct WorldSpec {
  int objects = 1000;
  int balls = 2;
  samples::Physics physics = samples::Physics::reference;
  int input_delay_frames = 0;  ///< every peer's PeerConfig::input_delay_frames
  bool freeze_outside_simulated_region = true;  ///< every peer's PeerConfig field of that name
  bool restore_contacts = true;  ///< false: the adapters leave contacts out of restore (part 6)
  /// Part 7: spawn slots for projectiles (a range per peer, reference physics only), and the
  /// shots a second each bot fires into them (0: the slots stay empty).
  bool spawn_slots = false;
  int projectiles = 0;
};

/// Part 7's projectiles: a small ball, each removed by its owner this long after its spawn.
inline constexpr std::uint16_t kBenchProjectile = 1;
inline constexpr Frame kProjectileLifetimeFrames = 180;
/// Live projectiles one peer may have at spec.projectiles shots a second, and the limits every
/// peer sets for them (PeerConfig::spawning).
std::size_t projectiles_per_peer(const WorldSpec& spec);

/// The arena: walls sized so the objects fill it at a constant density (a grid of 1.5 m
/// pitch), so every size has the same neighbourhood per object; the balls, then the objects.
samples::WorldSpec arena_layout(const WorldSpec& spec);
/// The arena on spec.physics, the same way on every peer.
std::unique_ptr<samples::EngineWorld> build_arena(const WorldSpec& spec);
/// The peer settings every peer of the bench uses for `world`: snapshots' bounds that hold the
/// whole arena (Box2D's plane puts the ground's z on y, where the defaults reach only 50 m down).
PeerConfig bench_peer_config(const WorldSpec& spec, const samples::EngineWorld& world);

/// Part 7's gun: fires spec.projectiles shots a second from its peer's ball, in a direction
/// that turns from frame to frame, and removes each one kProjectileLifetimeFrames later.
class Gun {
 public:
  explicit Gun(const WorldSpec& spec) : per_second_(spec.projectiles), most_(projectiles_per_peer(spec)) {}
  /// After each update (frame-based: an update that skipped frames skips their shots).
  void fire(Peer& peer, ObjectId ball);

 private:
  struct Shot {
    ObjectId id;
    Frame dies;
  };
  int per_second_;
  std::size_t most_;
  Frame next_shot_ = 0;
  std::vector<Shot> shots_;  // live, oldest first
};

/// Forwards everything to the wrapped simulation and times step(). A step of a frame beyond
/// every frame stepped so far is straight; any other is a re-simulation (catch-up).
class TimedSimulation final : public ForwardingSimulation {
 public:
  using ForwardingSimulation::ForwardingSimulation;

  void step(Frame frame, std::span<const BodyInput> inputs) override {
    const auto start = std::chrono::steady_clock::now();
    inner().step(frame, inputs);
    const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                        std::chrono::steady_clock::now() - start).count();
    if (frame > highest_) {
      highest_ = frame;
      straight_ns_ += ns;
      ++straight_steps_;
    } else {
      resimulated_ns_ += ns;
      ++resimulated_steps_;
    }
  }

  std::int64_t straight_ns() const { return straight_ns_; }
  std::int64_t straight_steps() const { return straight_steps_; }
  std::int64_t resimulated_ns() const { return resimulated_ns_; }
  std::int64_t resimulated_steps() const { return resimulated_steps_; }

 private:
  Frame highest_ = kNoFrame;
  std::int64_t straight_ns_ = 0, straight_steps_ = 0;
  std::int64_t resimulated_ns_ = 0, resimulated_steps_ = 0;
};

/// Steers a ball toward a randomly chosen object, picking another every 2 to 4 seconds.
class Bot {
 public:
  /// Pushes along the ground of `world` (which must outlive the bot).
  Bot(std::uint64_t seed, int objects, const samples::EngineWorld& world)
      : world_(&world), random_(seed), objects_(objects) {}
  Input input(const Peer& peer, ObjectId ball, Frame frame);
  /// The object the ball heads for at `frame` (input() asks the same), for a bot that reads
  /// positions from its Simulation rather than a Peer.
  ObjectId target(Frame frame);
  /// A push from `ball` toward `target`, along the ground.
  Input toward(Vec3 ball, Vec3 target) const;

 private:
  const samples::EngineWorld* world_;
  core::Random random_;
  int objects_;
  ObjectId target_ = kFirstObject;
  Frame next_pick_ = 0;
};

}  // namespace shoal::bench
