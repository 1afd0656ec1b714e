// SPDX-License-Identifier: MIT
#include "join_timing.hpp"

#include <chrono>
#include <functional>
#include <memory>

#include "shoal/peer.hpp"
#include "shoal/reference_physics.hpp"
#include "shoal/relay.hpp"
#include "shoal/security.hpp"
#include "transport/relay_server.hpp"

namespace figures {
namespace {

using Clock = std::chrono::steady_clock;

std::unique_ptr<shoal::ReferencePhysics> one_ball_world() {
  auto world = std::make_unique<shoal::ReferencePhysics>(shoal::ReferencePhysicsConfig{});
  shoal::ObjectState s;
  s.position = {0, 0.5f, 0};
  world->add_sphere(1, 0.5f, 1.0f, s);
  return world;
}

// Updates both peers (and `pump`, e.g. a relay) until the joiner is joined or 10 s pass, noting
// when it enters each step. Bounded in iterations as well as time; waits on the network.
StepTimes time_join(shoal::Peer& host, shoal::Peer& joiner, shoal::Address address,
                    const std::function<void()>& pump) {
  StepTimes at{-1, -1, -1, -1, -1};
  host.host();
  joiner.join(address);
  const auto start = Clock::now();
  for (int i = 0; i < 20'000 && Clock::now() - start < std::chrono::seconds(10); ++i) {
    pump();
    host.update();
    joiner.update();
    const auto step = static_cast<int>(joiner.join_progress().step);
    const int index = step - static_cast<int>(shoal::JoinStep::connecting);
    if (index >= 0 && index < 5 && at[static_cast<std::size_t>(index)] < 0) {
      at[static_cast<std::size_t>(index)] = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    }
    if (joiner.join_progress().step == shoal::JoinStep::joined) break;
    joiner.wait(1);
  }
  return at;
}

}  // namespace

namespace {

// Both peers invited by one authority, as a game's would be: joins are timed with security on.
shoal::TransportConfig invited(const shoal::SessionAuthority& authority) {
  shoal::TransportConfig config;
  config.security.credentials = authority.invite();
  return config;
}

}  // namespace

StepTimes time_direct_join() {
  auto a = one_ball_world(), b = one_ball_world();
  const shoal::SessionAuthority authority("figures");
  shoal::Peer host({}, *a, shoal::make_enet_transport(invited(authority)));
  shoal::Peer joiner({}, *b, shoal::make_enet_transport(invited(authority)));
  shoal::Address address = host.address();
  address.host = "127.0.0.1";
  return time_join(host, joiner, address, [] {});
}

StepTimes time_relayed_join() {
  shoal::transport::RelayServer relay({});
  const shoal::SessionAuthority authority("figures");
  const auto client = [&](std::uint16_t slot) {
    shoal::RelayClientConfig c;
    c.local = invited(authority);
    c.relay = {"127.0.0.1", relay.address().port};
    c.session = "figures";
    c.token = "figures";
    c.slot = slot;
    return shoal::make_relay_transport(c);
  };
  auto a = one_ball_world(), b = one_ball_world();
  shoal::Peer host({}, *a, client(shoal::kRelayHostSlot));
  shoal::Peer joiner({}, *b, client(0));
  return time_join(host, joiner, shoal::relay_host_address(), [&] { relay.poll(); });
}

}  // namespace figures
