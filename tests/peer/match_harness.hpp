// SPDX-License-Identifier: MIT
// Matches of several shoal::Peer in one process, for the sync tests: the same arena on every
// peer, seeded bots, and either the in-process network (time is the test's) or real ENet
// sockets on loopback (time is the steady clock, every loop bounded).
#pragma once

#include <chrono>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "core/random.hpp"
#include "shoal/forwarding_transport.hpp"
#include "shoal/memory_network.hpp"
#include "shoal/peer.hpp"
#include "shoal/reference_physics.hpp"
#include "transport/event_queue.hpp"
#include "arena_world.hpp"

namespace shoal::test {

/// A bot: steers its ball toward a target object, picking a new one every few seconds.
class Bot {
 public:
  Bot(std::uint64_t seed, int objects) : random_(seed), objects_(objects) {}
  Input input(const Peer& peer, ObjectId ball, Frame frame) {
    if (frame >= next_pick_) {
      target_ = kFirstObject + static_cast<ObjectId>(random_.next_u64() % static_cast<std::uint64_t>(objects_));
      next_pick_ = frame + 120 + static_cast<Frame>(random_.next_u64() % 120);
    }
    const Vec3 to = peer.state(target_).position - peer.state(ball).position;
    Input in;
    in.axis = normalized(Vec3{to.x, 0, to.z});
    return in;
  }

 private:
  core::Random random_;
  int objects_;
  ObjectId target_ = kFirstObject;
  Frame next_pick_ = 0;
};

/// Holds what its transport delivers while `holding`, then hands it over in order, at most
/// `per_update` events an update (each update polls until nothing comes): a process whose
/// network input starved (the OS, a full socket queue) while its game loop and clock went on.
class HoldingTransport final : public ForwardingTransport {
 public:
  using ForwardingTransport::ForwardingTransport;
  bool poll(TransportEvent& event) override {
    if (holding) {
      for (TransportEvent e; ForwardingTransport::poll(e);) held_.push(e.kind, e.connection, e.channel, e.payload);
      return false;
    }
    if (held_.empty()) return ForwardingTransport::poll(event);
    if (given_ == per_update) {  // this update has had its share: the rest in the next ones
      given_ = 0;
      return false;
    }
    ++given_;
    return held_.pop(event);
  }
  bool holding = false;
  int per_update = 1 << 30;

 private:
  transport::EventQueue held_;
  int given_ = 0;
};

/// Everything a match needs per peer.
struct Player {
  std::unique_ptr<ReferencePhysics> physics;
  std::unique_ptr<Simulation> adapter;  // what the peer sees of physics, when a test wraps it
  std::unique_ptr<Peer> peer;
  std::optional<Bot> bot;
  ObjectId ball = 0;
  bool alive = true;
};

/// Lets a test put its own transport (a liar, a counter) around a peer's endpoint.
using TransportWrapper = std::function<std::unique_ptr<Transport>(int peer, std::unique_ptr<Transport>)>;
/// Lets a test put its own adapter around a peer's physics.
using SimulationWrapper = std::function<std::unique_ptr<Simulation>(ReferencePhysics&)>;

/// Player p of the arena: its own physics (seen through `adapt`'s adapter, if given) and a peer
/// on `transport` that drives ball p.
inline Player make_player(const ArenaSpec& spec, int p, const PeerConfig& config,
                          std::unique_ptr<Transport> transport, const SimulationWrapper& adapt = {}) {
  Player player;
  player.physics = std::make_unique<ReferencePhysics>(arena_physics(spec));
  build_arena(*player.physics, spec);
  if (adapt) player.adapter = adapt(*player.physics);
  Simulation& simulation = player.adapter ? *player.adapter : static_cast<Simulation&>(*player.physics);
  player.peer = std::make_unique<Peer>(config, simulation, std::move(transport));
  player.ball = kFirstBall + static_cast<ObjectId>(p);
  player.peer->set_controlled(player.ball);
  return player;
}

/// One update of a live player at `now_us`, its bot (if any) steering first.
inline void update_player(Player& p, std::int64_t now_us) {
  if (!p.alive) return;
  if (p.bot && p.peer->in_match()) p.peer->set_input(p.bot->input(*p.peer, p.ball, p.peer->frame()));
  p.peer->update_at(now_us);
}

/// Bot p plays with seed `seed + p`.
inline void enable_bots(std::vector<Player>& players, std::uint64_t seed, int objects) {
  for (std::size_t p = 0; p < players.size(); ++p) players[p].bot.emplace(seed + p, objects);
}
inline void disable_bots(std::vector<Player>& players) {
  for (Player& p : players) {
    p.bot.reset();
    p.peer->set_input({});
  }
}

/// N peers on the in-process network; peer 0 hosts. Time advances in render frames of
/// `render_us`; every live peer updates at each (unless it stalls: set_hitches).
class FakeMatch {
 public:
  /// Peers past `joining_now` are created but join only when join_late() says so.
  FakeMatch(int peers, const ArenaSpec& spec, PeerConfig config, std::uint64_t seed,
            int joining_now = -1, const TransportWrapper& wrap = {},
            const SimulationWrapper& adapt = {})
      : net_(seed), spec_(spec) {
    for (int p = 0; p < spec.balls; ++p) ids_.push_back(kFirstBall + static_cast<ObjectId>(p));
    for (int i = 0; i < spec.objects; ++i) ids_.push_back(kFirstObject + static_cast<ObjectId>(i));
    for (int p = 0; p < peers; ++p) {
      std::unique_ptr<Transport> transport = net_.create_endpoint(static_cast<std::uint16_t>(p + 1), 2000);
      if (wrap) transport = wrap(p, std::move(transport));
      players.push_back(make_player(spec, p, config, std::move(transport), adapt));
    }
    players[0].peer->host();
    const int now = joining_now < 0 ? peers : joining_now;
    for (int p = 1; p < now; ++p) join_late(p);
  }

  void join_late(int p) { players[static_cast<std::size_t>(p)].peer->join(players[0].peer->address()); }

  MemoryNetwork& network() { return net_; }
  std::int64_t now_us() const { return now_us_; }

  void enable_bots(std::uint64_t seed) { shoal::test::enable_bots(players, seed, spec_.objects); }
  void disable_bots() { shoal::test::disable_bots(players); }

  /// Advances time by `seconds`, updating every live peer each render frame.
  template <class OnFrame>
  void run(double seconds, OnFrame&& on_frame) {
    const auto frames = static_cast<int>(std::lround(seconds * 1e6 / static_cast<double>(render_us)));
    for (int i = 0; i < frames; ++i) {
      now_us_ += render_us;
      net_.set_time_us(now_us_);
      for (std::size_t p = 0; p < players.size(); ++p) {
        if (!hitched(p)) update_player(players[p], now_us_);
      }
      on_frame();
    }
  }
  void run(double seconds) { run(seconds, [] {}); }
  /// From now on, each render frame every peer stalls with `probability` for 1..max_frames
  /// render frames (no update at all, as when the game hitches or the OS descheduled it), drawn
  /// from `seed`. probability 0 ends it.
  void set_hitches(double probability, int max_frames, std::uint64_t seed) {
    hitch_probability_ = probability;
    hitch_max_frames_ = std::max(1, max_frames);
    hitch_random_ = seed;
    hitch_left_.assign(players.size(), 0);
  }
  /// Runs render frame by render frame, for at most `seconds`, until player `p` reports an
  /// event of `kind`; returns the first such event (other events are consumed).
  std::optional<Event> run_until_event(std::size_t p, EventKind kind, double seconds) {
    const auto frames = static_cast<int>(std::lround(seconds * 1e6 / static_cast<double>(render_us)));
    for (int i = 0; i < frames; ++i) {
      run(static_cast<double>(render_us) * 1e-6);
      for (Event e; players[p].peer->poll_event(e);) {
        if (e.kind == kind) return e;
      }
    }
    return std::nullopt;
  }
  /// Bots play for `play_s` seconds, then settle(max_settle_s).
  bool play_then_settle(std::uint64_t bot_seed, double play_s, double max_settle_s) {
    enable_bots(bot_seed);
    run(play_s);
    return settle(max_settle_s);
  }
  /// Stops the bots and leaves the world to settle: until every object rests on every live
  /// peer, for at most `max_settle_s`, then 3 s more, in which resting objects' owners refresh
  /// them everywhere (objects frozen outside a peer's simulated region keep a stale state there
  /// until then). Returns whether everything came to rest.
  bool settle(double max_settle_s) {
    disable_bots();
    const auto frames = static_cast<int>(std::lround(max_settle_s * 1e6 / static_cast<double>(render_us)));
    for (int i = 0; i < frames && !all_at_rest(); ++i) run(static_cast<double>(render_us) * 1e-6);
    const bool rested = all_at_rest();
    run(3);
    return rested;
  }
  bool all_at_rest() const {
    for (const Player& p : players) {
      if (!p.alive) continue;
      for (ObjectId id : ids_) {
        if (!p.peer->state(id).at_rest) return false;
      }
    }
    return true;
  }

  bool all_in_match() const {
    for (const Player& p : players) if (p.alive && !p.peer->in_match()) return false;
    return true;
  }
  /// Runs until every peer is in the match and sees every other, or `seconds` pass.
  bool connect(double seconds = 5) {
    for (int i = 0; i < static_cast<int>(seconds * 60); ++i) {
      if (all_in_match() && all_see_each_other()) return true;
      run(1.0 / 60);
    }
    return all_in_match() && all_see_each_other();
  }
  bool all_see_each_other() const {
    std::size_t live = 0;
    for (const Player& p : players) live += p.alive ? 1 : 0;
    for (const Player& p : players) if (p.alive && p.peer->peers().size() != live) return false;
    return true;
  }

  std::vector<Player> players;
  std::int64_t render_us = 16'667;

 private:
  MemoryNetwork net_;
  ArenaSpec spec_;
  std::vector<ObjectId> ids_;  // every body of the arena
  std::int64_t now_us_ = 1'000'000;
  double hitch_probability_ = 0;
  int hitch_max_frames_ = 1;
  std::uint64_t hitch_random_ = 0;
  std::vector<int> hitch_left_;  // render frames each peer still stalls

  std::uint64_t next_random() {  // splitmix64: the same draws on every platform
    std::uint64_t z = (hitch_random_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  bool hitched(std::size_t p) {
    if (hitch_probability_ <= 0 || p >= hitch_left_.size()) return false;
    if (hitch_left_[p] > 0) return --hitch_left_[p] >= 0;
    if (static_cast<double>(next_random() >> 11) * 0x1.0p-53 >= hitch_probability_) return false;
    hitch_left_[p] = static_cast<int>(next_random() % static_cast<std::uint64_t>(hitch_max_frames_));
    return true;
  }
};

/// The largest difference between live peers' states at one frame that all still hold.
struct Divergence {
  Frame frame = kNoFrame;
  float position_m = 0;
  float rotation_rad = 0;
  bool bitwise = true;
  int objects_compared = 0;
};

inline Divergence divergence(const std::vector<Player>& players, const std::vector<ObjectId>& ids) {
  Divergence d;
  Frame common = kNoFrame;
  for (const Player& p : players) {
    if (!p.alive) continue;
    common = common == kNoFrame ? p.peer->frame() : std::min(common, p.peer->frame());
  }
  d.frame = common;
  const Player* reference = nullptr;
  for (const Player& p : players) if (p.alive) { reference = &p; break; }
  if (reference == nullptr) return d;
  for (ObjectId id : ids) {
    const auto a = reference->peer->state_at(id, common);
    if (!a) continue;
    for (const Player& p : players) {
      if (!p.alive || &p == reference) continue;
      const auto b = p.peer->state_at(id, common);
      if (!b) continue;
      d.position_m = std::max(d.position_m, distance(a->position, b->position));
      d.rotation_rad = std::max(d.rotation_rad, angle_between(a->orientation, b->orientation));
      d.bitwise = d.bitwise && std::memcmp(&a->position, &b->position, sizeof(Vec3)) == 0 &&
                  std::memcmp(&a->orientation, &b->orientation, sizeof(Quat)) == 0 &&
                  std::memcmp(&a->linear_velocity, &b->linear_velocity, sizeof(Vec3)) == 0 &&
                  std::memcmp(&a->angular_velocity, &b->angular_velocity, sizeof(Vec3)) == 0 &&
                  a->at_rest == b->at_rest;
      ++d.objects_compared;
    }
  }
  return d;
}

/// A lone peer in sync-test mode (rolling back k frames every frame) driven by a bot for
/// `frames` frames; returns its statistics (desyncs counts the frames the re-simulation did not
/// reproduce).
inline PeerStats run_sync_test(Simulation& simulation, int k, int frames, ObjectId ball, int objects) {
  PeerConfig config;
  config.sync_test_frames = k;
  MemoryNetwork net(5);
  Peer peer(config, simulation, net.create_endpoint());
  peer.set_controlled(ball);
  peer.host();
  Bot bot(17, objects);
  std::int64_t now = 1'000'000;
  for (int i = 0; i < frames * 2 && peer.frame() < frames; ++i) {
    now += 16'667;
    net.set_time_us(now);
    if (peer.in_match()) peer.set_input(bot.input(peer, ball, peer.frame()));
    peer.update_at(now);
  }
  CHECK(peer.frame() >= frames);
  return peer.stats();
}

/// Whether every live peer names the same owner for `id`.
inline bool owners_agree(const std::vector<Player>& players, ObjectId id) {
  PeerId first = kNoPeer;
  for (const Player& p : players) {
    if (!p.alive) continue;
    const PeerId o = p.peer->owner(id);
    if (first == kNoPeer) first = o;
    if (o != first) return false;
  }
  return true;
}

/// How many frames apart the live peers furthest apart are (compare them after one round of
/// updates at the same instant).
inline int frames_apart(const std::vector<Player>& players) {
  Frame lowest = 0, highest = 0;
  bool any = false;
  for (const Player& p : players) {
    if (!p.alive) continue;
    const Frame f = p.peer->frame();
    lowest = any ? std::min(lowest, f) : f;
    highest = any ? std::max(highest, f) : f;
    any = true;
  }
  return static_cast<int>(highest - lowest);
}

/// The sum of one statistic over every player.
inline std::uint64_t total(const std::vector<Player>& players, std::uint64_t PeerStats::*field) {
  std::uint64_t sum = 0;
  for (const Player& p : players) sum += p.peer->stats().*field;
  return sum;
}

/// A simulated link: one-way latency, loss fraction and +- jitter.
inline LinkConditions link(float one_way_ms, float loss, float jitter_ms = 0) {
  LinkConditions l;
  l.latency_ms = one_way_ms;
  l.jitter_ms = jitter_ms;
  l.loss = loss;
  return l;
}

inline std::vector<ObjectId> all_ids(const ArenaSpec& spec) {
  std::vector<ObjectId> ids;
  for (int p = 0; p < spec.balls; ++p) ids.push_back(kFirstBall + static_cast<ObjectId>(p));
  for (int i = 0; i < spec.objects; ++i) ids.push_back(kFirstObject + static_cast<ObjectId>(i));
  return ids;
}

}  // namespace shoal::test
