// SPDX-License-Identifier: MIT
// The relay server with real relay clients on loopback: joining, forwarding on every channel,
// the lobby, session isolation, a storm of garbage, and rate limits.
#include <doctest/doctest.h>

#include <algorithm>
#include <future>

#include "core/random.hpp"
#include "relay_harness.hpp"
#include "transport/enet_transport.hpp"
#include "transport/relay_protocol.hpp"
#include "transport/udp_socket.hpp"

using namespace shoal;
using namespace shoal::test;

namespace {

bool joined(const Client& c) { return c.transport->status().joined; }

// Connects a to b's slot and waits until both report the connection.
ConnectionId link(transport::RelayServer& relay, Client& a, Client& b, std::vector<Client*> all) {
  const ConnectionId id = a.transport->connect(relay_peer_address(b.transport->status().slot));
  REQUIRE(id != kNoConnection);
  REQUIRE(pump(&relay, all, 5, [&] {
    return std::count(a.connected.begin(), a.connected.end(), id) == 1 && !b.connected.empty();
  }));
  return id;
}

}  // namespace

TEST_CASE("two members exchange messages on every channel, the lobby lists the session and its code") {
  transport::RelayServer relay({});
  Client host = make_client(client_config(relay.address(), "match-1", kRelayHostSlot));
  REQUIRE(pump(&relay, {&host}, 5, [&] { return joined(host); }));
  CHECK(host.transport->status().slot == kRelayHostSlot);
  const std::string code = host.transport->status().code;
  CHECK(code == relay_session_code("match-1"));

  // The joiner comes by code, as a player would from the lobby.
  // The lobby call blocks, so it runs beside the in-process relay.
  auto lobby = std::async(std::launch::async, [port = relay.address().port] {
    return list_relay_sessions({"127.0.0.1", port}, 3000);
  });
  REQUIRE(pump(&relay, {&host}, 5, [&] { return lobby.wait_for(std::chrono::seconds(0)) == std::future_status::ready; }));
  const auto sessions = lobby.get();
  REQUIRE(sessions.size() == 1);
  CHECK(sessions[0].session == "match-1");
  CHECK(sessions[0].code == code);
  CHECK(sessions[0].members == 1);
  RelayClientConfig by_code = client_config(relay.address(), "");
  by_code.code = code;
  by_code.token = "token-match-1";
  Client joiner = make_client(by_code);

  const ConnectionId to_host = joiner.transport->connect(relay_host_address());  // before joining
  REQUIRE(pump(&relay, {&host, &joiner}, 5, [&] { return joiner.connected.size() == 1 && host.connected.size() == 1; }));
  CHECK(joiner.connected[0] == to_host);
  CHECK(joiner.transport->remote_address(to_host) == relay_host_address());
  CHECK(host.transport->remote_address(host.connected[0]) == joiner.transport->local_address());

  for (int i = 0; i < 3; ++i) {
    const auto channel = static_cast<Channel>(i);
    REQUIRE(joiner.transport->send(to_host, channel, bytes_of("to host " + std::to_string(i))));
    REQUIRE(host.transport->send(host.connected[0], channel, bytes_of("to joiner " + std::to_string(i))));
  }
  REQUIRE(pump(&relay, {&host, &joiner}, 5, [&] { return host.received.size() == 3 && joiner.received.size() == 3; }));
  for (int i = 0; i < 3; ++i) {
    const auto channel = static_cast<Channel>(i);
    const auto has = [&](const Client& c, const std::string& text) {
      return std::any_of(c.received.begin(), c.received.end(),
                         [&](const RelayReceived& r) { return r.channel == channel && text_of(r.bytes) == text; });
    };
    CHECK(has(host, "to host " + std::to_string(i)));
    CHECK(has(joiner, "to joiner " + std::to_string(i)));
  }

  // A graceful disconnect reaches the other side.
  joiner.transport->disconnect(to_host);
  REQUIRE(pump(&relay, {&host, &joiner}, 5, [&] { return host.ended.size() == 1 && joiner.ended.size() == 1; }));
}

TEST_CASE("a wrong token is refused with a reason, and nothing is connected") {
  transport::RelayServer relay({});
  Client host = make_client(client_config(relay.address(), "guarded", kRelayHostSlot));
  REQUIRE(pump(&relay, {&host}, 5, [&] { return joined(host); }));
  RelayClientConfig intruder_config = client_config(relay.address(), "guarded");
  intruder_config.token = "guess";
  Client intruder = make_client(intruder_config);
  const ConnectionId attempt = intruder.transport->connect(relay_host_address());
  REQUIRE(pump(&relay, {&host, &intruder}, 5, [&] { return !intruder.transport->status().error.empty(); }));
  CHECK(intruder.transport->status().error.find("bad token") != std::string::npos);
  CHECK(intruder.ended == std::vector<ConnectionId>{attempt});
  CHECK(host.connected.empty());
  CHECK(relay.counters().joins_refused == 1);
}

TEST_CASE("two sessions on one relay never see each other's packets, even with the same slots") {
  transport::RelayServer relay({});
  Client a1 = make_client(client_config(relay.address(), "alpha", 1));
  Client a2 = make_client(client_config(relay.address(), "alpha", 7));
  Client b1 = make_client(client_config(relay.address(), "beta", 1));
  Client b2 = make_client(client_config(relay.address(), "beta", 7));
  std::vector<Client*> all{&a1, &a2, &b1, &b2};
  REQUIRE(pump(&relay, all, 5, [&] { return joined(a1) && joined(a2) && joined(b1) && joined(b2); }));
  const ConnectionId a = link(relay, a2, a1, all);
  const ConnectionId b = link(relay, b2, b1, all);

  constexpr int kMessages = 50;
  for (int i = 0; i < kMessages; ++i) {
    for (int ch = 0; ch < 2; ++ch) {
      REQUIRE(a2.transport->send(a, static_cast<Channel>(ch), bytes_of("alpha")));
      REQUIRE(b2.transport->send(b, static_cast<Channel>(ch), bytes_of("beta")));
      REQUIRE(a1.transport->send(a1.connected[0], static_cast<Channel>(ch), bytes_of("alpha")));
      REQUIRE(b1.transport->send(b1.connected[0], static_cast<Channel>(ch), bytes_of("beta")));
    }
  }
  // Control messages are reliable: all of them arrive; state ones may not, so wait for control.
  const auto control_count = [](const Client& c) {
    return std::count_if(c.received.begin(), c.received.end(), [](const RelayReceived& r) { return r.channel == Channel::control; });
  };
  REQUIRE(pump(&relay, all, 5, [&] {
    return control_count(a1) == kMessages && control_count(a2) == kMessages && control_count(b1) == kMessages &&
           control_count(b2) == kMessages;
  }));
  for (const Client* c : {&a1, &a2}) {
    for (const RelayReceived& r : c->received) CHECK(text_of(r.bytes) == "alpha");
  }
  for (const Client* c : {&b1, &b2}) {
    for (const RelayReceived& r : c->received) CHECK(text_of(r.bytes) == "beta");
  }
  const auto stats = relay.session_stats();
  REQUIRE(stats.size() == 2);
  CHECK(stats[0].members == 2);
  CHECK(stats[1].members == 2);
  CHECK(stats[0].packets_in >= 2 * kMessages);
}

TEST_CASE("a seeded storm of garbage and malformed relay messages leaves an honest session served") {
  transport::RelayServer relay({});
  Client host = make_client(client_config(relay.address(), "honest", kRelayHostSlot));
  Client guest = make_client(client_config(relay.address(), "honest"));
  std::vector<Client*> honest{&host, &guest};
  REQUIRE(pump(&relay, honest, 5, [&] { return joined(host) && joined(guest); }));
  const ConnectionId to_host = link(relay, guest, host, honest);

  // Raw UDP at the relay's socket: random bytes of hostile sizes.
  core::Random random(2024);
  transport::UdpSocket raw({0x7F000001, 0});
  const transport::Endpoint relay_endpoint{0x7F000001, relay.address().port};
  std::vector<std::uint8_t> datagram;
  const auto fill_random = [&](std::size_t size) {
    datagram.resize(size);
    for (auto& b : datagram) b = static_cast<std::uint8_t>(random.next_u64());
  };
  // A hostile ENet client that speaks the relay's framing badly.
  transport::EnetTransport hostile(TransportConfig{});
  const ConnectionId hostile_link = hostile.connect({"127.0.0.1", relay.address().port});
  bool hostile_connected = false;
  REQUIRE(pump(&relay, honest, 5, [&] {
    TransportEvent e;
    while (hostile.poll(e)) hostile_connected = hostile_connected || e.kind == TransportEventKind::connected;
    return hostile_connected;
  }));

  constexpr int kRounds = 40, kPerRound = 100;
  int honest_sent = 0;
  for (int round = 0; round < kRounds; ++round) {
    for (int i = 0; i < kPerRound; ++i) {
      const std::size_t sizes[] = {0, 1, 3, 12, 100, 1400, 9000};
      fill_random(sizes[random.next_u64() % 7]);
      raw.send_to(relay_endpoint, datagram);
      // Malformed relay messages: valid magic/version, then anything.
      fill_random(3 + random.next_u64() % 40);
      datagram[0] = 0xB7;
      datagram[1] = transport::kRelayProtocolVersion;
      datagram[2] = static_cast<std::uint8_t>(random.next_u64() % 17);
      hostile.send(hostile_link, static_cast<Channel>(random.next_u64() % 3), datagram);
    }
    TransportEvent e;
    while (hostile.poll(e)) {}
    REQUIRE(guest.transport->send(to_host, Channel::control, bytes_of("honest " + std::to_string(honest_sent++))));
    relay.poll();
    host.drain();
    guest.drain();
  }
  REQUIRE(pump(&relay, honest, 10, [&] { return static_cast<int>(host.received.size()) == honest_sent; }));
  for (int i = 0; i < honest_sent; ++i) CHECK(text_of(host.received[static_cast<std::size_t>(i)].bytes) == "honest " + std::to_string(i));
  CHECK(relay.counters().malformed.total() + relay.counters().dropped_not_joined > 0);
  CHECK(host.ended.empty());
  CHECK(guest.ended.empty());
}

TEST_CASE("rate limits drop what a member sends over its allowance, and count it") {
  transport::RelayServerConfig config;
  config.per_peer = {50'000, 100};  // bursts up to one second's worth
  transport::RelayServer relay(config);
  Client host = make_client(client_config(relay.address(), "limited", kRelayHostSlot));
  Client flooder = make_client(client_config(relay.address(), "limited"));
  std::vector<Client*> all{&host, &flooder};
  REQUIRE(pump(&relay, all, 5, [&] { return joined(host) && joined(flooder); }));
  const ConnectionId to_host = link(relay, flooder, host, all);

  constexpr int kFlood = 600;
  const std::vector<std::uint8_t> packet(64, 0x55);
  for (int i = 0; i < kFlood; ++i) REQUIRE(flooder.transport->send(to_host, Channel::time, packet));
  // Not every packet need reach the relay: on a loaded machine ENet's throttle may drop some of
  // an unreliable flood at the sender. Past the burst, the relay must drop the rest.
  REQUIRE(pump(&relay, all, 5, [&] {
    const auto s = relay.session_stats();
    return !s.empty() && s[0].dropped_peer_rate > 0;
  }));
  pump(&relay, all, 0.5, [&] { return false; });
  const auto stats = relay.session_stats().at(0);
  // At most about one second's burst plus the refill while the test ran got through.
  CHECK(stats.packets_in < kFlood);
  CHECK(host.received.size() <= stats.packets_in);
  CHECK(transport::format_stats_line(stats).find("peer_rate=" + std::to_string(stats.dropped_peer_rate)) != std::string::npos);
}
