// SPDX-License-Identifier: MIT
// shoal-transport-demo: N peers in one process, each with its own ENet transport on loopback,
// connected in a full mesh through the link conditioner, trading reliable and unreliable
// traffic at 60 Hz. Prints each link's round trip, loss and throughput once a second.
// Exits 0 when every link connected and stayed connected.
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "shoal/security.hpp"
#include "shoal/transport.hpp"
#include "shoal/version.hpp"

namespace {

struct Options {
  int peers = 4;
  float loss = 0.05f;
  float latency_ms = 40;
  float jitter_ms = 0;
  double seconds = 10;
  std::uint64_t seed = 1;
};

[[noreturn]] void usage_error(const std::string& what) {
  fmt::print(stderr,
             "shoal-transport-demo: {}\n"
             "usage: shoal-transport-demo [--peers N (2..16)] [--loss P (0..1)] [--latency-ms L]\n"
             "                            [--jitter-ms J] [--seconds S] [--seed S]\n",
             what);
  std::exit(2);
}

double number(std::string_view flag, const char* text, double low, double high) {
  char* end = nullptr;
  const double value = std::strtod(text, &end);
  if (end == text || *end != '\0' || !(value >= low && value <= high)) {
    usage_error(fmt::format("{} '{}' is not valid: expected a number {}..{}", flag, text, low, high));
  }
  return value;
}

Options parse(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; i += 2) {
    const std::string_view flag = argv[i];
    if (i + 1 >= argc) usage_error(fmt::format("{} needs a value", flag));
    const char* value = argv[i + 1];
    if (flag == "--peers") options.peers = static_cast<int>(number(flag, value, 2, 16));
    else if (flag == "--loss") options.loss = static_cast<float>(number(flag, value, 0, 1));
    else if (flag == "--latency-ms") options.latency_ms = static_cast<float>(number(flag, value, 0, 10'000));
    else if (flag == "--jitter-ms") options.jitter_ms = static_cast<float>(number(flag, value, 0, 10'000));
    else if (flag == "--seconds") options.seconds = number(flag, value, 0.1, 3600);
    else if (flag == "--seed") options.seed = static_cast<std::uint64_t>(number(flag, value, 0, 9e15));
    else usage_error(fmt::format("unknown flag '{}'", flag));
  }
  return options;
}

struct Peer {
  std::unique_ptr<shoal::Transport> transport;
  std::map<shoal::ConnectionId, int> neighbour_of;  ///< connection -> peer index
  std::uint64_t messages_in = 0;
};

}  // namespace

int main(int argc, char** argv) {
  if (shoal::print_version_if_asked(argc, argv, "shoal-transport-demo")) return 0;
  const Options options = parse(argc, argv);
  using Clock = std::chrono::steady_clock;

  // Each datagram crosses exactly one conditioner (its sender's outbound one), so a link
  // shows the configured latency and loss once per direction.
  std::vector<Peer> peers(static_cast<std::size_t>(options.peers));
  const shoal::SessionAuthority authority("transport-demo");  // invites every peer of the demo
  try {
    for (std::size_t i = 0; i < peers.size(); ++i) {
      shoal::TransportConfig config;
      config.timeout_ms = 3000;
      config.security.credentials = authority.invite();
      config.conditioner.outbound.loss = options.loss;
      config.conditioner.outbound.latency_ms = options.latency_ms;
      config.conditioner.outbound.jitter_ms = options.jitter_ms;
      config.conditioner.seed = options.seed + i;
      peers[i].transport = shoal::make_enet_transport(config);
    }
  } catch (const std::exception& error) {
    fmt::print(stderr, "shoal-transport-demo: {}\n", error.what());
    return 1;
  }
  std::map<std::uint16_t, int> index_of_port;
  for (std::size_t i = 0; i < peers.size(); ++i) {
    index_of_port[peers[i].transport->local_address().port] = static_cast<int>(i);
  }
  for (std::size_t i = 0; i < peers.size(); ++i) {
    for (std::size_t j = i + 1; j < peers.size(); ++j) {
      peers[i].transport->connect(peers[j].transport->local_address());
    }
  }

  const std::size_t links_expected = peers.size() * (peers.size() - 1);
  bool link_lost = false;
  const auto start = Clock::now();
  const auto end = start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(options.seconds));
  auto next_tick = start;
  auto next_report = start + std::chrono::seconds(1);
  std::uint64_t tick = 0;
  std::vector<std::uint8_t> state(96), control(24);

  while (Clock::now() < end) {
    for (Peer& peer : peers) {
      peer.transport->wait(1);
      shoal::TransportEvent event;
      while (peer.transport->poll(event)) {
        switch (event.kind) {
          case shoal::TransportEventKind::connected:
            peer.neighbour_of[event.connection] =
                index_of_port.at(peer.transport->remote_address(event.connection).port);
            break;
          case shoal::TransportEventKind::disconnected:
          case shoal::TransportEventKind::timed_out:
            fmt::print("link lost: peer {} connection {}\n", &peer - peers.data(), event.connection);
            peer.neighbour_of.erase(event.connection);
            link_lost = true;
            break;
          case shoal::TransportEventKind::message: ++peer.messages_in; break;
        }
      }
    }
    const auto now = Clock::now();
    if (now >= next_tick) {
      next_tick += std::chrono::microseconds(16'667);
      ++tick;
      for (Peer& peer : peers) {
        for (const auto& [connection, neighbour] : peer.neighbour_of) {
          state[0] = static_cast<std::uint8_t>(tick);
          peer.transport->send(connection, shoal::Channel::state, state);
          control[0] = static_cast<std::uint8_t>(tick);
          peer.transport->send(connection, shoal::Channel::control, control);
          if (tick % 10 == 0) peer.transport->send(connection, shoal::Channel::time, control);
        }
      }
    }
    if (now >= next_report) {
      next_report += std::chrono::seconds(1);
      fmt::print("t={:>4.1f}s  peer  link   rtt ms  loss %  kbps out  kbps in\n",
                 std::chrono::duration<double>(now - start).count());
      for (std::size_t i = 0; i < peers.size(); ++i) {
        for (const auto& [connection, neighbour] : peers[i].neighbour_of) {
          const shoal::LinkStats s = peers[i].transport->stats(connection);
          fmt::print("          {:>4}  ->{:<3} {:>6.0f}  {:>6.1f}  {:>8.1f}  {:>7.1f}\n", i, neighbour,
                     s.rtt_ms, 100 * s.packet_loss, s.bytes_out_per_s * 8 / 1000,
                     s.bytes_in_per_s * 8 / 1000);
        }
      }
    }
  }

  std::size_t links = 0;
  for (const Peer& peer : peers) links += peer.neighbour_of.size();
  const bool ok = !link_lost && links == links_expected;
  fmt::print("{} of {} links connected{}: {}\n", links, links_expected,
             link_lost ? ", some were lost" : "", ok ? "OK" : "FAILED");
  return ok ? 0 : 1;
}
