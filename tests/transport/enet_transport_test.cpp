// SPDX-License-Identifier: MIT
// Real ENet transports on 127.0.0.1: connection life cycle, channels, full mesh, timeouts,
// statistics, bad configuration.
#include <doctest/doctest.h>

#include <algorithm>
#include <set>
#include <stdexcept>
#include <string>

#include "harness.hpp"
#include "transport/enet_transport.hpp"
#include "transport/punch.hpp"

using namespace shoal;
using shoal::test::service_until;
using shoal::test::TestPeer;

TEST_CASE("two peers connect, see real addresses, exchange every channel, and say goodbye") {
  TestPeer a, b;
  const ConnectionId a_to_b = a.transport->connect(b.address());
  REQUIRE(a_to_b != kNoConnection);
  REQUIRE(service_until({&a, &b}, [&] {
    return a.saw(TransportEventKind::connected, a_to_b) && b.saw(TransportEventKind::connected);
  }));
  const ConnectionId b_to_a = b.first(TransportEventKind::connected);
  // Each side sees the other's public address, never the internal pipe.
  CHECK(a.transport->remote_address(a_to_b) == b.address());
  CHECK(b.transport->remote_address(b_to_a) == a.address());

  CHECK(a.send_text(a_to_b, Channel::control, "reliable from a"));
  CHECK(b.send_text(b_to_a, Channel::control, "reliable from b"));
  CHECK_FALSE(a.send_text(kNoConnection + 999, Channel::control, "nobody"));
  std::vector<std::uint8_t> too_big(a.transport->max_message_size() + 1);
  CHECK_FALSE(a.transport->send(a_to_b, Channel::control, too_big));
  // Unreliable channels: resend each round until one copy lands.
  REQUIRE(service_until({&a, &b}, [&] {
    return !b.texts_from(b_to_a, Channel::state).empty() && !b.texts_from(b_to_a, Channel::time).empty() &&
           !a.texts_from(a_to_b, Channel::control).empty();
  }, std::chrono::seconds(10), [&] {
    a.send_text(a_to_b, Channel::state, "snapshot");
    a.send_text(a_to_b, Channel::time, "ping");
  }));
  CHECK(b.texts_from(b_to_a, Channel::control) == std::vector<std::string>{"reliable from a"});
  CHECK(a.texts_from(a_to_b, Channel::control) == std::vector<std::string>{"reliable from b"});
  CHECK(b.texts_from(b_to_a, Channel::state).front() == "snapshot");
  CHECK(b.texts_from(b_to_a, Channel::time).front() == "ping");

  a.transport->disconnect(a_to_b);
  REQUIRE(service_until({&a, &b}, [&] {
    return a.saw(TransportEventKind::disconnected, a_to_b) && b.saw(TransportEventKind::disconnected, b_to_a);
  }));
  CHECK_FALSE(a.saw(TransportEventKind::timed_out));
  CHECK_FALSE(b.saw(TransportEventKind::timed_out));
  CHECK_FALSE(a.send_text(a_to_b, Channel::control, "after goodbye"));
}

TEST_CASE("flush sends what send queued without taking events, and until then it waits") {
  TestPeer a, b;
  const ConnectionId a_to_b = a.transport->connect(b.address());
  REQUIRE(service_until({&a, &b}, [&] {
    return a.saw(TransportEventKind::connected, a_to_b) && b.saw(TransportEventKind::connected);
  }));
  const ConnectionId b_to_a = b.first(TransportEventKind::connected);
  auto b_has = [&](const char* text) {
    const std::vector<std::string> texts = b.texts_from(b_to_a, Channel::control);
    return std::find(texts.begin(), texts.end(), text) != texts.end();
  };
  // Only b is serviced from here on: a neither polls nor waits.
  REQUIRE(a.send_text(a_to_b, Channel::control, "queued"));
  CHECK_FALSE(service_until({&b}, [&] { return b_has("queued"); }, std::chrono::milliseconds(300)));
  a.transport->flush();
  CHECK(service_until({&b}, [&] { return b_has("queued"); }));
}

TEST_CASE("three peers form a full mesh and each hears both others") {
  TestPeer a, b, c;
  a.transport->connect(b.address());
  a.transport->connect(c.address());
  b.transport->connect(c.address());
  const auto connections = [](const TestPeer& p) {
    std::vector<ConnectionId> ids;
    for (const auto& e : p.events) {
      if (e.kind == TransportEventKind::connected) ids.push_back(e.connection);
    }
    return ids;
  };
  REQUIRE(service_until({&a, &b, &c}, [&] {
    return connections(a).size() == 2 && connections(b).size() == 2 && connections(c).size() == 2;
  }));
  for (TestPeer* p : {&a, &b, &c}) {
    for (ConnectionId id : connections(*p)) {
      CHECK(p->send_text(id, Channel::control, "from " + to_string(p->address())));
    }
  }
  const auto heard = [&](const TestPeer& p) {
    std::set<std::string> texts;
    for (ConnectionId id : connections(p)) {
      for (auto& t : p.texts_from(id, Channel::control)) texts.insert(t);
    }
    return texts;
  };
  REQUIRE(service_until({&a, &b, &c}, [&] {
    return heard(a).size() == 2 && heard(b).size() == 2 && heard(c).size() == 2;
  }));
  CHECK(heard(a) == std::set<std::string>{"from " + to_string(b.address()), "from " + to_string(c.address())});
  CHECK(heard(b) == std::set<std::string>{"from " + to_string(a.address()), "from " + to_string(c.address())});
  CHECK(heard(c) == std::set<std::string>{"from " + to_string(a.address()), "from " + to_string(b.address())});
}

TEST_CASE("a peer that stops servicing times out, a connect to nobody times out") {
  TransportConfig config;
  config.timeout_ms = 600;
  TestPeer a(config), b(config);
  const ConnectionId a_to_b = a.transport->connect(b.address());
  REQUIRE(service_until({&a, &b}, [&] { return a.saw(TransportEventKind::connected, a_to_b); }));
  const auto silent_since = std::chrono::steady_clock::now();
  REQUIRE(service_until({&a}, [&] { return a.saw(TransportEventKind::timed_out, a_to_b); }));
  CHECK(std::chrono::steady_clock::now() - silent_since >= std::chrono::milliseconds(500));
  CHECK_FALSE(a.saw(TransportEventKind::disconnected));

  // The remote's port is bound by a transport that never answers: nobody speaks ENet there.
  TestPeer mute(config);
  const ConnectionId to_mute = a.transport->connect(mute.address());
  REQUIRE(service_until({&a}, [&] { return a.saw(TransportEventKind::timed_out, to_mute); }));
  CHECK_FALSE(a.saw(TransportEventKind::connected, to_mute));
}

TEST_CASE("disconnecting while still connecting reports a disconnect") {
  TestPeer a, nobody;
  const ConnectionId id = a.transport->connect(nobody.address());
  a.transport->disconnect(id);
  REQUIRE(service_until({&a}, [&] { return a.saw(TransportEventKind::disconnected, id); },
                        std::chrono::seconds(2)));
}

TEST_CASE("stats report round trip and traffic, set_conditions changes the link at run time") {
  TestPeer a, b;
  const ConnectionId a_to_b = a.transport->connect(b.address());
  REQUIRE(service_until({&a, &b}, [&] { return b.saw(TransportEventKind::connected); }));
  const ConnectionId b_to_a = b.first(TransportEventKind::connected);
  std::size_t ticks = 0;
  const auto chat = [&] {
    a.send_text(a_to_b, Channel::control, "tick " + std::to_string(ticks++));
    b.send_text(b_to_a, Channel::control, "tock");
  };
  // Made without conditions, ENet owns the public socket; the rates are counted all the same.
  // ENet's round trip starts at 500 ms and falls with every acknowledgement: a loaded machine
  // may show traffic before enough of them came back.
  REQUIRE(a.enet->direct());
  REQUIRE(service_until({&a, &b}, [&] {
    const LinkStats s = a.transport->stats(a_to_b);
    return s.bytes_out_per_s > 0 && s.bytes_in_per_s > 0 && s.packets_out_per_s > 0 && s.packets_in_per_s > 0 &&
           s.rtt_ms < 100;
  }, std::chrono::seconds(5), chat));
  const LinkStats direct = a.transport->stats(a_to_b);
  CHECK(direct.rtt_ms < 100);  // loopback, unconditioned
  // Secured "tick N" messages in ENet datagrams: tens of bytes each, not hundreds.
  CHECK(direct.bytes_out_per_s / direct.packets_out_per_s > 20);
  CHECK(direct.bytes_out_per_s / direct.packets_out_per_s < 400);
  const auto counters = a.enet->counters();
  CHECK(counters.datagrams_sent > 0);
  CHECK(counters.datagrams_received > 0);

  // A perfect link changes nothing; an impaired one puts the conditioner in front of ENet.
  a.transport->set_conditions(ConditionerConfig{});
  CHECK(a.enet->direct());
  ConditionerConfig slow;
  slow.outbound.latency_ms = 60;
  slow.inbound.latency_ms = 60;
  a.transport->set_conditions(slow);
  const std::size_t ticks_before_switch = ticks;
  CHECK_FALSE(a.enet->direct());
  REQUIRE(a.enet->conditioner() != nullptr);
  // Both directions of a's link are slowed, so both ends measure about 120 ms: the open
  // connection carried on through the conditioner, on the same public address.
  REQUIRE(service_until({&a, &b}, [&] {
    return a.transport->stats(a_to_b).rtt_ms >= 100 && b.transport->stats(b_to_a).rtt_ms >= 100;
  }, std::chrono::seconds(10), chat));
  CHECK(a.transport->stats(a_to_b).rtt_ms <= 200);
  CHECK(a.enet->conditioner()->pipe_count() == 1);
  CHECK(a.transport->remote_address(a_to_b) == b.address());
  CHECK(b.transport->remote_address(b_to_a) == a.address());
  CHECK_FALSE(a.saw(TransportEventKind::timed_out));
  CHECK_FALSE(b.saw(TransportEventKind::timed_out));
  // The ticks arrived once each and in order, across the switch.
  const std::vector<std::string> heard = b.texts_from(b_to_a, Channel::control);
  REQUIRE(heard.size() > ticks_before_switch);
  for (std::size_t i = 0; i < heard.size(); ++i) CHECK(heard[i] == "tick " + std::to_string(i));
}

TEST_CASE("punch datagrams on ENet's own socket are counted and dropped before ENet, which carries on") {
  TestPeer a, b;
  REQUIRE(a.enet->direct());
  REQUIRE(b.enet->direct());
  a.enet->punch(b.address());
  a.enet->punch(b.address());
  REQUIRE(service_until({&a, &b}, [&] {
    return b.enet->counters().punches_received == 2 * transport::kPunchesPerCall;
  }, std::chrono::seconds(5)));
  CHECK(a.enet->counters().punches_sent == 2 * transport::kPunchesPerCall);
  CHECK(b.events.empty());  // ENet never took them for a connection attempt
  CHECK(b.enet->counters().datagrams_received == 0);

  const ConnectionId a_to_b = a.transport->connect(b.address());
  REQUIRE(service_until({&a, &b}, [&] {
    return a.saw(TransportEventKind::connected, a_to_b) && b.saw(TransportEventKind::connected);
  }));
  CHECK(b.enet->counters().datagrams_received > 0);
}

TEST_CASE("bad transport config is refused with a message that says what is wrong") {
  TransportConfig no_connections;
  no_connections.max_connections = 0;
  CHECK_THROWS_WITH_AS(make_enet_transport(no_connections),
                       doctest::Contains("max_connections is 0"), std::invalid_argument);

  TransportConfig bad_host;
  bad_host.bind_host = "bad host!";
  CHECK_THROWS_WITH_AS(make_enet_transport(bad_host), doctest::Contains("cannot resolve host 'bad host!'"),
                       std::invalid_argument);

  TestPeer first;
  TransportConfig taken;
  taken.port = first.address().port;
  CHECK_THROWS_WITH_AS(make_enet_transport(taken), doctest::Contains("already in use"),
                       std::runtime_error);
}

TEST_CASE("reliable messages arrive exactly once and in order under 30% loss and 20 ms jitter") {
  TransportConfig config;
  config.timeout_ms = 10'000;
  LinkConditions bad;
  bad.loss = 0.3f;
  bad.latency_ms = 10;
  bad.jitter_ms = 20;
  bad.duplicate = 0.05f;
  config.conditioner.outbound = bad;
  config.conditioner.inbound = bad;
  config.conditioner.seed = 99;
  TestPeer a(config), b(config);
  const ConnectionId a_to_b = a.transport->connect(b.address());
  REQUIRE(service_until({&a, &b}, [&] {
    return a.saw(TransportEventKind::connected, a_to_b) && b.saw(TransportEventKind::connected);
  }));
  const ConnectionId b_to_a = b.first(TransportEventKind::connected);

  // One message per service round, so they travel in many datagrams and face many dice.
  constexpr int kMessages = 100;
  std::vector<std::string> expected;
  for (int i = 0; i < kMessages; ++i) expected.push_back("message " + std::to_string(i));
  std::size_t sent = 0;
  INFO("b heard " << b.texts_from(b_to_a, Channel::control).size() << ", a heard "
                  << a.texts_from(a_to_b, Channel::control).size() << " of " << kMessages
                  << "; sent " << sent << "; a saw timeout " << a.saw(TransportEventKind::timed_out)
                  << " b saw timeout " << b.saw(TransportEventKind::timed_out));
  REQUIRE(service_until({&a, &b}, [&] {
    return b.texts_from(b_to_a, Channel::control).size() >= kMessages &&
           a.texts_from(a_to_b, Channel::control).size() >= kMessages;
  }, std::chrono::seconds(20), [&] {
    if (sent == expected.size()) return;
    REQUIRE(a.send_text(a_to_b, Channel::control, expected[sent]));
    REQUIRE(b.send_text(b_to_a, Channel::control, expected[sent]));
    ++sent;
  }));
  CHECK(b.texts_from(b_to_a, Channel::control) == expected);
  CHECK(a.texts_from(a_to_b, Channel::control) == expected);
  CHECK_FALSE(a.saw(TransportEventKind::timed_out));
  CHECK_FALSE(b.saw(TransportEventKind::timed_out));

  // Both conditioners of a's link impaired traffic.
  const shoal::transport::EnetTransport* transport = a.enet;
  REQUIRE(transport != nullptr);
  const auto remote = shoal::transport::resolve(b.address());
  const auto* outbound = transport->conditioner()->outbound_counters(remote);
  const auto* inbound = transport->conditioner()->inbound_counters(remote);
  REQUIRE(outbound != nullptr);
  REQUIRE(inbound != nullptr);
  MESSAGE("a->b submitted " << outbound->submitted << " lost " << outbound->dropped_loss
          << "; b->a submitted " << inbound->submitted << " lost " << inbound->dropped_loss);
  CHECK(outbound->submitted > 100);
  CHECK(inbound->submitted > 100);
  CHECK(outbound->dropped_loss > outbound->submitted / 5);
  CHECK(inbound->dropped_loss > inbound->submitted / 5);
  CHECK(outbound->duplicated > 0);
}

TEST_CASE("under 30% loss every connection completes on both ends within seconds") {
  // An accepting ENet host counts a connection only once the ack of its VERIFY_CONNECT
  // arrives; the connector counts it at the VERIFY_CONNECT. When that ack is lost, only a
  // resent VERIFY_CONNECT asks for it again: with ENet's doubling resend timer, the host
  // still waited seconds later while the connector, connected, had its messages dropped.
  constexpr int kConnectors = 40;
  LinkConditions bad;
  bad.loss = 0.3f;
  bad.latency_ms = 20;
  bad.jitter_ms = 5;
  bad.duplicate = 0.05f;
  bad.reorder = 0.05f;
  auto config_for = [&](std::uint64_t seed) {
    TransportConfig config;
    config.conditioner.outbound = bad;  // each end impairs what it sends
    config.conditioner.seed = seed;
    return config;
  };
  TestPeer host(config_for(1000));
  std::vector<std::unique_ptr<TestPeer>> connectors;
  std::vector<ConnectionId> to_host;
  for (int i = 0; i < kConnectors; ++i) {
    connectors.push_back(std::make_unique<TestPeer>(config_for(1001 + static_cast<std::uint64_t>(i))));
    to_host.push_back(connectors.back()->transport->connect(host.address()));
  }
  std::vector<TestPeer*> everyone{&host};
  for (auto& c : connectors) everyone.push_back(c.get());
  auto host_connections = [&] {
    std::set<ConnectionId> ids;
    for (const auto& e : host.events) if (e.kind == TransportEventKind::connected) ids.insert(e.connection);
    return ids.size();
  };
  auto connectors_connected = [&] {
    int n = 0;
    for (int i = 0; i < kConnectors; ++i) n += connectors[static_cast<std::size_t>(i)]->saw(TransportEventKind::connected, to_host[static_cast<std::size_t>(i)]);
    return n;
  };
  // Well inside the 5 s in which a connector whose messages go unacknowledged times out.
  const bool all = service_until(everyone, [&] {
    return host_connections() == kConnectors && connectors_connected() == kConnectors;
  }, std::chrono::seconds(4));
  INFO("host saw " << host_connections() << " and connectors saw " << connectors_connected() << " of "
                   << kConnectors << " connections");
  CHECK(all);
  CHECK_FALSE(host.saw(TransportEventKind::timed_out));
  for (auto& c : connectors) CHECK_FALSE(c->saw(TransportEventKind::timed_out));
}
