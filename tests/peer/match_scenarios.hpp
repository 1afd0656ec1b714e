// SPDX-License-Identifier: MIT
// The moves of the sync acceptance scenarios, shared by the in-process and the ENet tests:
// two players pushing one ball, a hand-off from one core region into another, and what
// they watch.
#pragma once

#include <algorithm>
#include <utility>
#include <vector>

#include "match_harness.hpp"

namespace shoal::test {

/// Rules whose warp distance is `warp_distance_m`, the other thresholds kept below it, and
/// offsets closing slowly enough that the rules make a visible difference.
inline SmoothingRules smoothing_with_warp(const SmoothingRules& rules, float warp_distance_m) {
  SmoothingRule rule = rules.default_rule();
  rule.warp_distance_m = warp_distance_m;
  rule.blend_threshold_m = std::min(rule.blend_threshold_m, warp_distance_m * 0.5f);
  rule.slow_blend_threshold_m = std::min(rule.slow_blend_threshold_m, warp_distance_m * 0.25f);
  rule.min_closing_speed_low = rule.min_closing_speed_high = 0.05f;
  return SmoothingRules(rule);
}

/// The flat direction from one point to another, as a push input's axis.
inline Vec3 towards(Vec3 from, Vec3 to) { return normalized(Vec3{to.x - from.x, 0, to.z - from.z}); }

/// Three peers' bots play 10 s over 3 balls and 12 objects at 30 +- 5 ms and 5% loss, then
/// the world settles; checks that every peer ends with the same bits and no desync, and
/// returns how many frames all peers re-simulated: for comparing configs.
inline std::uint64_t catchup_frames_of_settled_bot_match(const PeerConfig& config, std::uint64_t seed,
                                                         std::uint64_t bot_seed) {
  const ArenaSpec spec{3, 12};
  FakeMatch m(3, spec, config, seed);
  m.network().set_conditions(link(30, 0.05f, 5));
  REQUIRE(m.connect(5));
  CHECK(m.play_then_settle(bot_seed, 10, 15));
  const Divergence d = divergence(m.players, all_ids(spec));
  CHECK(d.objects_compared > 0);
  CHECK(d.bitwise);
  CHECK(total(m.players, &PeerStats::desyncs) == 0);
  return total(m.players, &PeerStats::catchup_frames);
}

/// Two players push one ball from opposite sides: each steers its own ball at it (player 0 only
/// while `player_0_pushes`), and every look counts what the peers say of its owner.
struct PushContest {
  ObjectId ball;
  int looks = 0;
  int disagreements = 0;  ///< looks at which live peers named different owners
  int not_live = 0;       ///< peers' answers naming neither player
  bool peer_1_owned = false;

  void push(std::vector<Player>& players, bool player_0_pushes = true) {
    for (Player& p : players) {
      Input in;
      if (player_0_pushes || &p != &players[0]) {
        in.axis = towards(p.peer->state(p.ball).position, p.peer->state(ball).position);
      }
      p.peer->set_input(in);
      const PeerId o = p.peer->owner(ball);
      if (o != 0 && o != 1) ++not_live;
    }
    ++looks;
    if (!owners_agree(players, ball)) ++disagreements;
    peer_1_owned = peer_1_owned || players[0].peer->owner(ball) == 1;
  }
};

/// Inputs of a hand-off: player 0 kicks `object` towards player 1 for its first 60 frames,
/// then backs away to x >= 6; player 1 comes to meet it.
inline void kick_across(std::vector<Player>& players, ObjectId object, Frame frames_played) {
  Player& a = players[0];
  Player& b = players[1];
  const Vec3 at_a = a.peer->state(a.ball).position;
  Input kick, meet;
  if (frames_played < 60) {
    kick.axis = towards(at_a, a.peer->state(object).position);
  } else {
    kick.axis = at_a.x < 6 ? Vec3{1, 0, 0} : Vec3{};
    meet.axis = towards(b.peer->state(b.ball).position, b.peer->state(object).position);
  }
  a.peer->set_input(kick);
  b.peer->set_input(meet);
}

/// The largest pop of drawn positions on any live peer: how far an object's visual moved between
/// two looks beyond what its simulated speed (the faster of the two looks') explains.
class PopWatch {
 public:
  PopWatch(const std::vector<Player>& players, std::vector<ObjectId> objects) : objects_(std::move(objects)) {
    for (const Player& p : players) {
      for (ObjectId id : objects_) last_.push_back({p.peer->visual(id).position, 0});
    }
  }
  void look(const std::vector<Player>& players, double seconds_since_last_look) {
    for (std::size_t i = 0; i < players.size(); ++i) {
      if (!players[i].alive) continue;
      for (std::size_t k = 0; k < objects_.size(); ++k) {
        Look& last = last_[i * objects_.size() + k];
        const Vec3 v = players[i].peer->visual(objects_[k]).position;
        const float speed = length(players[i].peer->state(objects_[k]).linear_velocity);
        const float explained = std::max(speed, last.speed) * static_cast<float>(seconds_since_last_look);
        worst_ = std::max(worst_, distance(v, last.position) - explained);
        last = {v, speed};
      }
    }
  }
  float worst() const { return worst_; }

 private:
  struct Look {
    Vec3 position;
    float speed;
  };
  std::vector<ObjectId> objects_;
  std::vector<Look> last_;  // per player, per object
  float worst_ = 0;
};

/// Watches `object` change hands: the owners player 0 sees in turn, and the largest pop of its
/// drawn position on any live peer.
class HandOffWatch {
 public:
  HandOffWatch(const std::vector<Player>& players, ObjectId object) : object_(object), pops_(players, {object}) {}
  void look(const std::vector<Player>& players, double seconds_since_last_look) {
    pops_.look(players, seconds_since_last_look);
    const PeerId o = players[0].peer->owner(object_);
    if (owners_seen_.empty() || owners_seen_.back() != o) owners_seen_.push_back(o);
  }
  /// The object reached player 1 without a pop the player could see.
  void check(const PeerConfig& config) const {
    CAPTURE(owners_seen_.size());
    CHECK(std::find(owners_seen_.begin(), owners_seen_.end(), PeerId{1}) != owners_seen_.end());
    CHECK(pops_.worst() < config.smoothing.find(0, ControlMode::uncontrolled).warp_distance_m);
    CHECK(pops_.worst() < 0.25f);
  }

 private:
  ObjectId object_;
  PopWatch pops_;
  std::vector<PeerId> owners_seen_;
};

}  // namespace shoal::test
