// SPDX-License-Identifier: MIT
// Join tokens at the start of a link: an expired token, a token of another session or of
// another authority, and a connection that presents none are refused before the layers above
// hear of the connection.
#include <doctest/doctest.h>

#include <chrono>

#include "../transport/harness.hpp"
#include "secure_pair.hpp"
#include "security/join_token.hpp"

using namespace shoal;
using namespace shoal::test;

namespace {

// `joiner` (credentials as given) connects to an end with valid credentials; both are driven
// until the host refuses it and the joiner hears of the end.
struct Refusal {
  MemoryNetwork net{11};
  End host;
  End joiner;

  explicit Refusal(const Credentials& joiner_credentials)
      : host(make_end(net, 1, test_credentials())), joiner(make_end(net, 2, joiner_credentials)) {
    joiner.transport->connect(host.transport->local_address());
    drive(net, host, joiner, [&] {
      return joiner.saw(TransportEventKind::disconnected) ||
             (joiner.saw(TransportEventKind::connected) && host.saw(TransportEventKind::connected));
    });
  }
};

}  // namespace

TEST_CASE("an expired token is refused") {
  Refusal r(test_authority().invite_until(security::unix_now_s() - 1));
  CHECK(r.host.dropped(DropReason::token_expired) == 1);
  CHECK(r.host.events.empty());  // the host's layers above never heard of the joiner
  CHECK(r.joiner.saw(TransportEventKind::disconnected));
  CHECK_FALSE(r.joiner.saw(TransportEventKind::connected));

  // The same authority's token with time left is taken: only the expiry differed.
  Refusal fine(test_authority().invite_until(security::unix_now_s() + 60));
  CHECK(fine.host.saw(TransportEventKind::connected));
  CHECK(fine.joiner.saw(TransportEventKind::connected));
  CHECK(fine.host.transport->drops().total() == 0);
}

TEST_CASE("a token for another session is refused") {
  Refusal other_session(test_authority().invite_until(security::unix_now_s() + 60, "another-session"));
  CHECK(other_session.host.dropped(DropReason::wrong_session) == 1);
  CHECK(other_session.host.events.empty());
  CHECK_FALSE(other_session.joiner.saw(TransportEventKind::connected));

  // A token naming this session, signed by another authority, does not verify.
  const SessionAuthority stranger(test_authority().session());
  Refusal other_authority(stranger.invite());
  CHECK(other_authority.host.dropped(DropReason::bad_token) == 1);
  CHECK(other_authority.host.events.empty());
  CHECK_FALSE(other_authority.joiner.saw(TransportEventKind::connected));
}

TEST_CASE("a connection without a token is dropped within its grace time") {
  constexpr std::uint32_t kGraceMs = 1000;
  TransportConfig secure;
  secure.security.token_grace_ms = kGraceMs;
  TestPeer host(secure);
  TransportConfig plain;
  plain.security.enabled = false;
  TestPeer stranger(plain);

  const auto start = std::chrono::steady_clock::now();
  const ConnectionId link = stranger.transport->connect(host.address());
  // The stranger's ENet connection comes up, but it has no token to show and says nothing.
  REQUIRE(service_until({&host, &stranger}, [&] {
    return stranger.saw(TransportEventKind::disconnected, link) || stranger.saw(TransportEventKind::timed_out, link);
  }, std::chrono::seconds(5)));
  const auto took = std::chrono::steady_clock::now() - start;
  MESSAGE("dropped after " << std::chrono::duration_cast<std::chrono::milliseconds>(took).count() << " ms");
  // Closed by the host (a goodbye, not the 5 s ENet timeout), once the grace was over.
  CHECK(stranger.saw(TransportEventKind::disconnected, link));
  CHECK(took >= std::chrono::milliseconds(kGraceMs));
  CHECK(took < std::chrono::milliseconds(kGraceMs + 1500));
  CHECK(host.events.empty());
  CHECK(host.transport->drops()[DropReason::no_token] == 1);

  // One that speaks without a token (another stranger, on a fresh socket) is closed at once,
  // without waiting for the grace.
  TestPeer talker(plain);
  const auto again = std::chrono::steady_clock::now();
  const ConnectionId second = talker.transport->connect(host.address());
  REQUIRE(service_until({&host, &talker}, [&] { return talker.saw(TransportEventKind::connected, second); }));
  REQUIRE(talker.send_text(second, Channel::control, "let me in"));
  REQUIRE(service_until({&host, &talker}, [&] { return talker.saw(TransportEventKind::disconnected, second); },
                        std::chrono::seconds(5)));
  CHECK(std::chrono::steady_clock::now() - again < std::chrono::milliseconds(kGraceMs));
  CHECK(host.events.empty());
  CHECK(host.transport->drops()[DropReason::no_token] == 2);
}

TEST_CASE("the grace for a token runs on the time given to poll: a silent connection is closed when that time passes it") {
  // The network's clock stands still after the connection: only the time given to the host's
  // poll moves, 30 s (far more than the test runs) in one step.
  constexpr std::uint32_t kGraceMs = 30'000;
  MemoryNetwork net(12);
  End host = make_end(net, 1, test_credentials(), kGraceMs);
  auto stranger = net.create_endpoint(2);  // no security layer: it never says hello
  const ConnectionId link = stranger->connect(host.transport->local_address());
  REQUIRE(link != kNoConnection);
  TransportEvent e;
  const auto poll_host = [&](std::int64_t now_us) {
    for (int i = 0; i < 100 && host.transport->poll(e, now_us); ++i) host.events.push_back(e.kind);
  };
  std::int64_t heard_us = -1;  // the time given to the poll in which the host heard of it
  for (int i = 0; i < 2000 && heard_us < 0; ++i) {
    net.set_time_us(net.time_us() + 1000);
    poll_host(net.time_us());
    while (stranger->poll(e)) {}
    if (host.tap->first_connection != kNoConnection) heard_us = net.time_us();
  }
  REQUIRE(heard_us >= 0);

  poll_host(heard_us + std::int64_t{kGraceMs} * 1000 - 1);  // a microsecond short of the grace
  CHECK(host.dropped(DropReason::no_token) == 0);
  poll_host(heard_us + std::int64_t{kGraceMs} * 1000);  // the grace is over
  CHECK(host.dropped(DropReason::no_token) == 1);
  CHECK(host.events.empty());  // the layers above never heard of it
  bool closed = false;  // and the stranger hears the host close it
  for (int i = 0; i < 2000 && !closed; ++i) {
    net.set_time_us(net.time_us() + 1000);
    poll_host(heard_us + std::int64_t{kGraceMs} * 1000);
    while (stranger->poll(e)) closed = closed || (e.kind == TransportEventKind::disconnected && e.connection == link);
  }
  CHECK(closed);
}
