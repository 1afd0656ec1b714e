// SPDX-License-Identifier: MIT
// A relay that stops and starts again on the same port: the clients rejoin with their old
// slots and every control message arrives exactly once, in order, across the restart.
#include <doctest/doctest.h>

#include "relay_harness.hpp"

using namespace shoal;
using namespace shoal::test;

TEST_CASE("a relay restart is survived: connections resume, control stays exactly-once and ordered") {
  auto relay = std::make_unique<transport::RelayServer>(transport::RelayServerConfig{});
  transport::RelayServerConfig same_port;
  same_port.port = relay->address().port;
  Client host = make_client(client_config(relay->address(), "durable", kRelayHostSlot));
  Client guest = make_client(client_config(relay->address(), "durable"));
  std::vector<Client*> both{&host, &guest};
  const ConnectionId to_host = guest.transport->connect(relay_host_address());
  REQUIRE(pump(relay.get(), both, 5, [&] { return guest.connected.size() == 1 && host.connected.size() == 1; }));
  const ConnectionId to_guest = host.connected[0];
  const std::uint16_t guest_slot = guest.transport->status().slot;

  int sent = 0;
  const auto send_some = [&](int n) {
    for (int i = 0; i < n; ++i, ++sent) {
      REQUIRE(guest.transport->send(to_host, Channel::control, bytes_of(std::to_string(sent))));
      REQUIRE(host.transport->send(to_guest, Channel::control, bytes_of(std::to_string(sent))));
    }
  };
  send_some(100);
  relay->poll();  // some of these are forwarded, others die with the relay
  relay.reset();
  send_some(100);  // while the relay is down: kept for resending
  for (Client* c : both) c->drain();

  relay = std::make_unique<transport::RelayServer>(same_port);
  REQUIRE(pump(relay.get(), both, 10, [&] {
    return host.transport->status().joined && guest.transport->status().joined;
  }));
  send_some(100);
  REQUIRE(pump(relay.get(), both, 10, [&] {
    return static_cast<int>(host.received.size()) >= sent && static_cast<int>(guest.received.size()) >= sent;
  }));
  pump(relay.get(), both, 0.3, [] { return false; });  // anything duplicated would show up now

  CHECK(guest.transport->status().slot == guest_slot);
  CHECK(guest.transport->status().rejoins == 1);
  CHECK(host.transport->status().rejoins == 1);
  CHECK(guest.transport->counters().resends >= 100);  // what was sent while the relay was down
  for (const Client* c : {&host, &guest}) {
    REQUIRE(static_cast<int>(c->received.size()) == sent);
    for (int i = 0; i < sent; ++i) CHECK(text_of(c->received[static_cast<std::size_t>(i)].bytes) == std::to_string(i));
    CHECK(c->ended.empty());
  }
}

TEST_CASE("a connection whose relay never comes back times out after the resume timeout") {
  auto relay = std::make_unique<transport::RelayServer>(transport::RelayServerConfig{});
  RelayClientConfig host_config = client_config(relay->address(), "doomed", kRelayHostSlot);
  RelayClientConfig guest_config = client_config(relay->address(), "doomed");
  host_config.resume_timeout_ms = guest_config.resume_timeout_ms = 500;
  Client host = make_client(host_config);
  Client guest = make_client(guest_config);
  std::vector<Client*> both{&host, &guest};
  guest.transport->connect(relay_host_address());
  REQUIRE(pump(relay.get(), both, 5, [&] { return guest.connected.size() == 1 && host.connected.size() == 1; }));
  relay.reset();
  REQUIRE(pump(nullptr, both, 5, [&] { return host.ended.size() == 1 && guest.ended.size() == 1; }));
}
