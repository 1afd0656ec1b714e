// SPDX-License-Identifier: MIT
// The relay client's and the hybrid transport's timers run on the time their caller gives
// poll(event, now_us), not on the clock: a fake time far ahead of the real one fires them at
// once, and a fake time held still keeps them from firing however long the test runs.
#include <doctest/doctest.h>

#include "core/steady_now.hpp"
#include "relay_harness.hpp"
#include "transport/enet_transport.hpp"
#include "transport/hybrid_transport.hpp"

using namespace shoal;
using namespace shoal::test;

namespace {

constexpr std::int64_t kMs = 1000;

bool joined(const Client& c) { return c.transport->status().joined; }

}  // namespace

TEST_CASE("relay client: an unacknowledged control message is sent again only once the given time passes its resend timer") {
  transport::RelayServer relay({});
  Client host = make_client(client_config(relay.address(), "clock", kRelayHostSlot));
  Client joiner = make_client(client_config(relay.address(), "clock"));
  std::vector<Client*> all{&host, &joiner};
  REQUIRE(pump(&relay, all, 5, [&] { return joined(host) && joined(joiner); }));
  const ConnectionId to_host = joiner.transport->connect(relay_host_address());
  REQUIRE(pump(&relay, all, 5, [&] { return joiner.connected.size() == 1 && host.connected.size() == 1; }));

  // From here on neither the relay nor the host is serviced: nothing is acknowledged.
  const std::int64_t start = core::steady_now_us();
  joiner.drain_at(start);
  REQUIRE(joiner.transport->send(to_host, Channel::control, bytes_of("are you there?")));
  const std::uint64_t resends = joiner.transport->counters().resends;

  // Half the resend timer (1 s) later by the given time: not yet.
  joiner.drain_at(start + 500 * kMs);
  CHECK(joiner.transport->counters().resends == resends);
  // Past it (a clock read here would say only microseconds went by): sent again, once.
  joiner.drain_at(start + 1500 * kMs);
  CHECK(joiner.transport->counters().resends == resends + 1);
  // The timer restarted at that time: not again before another second.
  joiner.drain_at(start + 2000 * kMs);
  CHECK(joiner.transport->counters().resends == resends + 1);
  joiner.drain_at(start + 2600 * kMs);
  CHECK(joiner.transport->counters().resends == resends + 2);
}

TEST_CASE("hybrid: with direct blocked, the relay is tried only once the given time passes direct_timeout_ms") {
  transport::RelayServer relay({});
  const auto config = [&](std::uint16_t slot) {
    HybridConfig c;
    c.relay = client_config(relay.address(), "hybrid-clock", slot);
    c.direct = test::secured(c.direct);
    c.direct.timeout_ms = 60'000;     // nothing times out when the fake time jumps
    c.direct_timeout_ms = 20'000;     // far more than this test lasts in real time
    c.direct_retry_ms = 20'000;
    return c;
  };
  Seen<transport::Hybrid> host{std::make_unique<transport::Hybrid>(config(kRelayHostSlot)), {}, {}, {}};
  Seen<transport::Hybrid> joiner{std::make_unique<transport::Hybrid>(config(0)), {}, {}, {}};
  ConditionerConfig lose_all;
  lose_all.inbound.loss = 1;
  lose_all.outbound.loss = 1;
  joiner.transport->direct_transport().set_conditions(lose_all);  // but the relay's link
  joiner.transport->direct_transport().set_conditions_for({"127.0.0.1", relay.address().port}, {});

  // The joiner runs on a fake clock held at `start`; the relay and the host on the real one.
  const std::int64_t start = 1'000'000;
  const auto run = [&](std::int64_t joiner_now, double seconds, const auto& done) {
    const auto deadline = Clock::now() + std::chrono::duration<double>(seconds);
    for (long i = 0; i < static_cast<long>(seconds * 2000) && Clock::now() < deadline; ++i) {
      relay.poll();
      host.drain();
      joiner.drain_at(joiner_now);
      if (done()) return true;
      relay.wait(1);
    }
    return done();
  };
  REQUIRE(run(start, 5, [&] {
    return host.transport->relay_status().joined && joiner.transport->relay_status().joined;
  }));
  const ConnectionId id = joiner.transport->connect(host.transport->local_address());
  REQUIRE(id != kNoConnection);

  // A second of real time, the given time standing still: direct fails, the relay waits.
  run(start, 1.0, [] { return false; });
  CHECK(joiner.transport->path(id) == Path::none);
  CHECK(joiner.connected.empty());
  CHECK(host.connected.empty());

  // The given time passes direct_timeout_ms (counted from the first poll after connect):
  // the route comes up through the relay.
  CHECK(run(start + 20'001 * kMs, 5, [&] { return joiner.transport->path(id) == Path::relay; }));
  CHECK(joiner.connected.size() == 1);
  CHECK(host.connected.size() == 1);
}
