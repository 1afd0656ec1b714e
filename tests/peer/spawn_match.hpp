// SPDX-License-Identifier: MIT
// Matches with objects spawned during play, for the spawning tests: the arena of the match
// harness plus spawn slots and two spawned types, projectiles fired by each player, and a
// transport through which a test speaks as that member.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "match_harness.hpp"
#include "shoal/forwarding_simulation.hpp"
#include "shoal/forwarding_transport.hpp"
#include "wire/control_messages.hpp"

namespace shoal::test {

inline constexpr std::uint16_t kProjectile = 11;  // removed when its owner leaves
inline constexpr std::uint16_t kPickup = 12;      // passes to the default owner
inline constexpr std::size_t kSlotsPerPeer = 24;
inline constexpr std::size_t kSpawnSlots = 4 * kSlotsPerPeer;

inline PeerConfig spawn_config() {
  PeerConfig config;
  config.spawning.max_objects_per_peer = kSlotsPerPeer;
  config.spawning.max_spawns_per_second = 20;
  config.spawning.removed_on_leave = {kProjectile};
  return config;
}

/// The arena with spawn slots after its fixed bodies (SimulationWrapper for FakeMatch).
inline std::unique_ptr<Simulation> with_spawn_slots(ReferencePhysics& physics) {
  physics.set_spawn_sphere(kProjectile, 0.15f, 0.3f);
  physics.set_spawn_box(kPickup, {0.25f, 0.25f, 0.25f}, 0.5f);
  physics.add_spawn_slots(kSpawnSlots);
  return std::make_unique<ForwardingSimulation>(physics);
}

/// A projectile fired from a ball: a little above it, flying outward along `angle`.
inline ObjectState projectile_from(const ObjectState& ball, float angle, float speed = 7) {
  ObjectState s;
  s.position = ball.position + Vec3{std::cos(angle) * 0.8f, 0.4f, std::sin(angle) * 0.8f};
  s.linear_velocity = {std::cos(angle) * speed, 1.5f, std::sin(angle) * speed};
  return s;
}

/// Fires projectiles from every live player's ball at `per_second`, and removes each one
/// `lifetime_frames` after its spawn (if its spawner still owns it): the bots' weapons.
class Guns {
 public:
  Guns(int per_second, Frame lifetime_frames) : per_second_(per_second), lifetime_(lifetime_frames) {}

  /// `removing` = false holds back the removals due (a test looking at a still live set).
  void fire(std::vector<Player>& players, bool firing, bool removing = true) {
    for (std::size_t p = 0; p < players.size(); ++p) {
      Player& player = players[p];
      if (!player.alive || !player.peer->in_match()) continue;
      Peer& peer = *player.peer;
      // Lifetimes first: a removal frees a slot.
      std::erase_if(shots_, [&](const Shot& s) {
        if (!removing || s.player != p || peer.frame() < s.dies) return false;
        const std::vector<ObjectId> live = peer.spawned_objects();
        if (std::ranges::find(live, s.id) != live.end() && peer.owner(s.id) == peer.id()) {
          peer.remove(s.id);
          ++removed;
        }
        return true;
      });
      // By frames, not calls: the ENet tests update far more often than once a frame. The next
      // shot is due a period after this one was due, not after now: a loaded machine, whose
      // updates step several frames at once, keeps the pace (at most one shot a frame).
      if (next_shot_.size() < players.size()) next_shot_.resize(players.size(), kNoFrame);
      const Frame now = peer.frame();
      if (next_shot_[p] == kNoFrame) next_shot_[p] = now + static_cast<Frame>(p) * 5;
      if (!firing || now < next_shot_[p]) continue;
      next_shot_[p] = std::max(next_shot_[p] + 60 / per_second_, now + 1);
      const float angle = static_cast<float>((now * 37 + static_cast<Frame>(p) * 101) % 628) * 0.01f;
      const ObjectId id = peer.spawn(kProjectile, projectile_from(peer.state(player.ball), angle));
      shots_.push_back({p, id, now + 1 + lifetime_});
      ++fired;
    }
  }
  bool all_expired() const { return shots_.empty(); }

  int fired = 0, removed = 0;

 private:
  struct Shot {
    std::size_t player;
    ObjectId id;
    Frame dies;
  };
  int per_second_;
  Frame lifetime_;
  std::vector<Frame> next_shot_;  // per player: the frame of its next shot
  std::vector<Shot> shots_;
};

/// Lets a test speak as a member: whatever it injects goes on every connection the member
/// has sent something on (so the others take it as that member's).
class SpeakingTransport final : public ForwardingTransport {
 public:
  using ForwardingTransport::ForwardingTransport;
  bool send(ConnectionId c, Channel channel, std::span<const std::uint8_t> bytes) override {
    if (std::ranges::find(connections_, c) == connections_.end()) connections_.push_back(c);
    return inner().send(c, channel, bytes);
  }
  void inject(const wire::WorldChanges& message) {
    std::vector<std::uint8_t> bytes;
    if (!wire::encode(message, bytes)) return;
    for (ConnectionId c : connections_) inner().send(c, Channel::control, bytes);
  }

 private:
  std::vector<ConnectionId> connections_;
};

/// A transport wrapper (FakeMatch) that makes player 1 speak through a SpeakingTransport, which
/// it hands to `liar`.
inline TransportWrapper speaking_player_1(SpeakingTransport*& liar) {
  return [&liar](int p, std::unique_ptr<Transport> t) -> std::unique_ptr<Transport> {
    if (p != 1) return t;
    auto speaking = std::make_unique<SpeakingTransport>(std::move(t));
    liar = speaking.get();
    return speaking;
  };
}

/// Whether every live player holds the same spawned objects.
inline bool same_live_sets(const std::vector<Player>& players) {
  const std::vector<ObjectId>* first = nullptr;
  std::vector<std::vector<ObjectId>> sets;
  for (const Player& p : players) {
    if (p.alive) sets.push_back(p.peer->spawned_objects());
  }
  for (const auto& s : sets) {
    if (first == nullptr) first = &s;
    if (s != *first) return false;
  }
  return true;
}

}  // namespace shoal::test
