// SPDX-License-Identifier: MIT
// Spawn bytes (Peer::spawn's third argument): they reach every peer's Simulation::add_body,
// late joiners' too, and Peer::spawned_object tells them; a catch-up that re-creates a body
// hands them again; too many are refused locally and dropped (bad_spawn) from a remote peer.
#include <doctest/doctest.h>

#include <array>
#include <map>

#include "spawn_match.hpp"

using namespace shoal;
using namespace shoal::test;

namespace {

const ArenaSpec kSpec{3, 6, 12};

// The arena's physics, seen through an adapter that keeps the bytes each slot's body was last
// built with, and lets them matter: the first byte lifts the spawned body (so a peer that got
// other bytes, or none, would simulate something else).
class BytesWorld final : public ForwardingSimulation {
 public:
  using ForwardingSimulation::ForwardingSimulation;
  void add_body(BodyIndex body, std::uint16_t type, const ObjectState& state,
                std::span<const std::uint8_t> spawn_bytes) override {
    ObjectState lifted = state;
    if (!spawn_bytes.empty()) lifted.linear_velocity.y += 0.05f * static_cast<float>(spawn_bytes[0]);
    ForwardingSimulation::add_body(body, type, lifted, spawn_bytes);
    built[body].assign(spawn_bytes.begin(), spawn_bytes.end());
    ++adds;
  }
  void remove_body(BodyIndex body) override {
    ForwardingSimulation::remove_body(body);
    built.erase(body);
  }
  std::map<BodyIndex, std::vector<std::uint8_t>> built;  // per filled slot: its bytes
  int adds = 0;
};

std::unique_ptr<Simulation> bytes_world(ReferencePhysics& physics) {
  with_spawn_slots(physics);
  return std::make_unique<BytesWorld>(physics);
}

BytesWorld& world_of(Player& p) { return static_cast<BytesWorld&>(*p.adapter); }

std::vector<std::uint8_t> bytes_for(PeerId spawner, int shot) {
  return {static_cast<std::uint8_t>(10 + shot), static_cast<std::uint8_t>(spawner), 0xAB, static_cast<std::uint8_t>(shot * 7)};
}

ObjectState resting_at(float x, float z) {
  ObjectState s;
  s.position = {x, 0.3f, z};
  return s;
}

// Every live player's view of `id` is the spawner's: type, spawner, frame and bytes, and its
// engine built the body with those bytes.
void check_everywhere(std::vector<Player>& players, ObjectId id, std::uint16_t type, const std::vector<std::uint8_t>& bytes,
                      Frame frame) {
  for (Player& p : players) {
    if (!p.alive) continue;
    const std::optional<SpawnedObject> o = p.peer->spawned_object(id);
    REQUIRE(o.has_value());
    CHECK(o->id == id);
    CHECK(o->type == type);
    CHECK(o->frame == frame);
    CHECK(std::vector<std::uint8_t>(o->spawn_bytes().begin(), o->spawn_bytes().end()) == bytes);
    bool built = false;
    for (const auto& [body, held] : world_of(p).built) built = built || held == bytes;
    CHECK(built);
  }
}

}  // namespace

TEST_CASE("spawn bytes reach every peer's add_body and spawned_object, at 10% loss") {
  FakeMatch m(3, kSpec, spawn_config(), 351, -1, {}, bytes_world);
  m.network().set_conditions(link(60, 0.10f));
  REQUIRE(m.connect(10));
  struct Made {
    ObjectId id;
    PeerId spawner;
    Frame frame;
    std::vector<std::uint8_t> bytes;
  };
  std::vector<Made> made;
  for (int shot = 0; shot < 4; ++shot) {
    for (std::size_t p = 0; p < 3; ++p) {
      Peer& peer = *m.players[p].peer;
      const std::vector<std::uint8_t> bytes = bytes_for(peer.id(), shot);
      const float x = -5.0f + 1.2f * static_cast<float>(shot), z = -7.0f + 1.5f * static_cast<float>(p);
      made.push_back({peer.spawn(kPickup, resting_at(x, z), bytes), peer.id(), peer.frame() + 1, bytes});
    }
    m.run(0.2);
  }
  REQUIRE(m.settle(20));
  CHECK(same_live_sets(m.players));
  for (const Made& o : made) {
    check_everywhere(m.players, o.id, kPickup, o.bytes, o.frame);
    CHECK(m.players[0].peer->spawned_object(o.id)->spawner == o.spawner);
    CHECK(m.players[1].peer->spawned_object(o.id)->owner == o.spawner);
  }
  // The bytes mattered (they lift the body), and every peer simulated them alike.
  const Divergence d = divergence(m.players, m.players[0].peer->spawned_objects());
  CHECK(d.objects_compared > 0);
  CHECK(d.bitwise);
  // An id that is no live spawned object: none.
  CHECK_FALSE(m.players[0].peer->spawned_object(kFirstObject).has_value());
  CHECK_FALSE(m.players[0].peer->spawned_object(kSpawnedIdBit | 0x7FFF0000u).has_value());
  for (const Player& p : m.players) CHECK(p.peer->stats().dropped[DropReason::bad_spawn] == 0);
}

TEST_CASE("a late joiner gets the live set with its spawn bytes and spawn frames") {
  FakeMatch m(3, kSpec, spawn_config(), 352, 2, {}, bytes_world);  // peer 2 joins later
  m.network().set_conditions(link(30, 0.02f));
  m.players[2].alive = false;
  REQUIRE(m.connect(10));
  Peer& spawner = *m.players[1].peer;
  const std::vector<std::uint8_t> bytes = bytes_for(spawner.id(), 3);
  const ObjectId id = spawner.spawn(kPickup, resting_at(2, 4), bytes);
  const Frame frame = spawner.frame() + 1;
  const ObjectId plain = spawner.spawn(kPickup, resting_at(-2, 4));  // no bytes at all
  m.run(2);
  m.players[2].alive = true;
  m.join_late(2);
  REQUIRE(m.connect(10));
  m.run(1);
  REQUIRE(m.players[2].peer->spawned_objects() == m.players[0].peer->spawned_objects());
  check_everywhere(m.players, id, kPickup, bytes, frame);
  CHECK(m.players[2].peer->spawned_object(plain)->spawn_bytes().empty());
  CHECK(m.players[2].peer->stats().dropped[DropReason::bad_spawn] == 0);
}

TEST_CASE("too many spawn bytes: Peer::spawn throws, a remote spawn is dropped as bad_spawn") {
  SpeakingTransport* liar = nullptr;
  const TransportWrapper wrap = speaking_player_1(liar);
  PeerConfig config = spawn_config();
  config.spawning.max_spawn_bytes = 8;
  FakeMatch m(3, kSpec, config, 353, -1, wrap, bytes_world);
  REQUIRE(m.connect(10));
  REQUIRE(liar != nullptr);
  Peer& host = *m.players[0].peer;
  const std::array<std::uint8_t, 9> nine{};
  CHECK_THROWS_WITH_AS(host.spawn(kPickup, resting_at(0, 0), nine), doctest::Contains("max_spawn_bytes (8)"),
                       std::invalid_argument);
  CHECK(host.spawned_objects().empty());
  CHECK(host.spawn(kPickup, resting_at(0, 0), std::span(nine).first(8)) != 0);  // exactly the limit

  Peer& victim = *m.players[2].peer;
  const PeerId liar_id = m.players[1].peer->id();
  wire::WorldChanges bad;
  wire::Spawn fat{victim.frame() + 2, kSpawnedIdBit | (ObjectId{liar_id} << 16) | 40u,
                  static_cast<std::uint32_t>(liar_id % 4 * kSlotsPerPeer), kPickup, resting_at(1, 1), {}};
  const std::array<std::uint8_t, kMaxSpawnBytes> many{};
  fat.bytes.assign(many);
  bad.spawns.push_back(fat);
  liar->inject(bad);
  m.run(1);
  CHECK(victim.stats().dropped[DropReason::bad_spawn] == 1);
  CHECK(victim.spawned_objects().size() == 1);  // the host's only
  CHECK_FALSE(victim.spawned_object(fat.object).has_value());
}

TEST_CASE("invalid max_spawn_bytes is refused with the expected range") {
  PeerConfig config = spawn_config();
  config.spawning.max_spawn_bytes = kMaxSpawnBytes + 1;
  ReferencePhysics physics(arena_physics(kSpec));
  build_arena(physics, kSpec);
  std::unique_ptr<Simulation> simulation = bytes_world(physics);
  MemoryNetwork net(5);
  CHECK_THROWS_WITH_AS(Peer(config, *simulation, net.create_endpoint()), doctest::Contains("expected 0..64"),
                       std::invalid_argument);
}

TEST_CASE("sync-test mode rebuilds spawned bodies with their bytes, slots reused with other bytes") {
  PeerConfig config = spawn_config();
  config.sync_test_frames = 8;
  config.spawning.max_spawns_per_second = 60;
  ReferencePhysics physics(arena_physics(kSpec));
  build_arena(physics, kSpec);
  std::unique_ptr<Simulation> simulation = bytes_world(physics);
  auto& world = static_cast<BytesWorld&>(*simulation);
  MemoryNetwork net(6);
  Peer peer(config, *simulation, net.create_endpoint());
  peer.set_controlled(kFirstBall);
  peer.host();
  std::vector<std::pair<ObjectId, Frame>> live;
  int spawned = 0;
  std::int64_t now = 1'000'000;
  for (int i = 0; i < 900 && peer.frame() < 300; ++i) {
    now += 16'667;
    net.set_time_us(now);
    if (peer.in_match()) {
      std::erase_if(live, [&](const auto& shot) {
        if (peer.frame() < shot.second) return false;
        peer.remove(shot.first);
        return true;
      });
      if (i % 2 == 0) {
        // Each spawn's bytes differ from the last one's in the same slot.
        const std::vector<std::uint8_t> bytes = bytes_for(peer.id(), spawned % 50);
        const float angle = static_cast<float>(i % 628) * 0.01f;
        live.emplace_back(peer.spawn(kProjectile, projectile_from(peer.state(kFirstBall), angle), bytes),
                          peer.frame() + 5);
        ++spawned;
      }
    }
    peer.update_at(now);
  }
  REQUIRE(peer.frame() >= 300);
  CHECK(spawned > 100);
  CHECK(peer.stats().desyncs == 0);
  CHECK(world.adds > spawned);  // rolled-back frames rebuilt bodies
  // What the engine holds now is what each live object was spawned with.
  for (ObjectId id : peer.spawned_objects()) {
    const std::optional<SpawnedObject> o = peer.spawned_object(id);
    REQUIRE(o.has_value());
    bool found = false;
    for (const auto& [body, held] : world.built) {
      found = found || std::ranges::equal(held, o->spawn_bytes());
    }
    CHECK(found);
  }
}
