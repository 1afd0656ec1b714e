// SPDX-License-Identifier: MIT
// shoal-netsim, run as the built binary: forwards and impairs both directions; refuses bad flags.
#include <doctest/doctest.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "child_process.hpp"
#include "transport/udp_socket.hpp"

using shoal::test::ChildProcess;
using shoal::transport::Endpoint;
using shoal::transport::UdpSocket;

namespace {

const std::string kNetsim = std::string(SHOAL_BIN_DIR) + "/shoal-netsim";

std::int64_t now_us() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

struct Flow {
  int received = 0;
  double min_delay_ms = 1e9;
  Endpoint last_source;
};

// Sends `count` stamped datagrams from `from` to `to`, a few at a time so no socket buffer
// overflows, and collects them at `at` until all could have arrived.
Flow send_and_measure(UdpSocket& from, const Endpoint& to, UdpSocket& at, int count) {
  Flow flow;
  std::vector<std::uint8_t> buffer(256);
  const auto collect = [&] {
    Endpoint source;
    for (std::ptrdiff_t n; (n = at.receive_from(buffer, source)) >= 0;) {
      if (n != sizeof(std::int64_t)) continue;
      std::int64_t sent = 0;
      std::memcpy(&sent, buffer.data(), sizeof sent);
      flow.min_delay_ms = std::min(flow.min_delay_ms, static_cast<double>(now_us() - sent) / 1000.0);
      flow.last_source = source;
      ++flow.received;
    }
  };
  for (int i = 0; i < count; ++i) {
    const std::int64_t stamp = now_us();
    from.send_to(to, {reinterpret_cast<const std::uint8_t*>(&stamp), sizeof stamp});
    if (i % 10 == 9) {
      shoal::transport::platform::WaitEntry waiting{at.handle()};
      shoal::transport::platform::wait_readable({&waiting, 1}, 2);
      collect();
    }
  }
  // Quiet period: everything still in flight (40 ms latency) lands well within it.
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(400);
  for (int i = 0; i < 1'000 && std::chrono::steady_clock::now() < until; ++i) {
    shoal::transport::platform::WaitEntry waiting{at.handle()};
    shoal::transport::platform::wait_readable({&waiting, 1}, 10);
    collect();
  }
  return flow;
}

}  // namespace

TEST_CASE("shoal-netsim forwards and impairs traffic in both directions") {
  const Endpoint loopback{0x7F000001, 0};
  UdpSocket client(loopback), server(loopback);
  ChildProcess netsim({kNetsim, "--listen", "0", "--target",
                       "127.0.0.1:" + std::to_string(server.local().port), "--loss", "0.2",
                       "--latency-ms", "40", "--seed", "5", "--seconds", "30"});
  REQUIRE(netsim.started());
  const auto line = netsim.read_line(std::chrono::seconds(10));
  REQUIRE(line.has_value());
  const std::string prefix = "shoal-netsim: listening on 127.0.0.1:";
  REQUIRE(line->rfind(prefix, 0) == 0);
  const Endpoint proxy{0x7F000001, static_cast<std::uint16_t>(std::stoi(line->substr(prefix.size())))};

  constexpr int kCount = 500;
  const Flow forward = send_and_measure(client, proxy, server, kCount);
  MESSAGE("client->server: " << forward.received << " of " << kCount << ", min delay "
                             << forward.min_delay_ms << " ms");
  CHECK(forward.received >= kCount * 65 / 100);  // 20% loss: 400 expected
  CHECK(forward.received <= kCount * 92 / 100);
  CHECK(forward.min_delay_ms >= 39.0);
  // The server sees the proxy's per-client pipe, not the client.
  CHECK(forward.last_source.port != client.local().port);

  const Flow back = send_and_measure(server, forward.last_source, client, kCount);
  MESSAGE("server->client: " << back.received << " of " << kCount << ", min delay "
                             << back.min_delay_ms << " ms");
  CHECK(back.received >= kCount * 65 / 100);
  CHECK(back.received <= kCount * 92 / 100);
  CHECK(back.min_delay_ms >= 39.0);
  CHECK(back.last_source == proxy);

  CHECK(netsim.finish(SIGTERM, std::chrono::seconds(5)) == 0);
}

TEST_CASE("shoal-netsim refuses wrong flags with a clear message and exit code 2") {
  struct Case {
    std::vector<std::string> args;
    std::string message;
  };
  const std::vector<Case> cases = {
      {{"--listen", "0", "--target", "127.0.0.1:9", "--loss", "2"},
       "--loss '2' is not valid: expected a fraction 0..1"},
      {{"--listen", "0", "--target", "127.0.0.1:9", "--latency-ms", "fast"},
       "--latency-ms 'fast' is not valid: expected milliseconds"},
      {{"--listen", "0", "--target", "nowhere"}, "--target 'nowhere' is not valid: expected HOST:PORT"},
      {{"--listen", "70000", "--target", "127.0.0.1:9"}, "--listen '70000' is not valid: expected a port"},
      {{"--listen", "0"}, "--target HOST:PORT is required"},
      {{"--listen", "0", "--target", "127.0.0.1:9", "--frobnicate", "1"}, "unknown flag '--frobnicate'"},
      {{"--listen", "0", "--target", "127.0.0.1:9", "--seed"}, "--seed needs a value"},
  };
  for (const auto& c : cases) {
    std::vector<std::string> argv{kNetsim};
    argv.insert(argv.end(), c.args.begin(), c.args.end());
    ChildProcess netsim(argv);
    REQUIRE(netsim.started());
    CHECK(netsim.finish(0, std::chrono::seconds(10)) == 2);
    const std::string& err = netsim.stderr_text();
    INFO("stderr: " << err);
    CHECK(err.find(c.message) != std::string::npos);
    CHECK(err.find("usage: shoal-netsim") != std::string::npos);
  }
}
