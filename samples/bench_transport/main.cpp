// SPDX-License-Identifier: MIT
// shoal-bench-transport: what an ENet transport costs per datagram in its two shapes, side by
// side in one run: direct (ENet owns the public socket, as a transport made without link
// conditions is) and conditioned (the link conditioner in front of ENet, with a perfect link:
// the loopback hop every transport paid before the direct shape existed).
//
// N transports in this process form a full mesh on loopback. Each tick every transport sends
// each other one a state message the size of a real match's snapshot datagram (and a reliable
// control message now and then), flushes, and every transport is polled until the tick's
// datagrams have arrived. Rounds of ticks alternate between the shapes; each round reports
// the process's CPU time (user + system, getrusage) per datagram sent, every datagram being
// received once as well. The medians and their ratio are the result.
//
// With --shape direct|conditioned only that shape runs, and the totals of datagrams sent and
// received are printed: run it under `strace -c -f` to count system calls per datagram.
// Security is off: the secure layer costs the same in both shapes.
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "../bench_sync/medians.hpp"
#include "shoal/version.hpp"
#include "transport/enet_transport.hpp"

namespace shoal::bench {
namespace {

using transport::EnetTransport;

struct Options {
  int peers = 8;
  int ticks = 600;        // per round
  int rounds = 6;         // per shape
  int state_bytes = 200;  // a 4-peer lan match: about 350 kbit/s out to 3 peers at 60 Hz
  int hz = 0;             // ticks per second; 0: as fast as it goes
  std::optional<std::string> shape;  // only this one, for strace
};

[[noreturn]] void usage(const std::string& problem) {
  std::fprintf(stderr,
               "shoal-bench-transport: %s\n"
               "usage: shoal-bench-transport [--peers N (2..32)] [--ticks T (1..100000)] [--rounds R (1..100)]\n"
               "                             [--state-bytes B (1..1200)] [--hz H (0..1000, 0: unpaced)]\n"
               "                             [--shape direct|conditioned]\n",
               problem.c_str());
  std::exit(2);
}

int number(const char* text, const char* flag, int low, int high) {
  char* end = nullptr;
  const long value = std::strtol(text, &end, 10);
  if (end == text || *end != '\0' || value < low || value > high) {
    usage(fmt::format("{} is '{}': expected a whole number in {}..{}", flag, text, low, high));
  }
  return static_cast<int>(value);
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (flag == "--help" || flag == "-h") usage("what it costs an ENet transport to send and receive a datagram");
    if (i + 1 >= argc) usage(flag + " needs a value");
    const char* value = argv[++i];
    if (flag == "--peers") o.peers = number(value, "--peers", 2, 32);
    else if (flag == "--ticks") o.ticks = number(value, "--ticks", 1, 100000);
    else if (flag == "--rounds") o.rounds = number(value, "--rounds", 1, 100);
    else if (flag == "--state-bytes") o.state_bytes = number(value, "--state-bytes", 1, 1200);
    else if (flag == "--hz") o.hz = number(value, "--hz", 0, 1000);
    else if (flag == "--shape") {
      o.shape = value;
      if (*o.shape != "direct" && *o.shape != "conditioned") usage(fmt::format("--shape is '{}': expected direct or conditioned", value));
    } else {
      usage("unknown flag " + flag);
    }
  }
  return o;
}

double cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const auto seconds = [](const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6; };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

/// N transports of one shape in a full mesh, and the traffic of a match between them.
class Mesh {
 public:
  Mesh(const Options& options, bool conditioned) : options_(options) {
    TransportConfig config;
    config.security.enabled = false;
    config.max_connections = static_cast<std::size_t>(options.peers);
    for (int p = 0; p < options.peers; ++p) {
      nodes_.push_back({std::make_unique<EnetTransport>(config), {}});
      if (conditioned) nodes_.back().transport->put_conditioner_in_front();
    }
    for (std::size_t a = 0; a < nodes_.size(); ++a) {
      for (std::size_t b = a + 1; b < nodes_.size(); ++b) nodes_[a].transport->connect(nodes_[b].transport->local_address());
    }
    const auto all_connected = [&] {
      for (const Node& node : nodes_) {
        if (node.connections.size() + 1 != nodes_.size()) return false;
      }
      return true;
    };
    for (int i = 0; i < 10'000 && !all_connected(); ++i) {
      poll_all();
      nodes_.front().transport->wait(1);
    }
    if (!all_connected()) throw std::runtime_error("the mesh did not connect within 10 s");
  }

  /// One tick of traffic; returns once it has arrived (or after a bounded number of polls).
  void tick(int number) {
    std::vector<std::uint8_t> state(static_cast<std::size_t>(options_.state_bytes), static_cast<std::uint8_t>(number));
    const std::uint8_t control[24] = {};
    const std::uint64_t expected = received_ + static_cast<std::uint64_t>(nodes_.size() * (nodes_.size() - 1));
    for (Node& node : nodes_) {
      for (ConnectionId c : node.connections) {
        node.transport->send(c, Channel::state, state);
        if (number % 6 == 0) node.transport->send(c, Channel::control, control);
      }
      node.transport->flush();
    }
    for (int i = 0; i < 1000 && states_ < expected; ++i) poll_all();
  }

  std::uint64_t datagrams_sent() const {
    std::uint64_t total = 0;
    for (const Node& node : nodes_) total += node.transport->counters().datagrams_sent;
    return total;
  }
  std::uint64_t datagrams_received() const {
    std::uint64_t total = 0;
    for (const Node& node : nodes_) total += node.transport->counters().datagrams_received;
    return total;
  }

 private:
  struct Node {
    std::unique_ptr<EnetTransport> transport;
    std::vector<ConnectionId> connections;
  };

  void poll_all() {
    for (Node& node : nodes_) {
      TransportEvent event;
      while (node.transport->poll(event)) {
        if (event.kind == TransportEventKind::connected) node.connections.push_back(event.connection);
        if (event.kind == TransportEventKind::message && event.channel == Channel::state) ++states_;
      }
    }
    received_ = states_;
  }

  Options options_;
  std::vector<Node> nodes_;
  std::uint64_t states_ = 0;    // state messages received
  std::uint64_t received_ = 0;  // ... as of the last complete poll
};

struct Round {
  double cpu_us_per_datagram = 0;
  double datagrams_per_tick = 0;
};

Round run_round(Mesh& mesh, const Options& options, int& tick_number) {
  const std::uint64_t sent_before = mesh.datagrams_sent();
  const double cpu_before = cpu_seconds();
  auto next = std::chrono::steady_clock::now();
  for (int t = 0; t < options.ticks; ++t) {
    mesh.tick(tick_number++);
    if (options.hz > 0) {
      next += std::chrono::microseconds(1'000'000 / options.hz);
      std::this_thread::sleep_until(next);
    }
  }
  const double cpu = cpu_seconds() - cpu_before;
  const auto sent = static_cast<double>(mesh.datagrams_sent() - sent_before);
  return {sent > 0 ? cpu * 1e6 / sent : 0, sent / options.ticks};
}

int run(const Options& options) {
  fmt::print("shoal-bench-transport: {} ENet transports in a full mesh on loopback, {} ticks a round ({}), "
             "a {}-byte state message to every other one per tick, a reliable one every 6th\n",
             options.peers, options.ticks, options.hz > 0 ? fmt::format("{} Hz", options.hz) : "unpaced",
             options.state_bytes);
  if (options.shape) {
    Mesh mesh(options, *options.shape == "conditioned");
    int tick_number = 0;
    const std::uint64_t sent_before = mesh.datagrams_sent(), received_before = mesh.datagrams_received();
    Round total{};
    for (int r = 0; r < options.rounds; ++r) total.cpu_us_per_datagram += run_round(mesh, options, tick_number).cpu_us_per_datagram / options.rounds;
    fmt::print("{}: {} datagrams sent, {} received during the rounds ({} sent, {} received in all, the mesh's "
               "handshakes included); {:.2f} us CPU per datagram\n",
               *options.shape, mesh.datagrams_sent() - sent_before, mesh.datagrams_received() - received_before,
               mesh.datagrams_sent(), mesh.datagrams_received(), total.cpu_us_per_datagram);
    return 0;
  }
  Mesh direct(options, false), conditioned(options, true);
  std::vector<double> direct_us, conditioned_us;
  int direct_tick = 0, conditioned_tick = 0;
  for (int r = 0; r < options.rounds; ++r) {
    const Round d = run_round(direct, options, direct_tick);
    const Round c = run_round(conditioned, options, conditioned_tick);
    direct_us.push_back(d.cpu_us_per_datagram);
    conditioned_us.push_back(c.cpu_us_per_datagram);
    fmt::print("round {}: direct {:.2f} us/datagram ({:.1f} datagrams a tick), conditioned {:.2f} us/datagram ({:.1f} a tick)\n",
               r + 1, d.cpu_us_per_datagram, d.datagrams_per_tick, c.cpu_us_per_datagram, c.datagrams_per_tick);
  }
  const double d = median(direct_us), c = median(conditioned_us);
  fmt::print("CPU per datagram (sent and received, user + system), medians of {} rounds: direct {:.2f} us, "
             "conditioned {:.2f} us: direct costs {:.2f}x\n",
             options.rounds, d, c, c > 0 ? d / c : 0.0);
  return 0;
}

}  // namespace
}  // namespace shoal::bench

int main(int argc, char** argv) {
  if (shoal::print_version_if_asked(argc, argv, "shoal-bench-transport")) return 0;
  try {
    return shoal::bench::run(shoal::bench::parse(argc, argv));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "shoal-bench-transport: %s\n", e.what());
    return 1;
  }
}
