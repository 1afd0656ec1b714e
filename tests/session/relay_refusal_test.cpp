// SPDX-License-Identifier: MIT
// Through a relay, on loopback: peers whose snapshot encodings differ refuse each other exactly
// as over ENet (the refusal travels the relay link), and a relay and a client of different
// relay protocol versions refuse each other naming both versions.
#include <doctest/doctest.h>

#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include "test_credentials.hpp"
#include "shoal/peer.hpp"
#include "shoal/reference_physics.hpp"
#include "shoal/relay.hpp"
#include "transport/enet_transport.hpp"
#include "transport/relay_protocol.hpp"
#include "transport/relay_server.hpp"

using namespace shoal;

namespace {

using Clock = std::chrono::steady_clock;

struct RelayedPeer {
  std::unique_ptr<ReferencePhysics> physics;
  std::unique_ptr<Peer> peer;
  std::optional<Event> failed, incompatible;

  RelayedPeer(const PeerConfig& config, const Address& relay, std::uint16_t slot) {
    physics = std::make_unique<ReferencePhysics>(ReferencePhysicsConfig{});
    ObjectState ball;
    ball.position = {0, 0.5f, 0};
    physics->add_sphere(1, 0.5f, 1.0f, ball);
    RelayClientConfig client;
    client.relay = {"127.0.0.1", relay.port};
    client.session = "compat";
    client.token = "token";
    client.slot = slot;
    client.local = test::secured(client.local);
    peer = std::make_unique<Peer>(config, *physics, make_relay_transport(client));
  }
  void poll() {
    for (Event e; peer->poll_event(e);) {
      if (e.kind == EventKind::join_failed && !failed) failed = e;
      if (e.kind == EventKind::incompatible_peer && !incompatible) incompatible = e;
    }
  }
};

// Pumps the relay and `also` until `done` or 10 s (iterations bounded too).
template <class Pump, class Done>
bool pump_until(transport::RelayServer& relay, Pump&& also, Done&& done) {
  const auto deadline = Clock::now() + std::chrono::seconds(10);
  for (int i = 0; i < 20'000 && Clock::now() < deadline; ++i) {
    relay.poll();
    also();
    if (done()) return true;
    relay.wait(1);
  }
  return done();
}

}  // namespace

TEST_CASE("compatibility through the relay: different snapshot encodings are refused, the setting and both values named") {
  transport::RelayServer relay({});
  PeerConfig coarse;
  coarse.snapshots.velocity_units_per_mps = 256;
  RelayedPeer host({}, relay.address(), kRelayHostSlot);
  RelayedPeer joiner(coarse, relay.address(), 0);
  host.peer->host();
  joiner.peer->join(relay_host_address());
  const bool refused = pump_until(
      relay,
      [&] {
        host.peer->update();
        joiner.peer->update();
        host.poll();
        joiner.poll();
      },
      [&] { return joiner.failed && host.incompatible; });
  REQUIRE(refused);
  const std::string expected = "snapshot encoding differs: velocity_units_per_mps is 512 on the host, 256 on the joiner";
  CHECK(joiner.failed->failure == JoinFailure::incompatible);
  CHECK(joiner.failed->reason == expected);
  CHECK(host.incompatible->reason == expected);
  CHECK(host.peer->peers().size() == 1);  // nobody was admitted
}

TEST_CASE("compatibility through the relay: a join of another relay protocol version is refused, both versions named") {
  transport::RelayServer relay({});
  // A client of the next version: its join is this version's with the version byte changed.
  transport::EnetTransport client(TransportConfig{});
  const ConnectionId link = client.connect({"127.0.0.1", relay.address().port});
  const auto newer = static_cast<std::uint8_t>(transport::kRelayProtocolVersion + 1);
  std::optional<std::vector<std::uint8_t>> answer;
  bool sent = false;
  pump_until(
      relay,
      [&] {
        for (TransportEvent e; client.poll(e);) {
          if (e.kind == TransportEventKind::connected && !sent) {
            std::vector<std::uint8_t> join;
            transport::JoinMessage message;
            message.session = "compat";
            message.token = "token";
            transport::encode_join(message, join);
            join[1] = newer;
            sent = client.send(link, Channel::control, join);
          }
          if (e.kind == TransportEventKind::message && !answer) answer.emplace(e.payload.begin(), e.payload.end());
        }
      },
      [&] { return answer.has_value(); });
  REQUIRE(answer);
  transport::RelayMessage message;
  DropReason why{};
  REQUIRE(transport::decode_relay(*answer, message, why));
  CHECK(message.kind == transport::RelayKind::refused);
  CHECK(message.refusal == transport::RefusalReason::version_mismatch);
  CHECK(message.relay_version == transport::kRelayProtocolVersion);
  CHECK(message.client_version == newer);
  CHECK(relay.counters().joins_refused == 1);
  CHECK_FALSE(relay.has_session("compat"));
}

TEST_CASE("compatibility through the relay: a client whose relay speaks another version gives up, both versions named") {
  // A stand-in relay of the next version: it answers the client's join with its version refusal.
  transport::EnetTransport fake(TransportConfig{});
  RelayClientConfig config;
  config.relay = {"127.0.0.1", fake.local_address().port};
  config.session = "compat";
  config.token = "token";
  config.local = test::secured(config.local);
  std::unique_ptr<RelayTransport> client = make_relay_transport(config);
  const auto newer = static_cast<std::uint8_t>(transport::kRelayProtocolVersion + 1);
  const auto deadline = Clock::now() + std::chrono::seconds(10);
  for (int i = 0; i < 20'000 && Clock::now() < deadline && client->status().error.empty(); ++i) {
    for (TransportEvent e; fake.poll(e);) {
      if (e.kind != TransportEventKind::message) continue;
      std::vector<std::uint8_t> refusal;
      transport::encode_version_refusal(e.payload.size() > 1 ? e.payload[1] : 0, refusal);
      refusal[1] = newer;
      fake.send(e.connection, Channel::control, refusal);
    }
    for (TransportEvent e; client->poll(e);) {}
    fake.wait(1);
  }
  const std::string expected = "it speaks relay protocol version " + std::to_string(newer) + ", this client " +
                               std::to_string(transport::kRelayProtocolVersion);
  CHECK(client->status().error.find(expected) != std::string::npos);
  CHECK_FALSE(client->status().joined);
}
