// SPDX-License-Identifier: MIT
// One NATed peer of the NAT traversal test (netns_nat.sh), a hybrid transport in a process:
//   shoal-nat-probe host RELAY_HOST:PORT BIND_PORT SECONDS
//   shoal-nat-probe join RELAY_HOST:PORT BIND_PORT HOST_HOST:PORT SECONDS
// Both join the relay session "nat" (the host in kRelayHostSlot). The joiner dials the host
// at the address it was given (unreachable behind NAT) and its relay slot; the hybrid falls
// back to the relay and punches. The joiner sends "ping" on the control channel once its path
// is direct, the host answers "pong" if its own path is direct too, and the joiner then closes
// (the host runs until then, so the pong is delivered).
// Each prints one line "<role> path=P public=ADDR punch_rounds=N punches_in=N punches_out=N
// switches=N" and exits 0 when it saw the exchange over a direct path on both sides, 1 when
// not within SECONDS, 2 on bad arguments.
#include <chrono>
#include <cstdint>
#include <exception>
#include <stdexcept>
#include <string>
#include <string_view>

#include <fmt/core.h>

#include "shoal/relay.hpp"
#include "transport/hybrid_transport.hpp"
#include "shoal/version.hpp"

namespace {

using Clock = std::chrono::steady_clock;

int usage() {
  fmt::print(stderr,
             "usage: shoal-nat-probe host RELAY_HOST:PORT BIND_PORT SECONDS\n"
             "       shoal-nat-probe join RELAY_HOST:PORT BIND_PORT HOST_HOST:PORT SECONDS\n");
  return 2;
}

shoal::Address parse_address(const std::string& text) {
  const auto colon = text.rfind(':');
  if (colon == std::string::npos) throw std::invalid_argument("expected HOST:PORT, got " + text);
  return {text.substr(0, colon), static_cast<std::uint16_t>(std::stoul(text.substr(colon + 1)))};
}

shoal::HybridConfig hybrid_config(const shoal::Address& relay, std::uint16_t bind_port, bool host) {
  shoal::HybridConfig c;
  c.relay.relay = relay;
  c.relay.session = "nat";
  c.relay.token = "nat-token";
  c.relay.slot = host ? shoal::kRelayHostSlot : 0;
  c.direct.bind_host = "0.0.0.0";
  c.direct.port = bind_port;
  c.direct.timeout_ms = 2000;
  c.direct_timeout_ms = 500;
  c.direct_retry_ms = 500;
  return c;
}

bool is_text(std::span<const std::uint8_t> bytes, std::string_view text) {
  return std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()) == text;
}

std::span<const std::uint8_t> bytes_of(std::string_view text) {
  return {reinterpret_cast<const std::uint8_t*>(text.data()), text.size()};
}

void report(std::string_view role, shoal::transport::Hybrid& hybrid, shoal::ConnectionId connection) {
  const auto& punches = hybrid.direct_transport().counters();
  const shoal::Address public_address = hybrid.relay_status().public_address;
  fmt::print("{} path={} public={}:{} punch_rounds={} punches_in={} punches_out={} switches={}\n", role,
             shoal::to_string(hybrid.path(connection)), public_address.host, public_address.port,
             hybrid.counters().punch_rounds, punches.punches_received, punches.punches_sent,
             hybrid.counters().path_switches);
  std::fflush(stdout);
}

// Runs until `done` or the deadline; every event goes to `on_event`. Bounded in time and polls.
template <class OnEvent, class Done>
bool run(shoal::transport::Hybrid& hybrid, double seconds, OnEvent&& on_event, Done&& done) {
  const auto deadline = Clock::now() + std::chrono::duration<double>(seconds);
  for (long i = 0; i < static_cast<long>(seconds * 1000) && Clock::now() < deadline; ++i) {
    shoal::TransportEvent event;
    while (hybrid.poll(event)) on_event(event);
    if (done()) return true;
    hybrid.wait(1);
  }
  return done();
}

int host(const shoal::Address& relay, std::uint16_t bind_port, double seconds) {
  shoal::transport::Hybrid hybrid(hybrid_config(relay, bind_port, true));
  shoal::ConnectionId peer = shoal::kNoConnection;
  bool answered_direct = false, closed = false;
  run(hybrid, seconds, [&](const shoal::TransportEvent& e) {
    if (e.kind == shoal::TransportEventKind::connected && peer == shoal::kNoConnection) peer = e.connection;
    if (e.connection != peer || peer == shoal::kNoConnection) return;
    if (e.kind == shoal::TransportEventKind::message && is_text(e.payload, "ping") &&
        hybrid.path(peer) == shoal::Path::direct) {
      answered_direct = hybrid.send(peer, shoal::Channel::control, bytes_of("pong"));
      report("host", hybrid, peer);
    }
    closed = closed || e.kind == shoal::TransportEventKind::disconnected ||
             e.kind == shoal::TransportEventKind::timed_out;
  }, [&] { return closed; });
  if (!answered_direct) report("host", hybrid, peer);
  return answered_direct ? 0 : 1;
}

int join(const shoal::Address& relay, std::uint16_t bind_port, const shoal::Address& host_direct, double seconds) {
  shoal::transport::Hybrid hybrid(hybrid_config(relay, bind_port, false));
  const shoal::ConnectionId to_host = hybrid.connect(shoal::hybrid_address(host_direct, shoal::kRelayHostSlot));
  if (to_host == shoal::kNoConnection) throw std::runtime_error("cannot dial the host");
  bool pinged = false, ponged_direct = false;
  run(hybrid, seconds, [&](const shoal::TransportEvent& e) {
    if (e.connection == to_host && e.kind == shoal::TransportEventKind::message && is_text(e.payload, "pong")) {
      ponged_direct = hybrid.path(to_host) == shoal::Path::direct;
    }
  }, [&] {
    if (!pinged && hybrid.path(to_host) == shoal::Path::direct) {
      pinged = hybrid.send(to_host, shoal::Channel::control, bytes_of("ping"));
    }
    return ponged_direct;
  });
  report("join", hybrid, to_host);
  hybrid.disconnect(to_host);  // the host's cue to stop; the destructor flushes it out
  return ponged_direct ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (shoal::print_version_if_asked(argc, argv, "shoal-nat-probe")) return 0;
  if (argc < 5) return usage();
  const std::string_view mode = argv[1];
  try {
    const shoal::Address relay = parse_address(argv[2]);
    const auto bind_port = static_cast<std::uint16_t>(std::stoul(argv[3]));
    if (mode == "host" && argc == 5) return host(relay, bind_port, std::stod(argv[4]));
    if (mode == "join" && argc == 6) return join(relay, bind_port, parse_address(argv[4]), std::stod(argv[5]));
  } catch (const std::exception& e) {
    fmt::print(stderr, "shoal-nat-probe: {}\n", e.what());
    return 2;
  }
  return usage();
}
