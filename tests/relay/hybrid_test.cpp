// SPDX-License-Identifier: MIT
// The hybrid transport: direct first, the relay when direct is blocked, back to direct when it
// opens, one ConnectionId throughout, and control messages exactly-once and ordered across
// every switch. Direct is blocked by a conditioner that loses every datagram of the direct side
// except those to and from the relay, whose link shares the direct socket.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>

#include "relay_harness.hpp"
#include "transport/enet_transport.hpp"
#include "transport/hybrid_transport.hpp"

using namespace shoal;
using namespace shoal::test;

namespace {

struct End : Seen<transport::Hybrid> {
  std::uint16_t slot() const { return transport->relay_status().slot; }
};

HybridConfig hybrid_config(const Address& relay, std::uint16_t slot) {
  HybridConfig c;
  c.relay = client_config(relay, "hybrid", slot);
  c.direct = test::secured(c.direct);
  c.direct.timeout_ms = 1000;  // a blocked direct path is noticed within a second
  c.direct_timeout_ms = 300;
  c.direct_retry_ms = 300;
  return c;
}

End make_end(const Address& relay, std::uint16_t slot) {
  return End{{std::make_unique<transport::Hybrid>(hybrid_config(relay, slot)), {}, {}, {}}};
}

ConditionerConfig blocked() {
  ConditionerConfig c;
  c.inbound.loss = 1;
  c.outbound.loss = 1;
  return c;
}

void block_direct(transport::Hybrid& hybrid, const Address& relay, bool block) {
  hybrid.direct_transport().set_conditions(block ? blocked() : ConditionerConfig{});
  hybrid.direct_transport().set_conditions_for({"127.0.0.1", relay.port}, {});
}

template <class Done>
bool run(transport::RelayServer& relay, std::vector<End*> ends, double seconds, Done&& done) {
  const auto deadline = Clock::now() + std::chrono::duration<double>(seconds);
  for (long i = 0; i < static_cast<long>(seconds * 2000) && Clock::now() < deadline; ++i) {
    relay.poll();
    for (End* e : ends) e->drain();
    if (done()) return true;
    ends.front()->transport->wait(1);
  }
  return done();
}

std::vector<std::uint8_t> number(std::uint32_t n) {
  std::vector<std::uint8_t> bytes(4);
  std::memcpy(bytes.data(), &n, 4);
  return bytes;
}

// The numbers received on the control channel, in order of delivery.
std::vector<std::uint32_t> control_numbers(const End& end) {
  std::vector<std::uint32_t> numbers;
  for (const RelayReceived& r : end.received) {
    if (r.channel != Channel::control || r.bytes.size() != 4) continue;
    std::uint32_t n = 0;
    std::memcpy(&n, r.bytes.data(), 4);
    numbers.push_back(n);
  }
  return numbers;
}

}  // namespace

TEST_CASE("hybrid: with direct blocked the connection comes up through the relay, then moves to direct") {
  transport::RelayServer relay({});
  End a = make_end(relay.address(), kRelayHostSlot);
  End b = make_end(relay.address(), 0);
  block_direct(*b.transport, relay.address(), true);
  REQUIRE(run(relay, {&a, &b}, 5, [&] { return a.slot() != 0 && b.slot() != 0; }));
  // One socket carries both paths: the relay sees each peer at its direct port.
  CHECK(a.transport->relay_status().public_address.port == a.transport->direct_transport().local_address().port);
  CHECK(b.transport->relay_status().public_address.port == b.transport->direct_transport().local_address().port);

  const ConnectionId to_a = b.transport->connect(a.transport->local_address());
  REQUIRE(to_a != kNoConnection);
  REQUIRE(run(relay, {&a, &b}, 5, [&] { return b.connected.size() == 1 && a.connected.size() == 1; }));
  const ConnectionId to_b = a.connected.front();
  CHECK(b.connected.front() == to_a);
  CHECK(b.transport->path(to_a) == Path::relay);
  CHECK(a.transport->path(to_b) == Path::relay);
  // The acceptor knows the opener by an address naming both of its paths, as Welcome passes on.
  CHECK(a.transport->remote_address(to_b).host == b.transport->local_address().host);
  CHECK(a.transport->remote_address(to_b).port == b.transport->local_address().port);

  REQUIRE(b.transport->send(to_a, Channel::control, bytes_of("over the relay")));
  REQUIRE(a.transport->send(to_b, Channel::control, bytes_of("and back")));
  REQUIRE(run(relay, {&a, &b}, 5, [&] { return !a.received.empty() && !b.received.empty(); }));
  CHECK(text_of(a.received.front().bytes) == "over the relay");
  CHECK(text_of(b.received.front().bytes) == "and back");
  CHECK(relay.session_stats().at(0).packets_out > 0);

  // On the relay, redials take turns with hole punches coordinated over it; the punch
  // datagrams arrive and are counted, never handed to ENet.
  REQUIRE(run(relay, {&a, &b}, 5, [&] {
    return a.transport->direct_transport().counters().punches_received > 0 &&
           b.transport->direct_transport().counters().punches_received > 0;
  }));
  CHECK(b.transport->counters().punch_rounds > 0);
  CHECK(a.transport->counters().punch_rounds > 0);
  CHECK(b.transport->path(to_a) == Path::relay);

  block_direct(*b.transport, relay.address(), false);
  REQUIRE(run(relay, {&a, &b}, 5, [&] {
    return b.transport->path(to_a) == Path::direct && a.transport->path(to_b) == Path::direct;
  }));
  CHECK(a.transport->counters().dropped_bad_frame == 0);
  REQUIRE(b.transport->send(to_a, Channel::state, bytes_of("direct now")));
  REQUIRE(b.transport->send(to_a, Channel::control, bytes_of("reliably direct")));
  REQUIRE(run(relay, {&a, &b}, 5, [&] { return a.received.size() >= 2 && text_of(a.received.back().bytes) == "reliably direct"; }));
  // Still the one connection on each side.
  CHECK(a.connected.size() == 1);
  CHECK(b.connected.size() == 1);
  CHECK(a.ended.empty());
  CHECK(b.ended.empty());
  for (const RelayReceived& r : a.received) CHECK(r.connection == to_b);

  b.transport->disconnect(to_a);
  REQUIRE(run(relay, {&a, &b}, 5, [&] { return a.ended.size() == 1 && b.ended.size() == 1; }));
  CHECK(a.ended.front() == to_b);
}

TEST_CASE("hybrid: no control message is lost or duplicated over three switches of path") {
  transport::RelayServer relay({});
  End a = make_end(relay.address(), kRelayHostSlot);
  End b = make_end(relay.address(), 0);
  REQUIRE(run(relay, {&a, &b}, 5, [&] { return a.slot() != 0 && b.slot() != 0; }));
  const ConnectionId to_a = b.transport->connect(a.transport->local_address());
  REQUIRE(run(relay, {&a, &b}, 5, [&] { return b.connected.size() == 1 && a.connected.size() == 1; }));
  const ConnectionId to_b = a.connected.front();
  REQUIRE(b.transport->path(to_a) == Path::direct);

  // Both ends send numbered control messages all along; the direct side of b is blocked,
  // opened and blocked again, and each time both ends must land on the expected path.
  std::uint32_t sent_by_a = 0, sent_by_b = 0;
  const auto send_some = [&] {
    if (sent_by_a < 20000 && a.transport->send(to_b, Channel::control, number(sent_by_a))) ++sent_by_a;
    if (sent_by_b < 20000 && b.transport->send(to_a, Channel::control, number(sent_by_b))) ++sent_by_b;
    (void)a.transport->send(to_b, Channel::state, bytes_of("unreliable"));
    return false;
  };
  // Each phase lasts until both ends are on its path and a has sent 40 in it: counted in
  // messages, not time, so a machine that runs this loop slowly (wine) still sends enough.
  const auto both_on = [&](Path path) {
    const std::uint32_t phase_start = sent_by_a;
    return [&, path, phase_start] {
      send_some();
      return b.transport->path(to_a) == path && a.transport->path(to_b) == path && sent_by_a - phase_start >= 40;
    };
  };
  const struct { bool block; Path expected; } phases[] = {
      {true, Path::relay}, {false, Path::direct}, {true, Path::relay}};
  for (const auto& phase : phases) {
    block_direct(*b.transport, relay.address(), phase.block);
    REQUIRE(run(relay, {&a, &b}, 8, both_on(phase.expected)));
  }
  const std::uint32_t total_a = sent_by_a, total_b = sent_by_b;
  REQUIRE(run(relay, {&a, &b}, 8, [&] {
    return control_numbers(b).size() >= total_a && control_numbers(a).size() >= total_b;
  }));
  run(relay, {&a, &b}, 0.3, [] { return false; });  // late duplicates would show up here

  const auto in_order = [](std::uint32_t count) {
    std::vector<std::uint32_t> expected(count);
    for (std::uint32_t i = 0; i < count; ++i) expected[i] = i;
    return expected;
  };
  INFO("a sent " << total_a << ", b sent " << total_b);
  CHECK(total_a > 100);
  CHECK(control_numbers(b) == in_order(total_a));
  CHECK(control_numbers(a) == in_order(total_b));
  CHECK(b.transport->counters().path_switches >= 3);
  CHECK(a.transport->counters().path_switches >= 3);
  CHECK(a.connected.size() == 1);
  CHECK(b.connected.size() == 1);
  CHECK(a.ended.empty());
  CHECK(b.ended.empty());
}

TEST_CASE("hybrid: a 3-peer match with one peer reachable only through the relay stays consistent") {
  transport::RelayServer relay({});
  const ArenaSpec spec{3, 6, 10};
  std::vector<Player> players;
  std::vector<transport::Hybrid*> transports;
  for (int p = 0; p < 3; ++p) {
    Player player;
    player.physics = std::make_unique<ReferencePhysics>(arena_physics(spec));
    build_arena(*player.physics, spec);
    auto hybrid = std::make_unique<transport::Hybrid>(hybrid_config(relay.address(), p == 0 ? kRelayHostSlot : 0));
    if (p == 2) block_direct(*hybrid, relay.address(), true);
    transports.push_back(hybrid.get());
    player.peer = std::make_unique<Peer>(PeerConfig{}, *player.physics, std::move(hybrid));
    player.ball = kFirstBall + static_cast<ObjectId>(p);
    player.peer->set_controlled(player.ball);
    players.push_back(std::move(player));
  }
  players[0].peer->host();
  const Address host_direct{"127.0.0.1", players[0].peer->address().port};
  for (std::size_t p = 1; p < players.size(); ++p) players[p].peer->join(hybrid_address(host_direct, kRelayHostSlot));

  const auto step = [&](double seconds, auto&& done) { return run_peers(relay, players, seconds, done); };
  const auto connected = [&] { return all_connected(players); };
  REQUIRE(step(15, connected));
  // Connection ids are small and never reused: look at every one each transport has made.
  const auto paths_of = [](const transport::Hybrid& t) {
    std::vector<Path> paths;
    for (ConnectionId id = 1; id < 32; ++id) {
      if (t.path(id) != Path::none) paths.push_back(t.path(id));
    }
    return paths;
  };
  const std::vector<Path> blocked_paths = paths_of(*transports[2]);
  CHECK(blocked_paths.size() == 2);
  CHECK(std::all_of(blocked_paths.begin(), blocked_paths.end(), [](Path p) { return p == Path::relay; }));
  const std::vector<Path> host_paths = paths_of(*transports[0]);
  CHECK(std::count(host_paths.begin(), host_paths.end(), Path::direct) == 1);
  CHECK(std::count(host_paths.begin(), host_paths.end(), Path::relay) == 1);

  const bool settled = play_then_settle(relay, players, spec, 77);
  const auto ids = all_ids(spec);
  const Divergence d = divergence(players, ids);
  INFO("divergence " << d.position_m << " m, " << d.rotation_rad << " rad at frame " << d.frame);
  CHECK(settled);
  CHECK(connected());
  CHECK(d.objects_compared == static_cast<int>(ids.size() * (players.size() - 1)));
}

TEST_CASE("hybrid: truncated, unknown and misplaced frames are dropped and counted") {
  std::vector<std::uint8_t> frame;
  transport::HybridFrame decoded;
  transport::encode_hybrid_hello({true, 0x1122334455667788ULL, 7, 40000, "10.0.0.2", {0x0A000001, 40001}}, frame);
  REQUIRE(transport::decode_hybrid(frame, decoded));
  CHECK(decoded.hello.tag == 0x1122334455667788ULL);
  CHECK(decoded.hello.relay_slot == 7);
  CHECK(decoded.hello.direct_host == "10.0.0.2");
  CHECK(decoded.hello.public_endpoint == transport::Endpoint{0x0A000001, 40001});
  for (std::size_t size = 0; size < frame.size(); ++size) {
    CHECK_FALSE(transport::decode_hybrid(std::span(frame).first(size), decoded));
  }
  frame.push_back(0);  // a host longer than its length byte says
  CHECK_FALSE(transport::decode_hybrid(frame, decoded));
  transport::encode_hybrid_ack(5, frame);
  frame.push_back(0);
  CHECK_FALSE(transport::decode_hybrid(frame, decoded));
  CHECK_FALSE(transport::decode_hybrid(std::vector<std::uint8_t>{9, 1, 2}, decoded));
  transport::encode_hybrid_punch(true, frame);
  REQUIRE(transport::decode_hybrid(frame, decoded));
  CHECK(decoded.type == transport::HybridFrameType::punch);
  CHECK(decoded.punch_answer);
  CHECK_FALSE(transport::decode_hybrid(std::vector<std::uint8_t>{6}, decoded));
  CHECK_FALSE(transport::decode_hybrid(std::vector<std::uint8_t>{6, 2}, decoded));
  CHECK_FALSE(transport::decode_hybrid(std::vector<std::uint8_t>{6, 1, 0}, decoded));

  // A plain ENet peer that talks garbage to a hybrid's direct socket is never a connection.
  transport::RelayServer relay({});
  End a = make_end(relay.address(), kRelayHostSlot);
  transport::EnetTransport stranger({});
  const ConnectionId to_a = stranger.connect({"127.0.0.1", a.transport->local_address().port});
  bool stranger_connected = false;
  const auto pump_stranger = [&] {
    TransportEvent e;
    while (stranger.poll(e)) stranger_connected = stranger_connected || e.kind == TransportEventKind::connected;
  };
  REQUIRE(run(relay, {&a}, 5, [&] { pump_stranger(); return stranger_connected; }));
  stranger.send(to_a, Channel::control, std::vector<std::uint8_t>{3, 0, 0, 0, 0, 42});  // data before any hello
  stranger.send(to_a, Channel::control, std::vector<std::uint8_t>{1, 7});               // a truncated hello
  stranger.send(to_a, Channel::state, std::vector<std::uint8_t>{77});                  // an unknown frame
  REQUIRE(run(relay, {&a}, 5, [&] {
    pump_stranger();
    const auto& c = a.transport->counters();
    return c.dropped_unbound == 1 && c.dropped_bad_frame == 2;
  }));
  CHECK(a.connected.empty());
  CHECK(a.received.empty());
}
