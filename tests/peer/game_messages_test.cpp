// SPDX-License-Identifier: MIT
// Game messages (Peer::send_message) over the in-process network: reliable ones arrive once and
// in order through heavy loss, unreliable ones never displace snapshots, a flood from one peer
// is capped at the receiver's limits without touching anyone else's traffic, and hostile or
// wrong ones are refused. Also the log hook that says why.
#include <doctest/doctest.h>

#include <cstring>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "match_harness.hpp"

using namespace shoal;
using namespace shoal::test;

namespace {

std::vector<std::uint8_t> numbered(std::uint32_t n, std::size_t size = 4) {
  std::vector<std::uint8_t> bytes(std::max<std::size_t>(size, 4), static_cast<std::uint8_t>(n * 7));
  std::memcpy(bytes.data(), &n, 4);
  return bytes;
}
std::uint32_t number_of(const std::vector<std::uint8_t>& bytes) {
  std::uint32_t n = 0;
  if (bytes.size() >= 4) std::memcpy(&n, bytes.data(), 4);
  return n;
}

/// Every message event a peer reports, by sender; other events are consumed.
struct Inbox {
  std::map<PeerId, std::vector<Event>> from;
  std::size_t bytes = 0;
  void take(Peer& peer) {
    for (Event e; peer.poll_event(e);) {
      if (e.kind != EventKind::message) continue;
      bytes += e.bytes.size();
      from[e.peer].push_back(std::move(e));
    }
  }
};

/// Peers on the in-process network, each with its own config (a flooder's limits differ from
/// its victim's); peer 0 hosts. Time advances in render frames the test drives.
struct MessageMatch {
  MessageMatch(const std::vector<PeerConfig>& configs, std::uint64_t seed) : net(seed) {
    for (std::size_t p = 0; p < configs.size(); ++p) {
      players.push_back(make_player(spec, static_cast<int>(p), configs[p],
                                    net.create_endpoint(static_cast<std::uint16_t>(p + 1), 2000)));
    }
    players[0].peer->host();
    for (std::size_t p = 1; p < players.size(); ++p) players[p].peer->join(players[0].peer->address());
  }
  Peer& peer(std::size_t p) { return *players[p].peer; }
  template <class OnFrame>
  void run(double seconds, OnFrame&& on_frame) {
    for (int i = 0; i < static_cast<int>(seconds * 60); ++i) {
      now_us += 16'667;
      net.set_time_us(now_us);
      for (Player& p : players) update_player(p, now_us);
      on_frame();
    }
  }
  bool connect() {
    for (int i = 0; i < 5 * 60; ++i) {
      bool all = true;
      for (Player& p : players) all = all && p.peer->in_match() && p.peer->peers().size() == players.size();
      if (all) return true;
      run(1.0 / 60, [] {});
    }
    return false;
  }
  void enable_bots(std::uint64_t seed) { shoal::test::enable_bots(players, seed, spec.objects); }

  ArenaSpec spec{3, 6, 12};
  MemoryNetwork net;
  std::vector<Player> players;
  std::int64_t now_us = 1'000'000;
};

PeerConfig fast_messages() {
  PeerConfig config;
  config.messages.max_messages_per_second = 2000;  // 10,000 in a few seconds
  config.messages.max_bytes_per_second = 256 * 1024;
  return config;
}

/// Limits far past the defaults: what a hostile or misconfigured flooder sends with.
PeerConfig flooder() {
  PeerConfig config;
  config.messages.max_message_bytes = 4096;
  config.messages.max_bytes_per_second = 4'000'000;
  config.messages.max_messages_per_second = 10'000;
  return config;
}

}  // namespace

TEST_CASE("messages: 10,000 reliable messages at 20% loss arrive once each, in order") {
  MessageMatch match({fast_messages(), fast_messages()}, 41);
  REQUIRE(match.connect());
  match.net.set_conditions(link(30, 0.2f, 5));
  match.enable_bots(7);
  Peer& sender = match.peer(1);
  Peer& receiver = match.peer(0);
  constexpr std::uint32_t kCount = 10'000;
  std::uint32_t next = 0;
  Inbox inbox;
  // 30 a frame (1800 a second) stays under the sender's rate; it refuses nothing then.
  for (int frame = 0; frame < 60 * 60 && inbox.from[1].size() < kCount; ++frame) {
    match.run(1.0 / 60, [] {});
    for (int i = 0; i < 30 && next < kCount; ++i) {
      if (sender.send_message(0, numbered(next, 16), Delivery::reliable, sender.frame())) ++next;
    }
    inbox.take(receiver);
  }
  REQUIRE(next == kCount);
  const std::vector<Event>& got = inbox.from[1];
  REQUIRE(got.size() == kCount);
  bool in_order = true;
  for (std::uint32_t i = 0; i < kCount; ++i) in_order = in_order && number_of(got[i].bytes) == i && got[i].reliable;
  CHECK(in_order);
  CHECK(got.front().frame >= 0);
  CHECK(receiver.stats().messages_received == kCount);
  CHECK(sender.stats().messages_sent == kCount);
  CHECK(receiver.stats().dropped[DropReason::over_limit] == 0);
  CHECK(receiver.stats().desyncs == 0);
}

namespace {

struct FloodRun {
  std::uint64_t snapshots_received = 0;
  std::uint64_t messages_received = 0;
  std::uint64_t over_limit = 0;
  std::uint64_t stale = 0;
};

/// 10 s of bots over a jittery link; peer 1 floods peer 0 with unreliable messages (when
/// `flood`) at 1 MB/s, far past what peer 0 accepts.
FloodRun run_with_flood(bool flood) {
  MessageMatch match({PeerConfig{}, flooder()}, 43);
  REQUIRE(match.connect());
  match.net.set_conditions(link(30, 0.02f, 10));
  match.enable_bots(9);
  const PeerStats before = match.peer(0).stats();
  std::uint32_t n = 0;
  Inbox inbox;
  match.run(10, [&] {
    for (int i = 0; flood && i < 17; ++i) {  // 17 x 1000 bytes x 60 frames: 1 MB/s
      CHECK(match.peer(1).send_message(0, numbered(n++, 1000), Delivery::unreliable));
    }
    inbox.take(match.peer(0));
  });
  const PeerStats after = match.peer(0).stats();
  return {after.snapshots_received - before.snapshots_received, after.messages_received,
          after.dropped[DropReason::over_limit], after.dropped[DropReason::stale]};
}

}  // namespace

TEST_CASE("messages: a flood of unreliable messages never holds up snapshots") {
  const FloodRun quiet = run_with_flood(false);
  const FloodRun loud = run_with_flood(true);
  REQUIRE(quiet.snapshots_received > 500);
  // Snapshots arrive as often with the flood as without (their own jitter decides the rest).
  CHECK(static_cast<double>(loud.snapshots_received) >= 0.97 * static_cast<double>(quiet.snapshots_received));
  CHECK(loud.stale <= quiet.stale + quiet.stale / 10 + 5);  // no snapshot made stale by a message
  CHECK(loud.messages_received > 0);
  CHECK(loud.over_limit > 0);  // the receiver capped what it took
}

TEST_CASE("messages: a 1 MB/s flood from one peer is capped at the receiver, the others' traffic untouched") {
  PeerConfig victim;
  victim.messages.max_queued = 100;
  MessageMatch match({victim, PeerConfig{}, flooder()}, 45);
  REQUIRE(match.connect());
  match.net.set_conditions(link(20, 0.05f, 5));
  match.enable_bots(11);
  Peer& receiver = match.peer(0);
  std::uint32_t flood = 0, calm = 0;
  auto send_both = [&] {
    for (int i = 0; i < 17; ++i) CHECK(match.peer(2).send_message(0, numbered(flood++, 1000)));  // 1 MB/s, reliable
    if (match.players[1].peer->frame() % 6 == 0) CHECK(match.peer(1).send_message(0, numbered(calm++, 40)));
  };
  // 5 s in which the game does not poll: memory stays bounded by the queue limit.
  std::size_t most_queued = 0;
  match.run(5, [&] {
    send_both();
    most_queued = std::max(most_queued, receiver.stats().messages_queued);
  });
  CHECK(most_queued <= 2 * 100);  // each sender's queue at most max_queued
  Inbox inbox;
  inbox.take(receiver);
  CHECK(inbox.from[2].size() <= 100);
  std::vector<Event> calm_got = std::move(inbox.from[1]);
  // 10 s more, polled every frame, then 1 s to drain: what is taken of the flood is capped by
  // the receiver's byte rate (the bucket filled while the queue was full: a two-second burst).
  inbox = {};
  match.run(10, [&] {
    send_both();
    inbox.take(receiver);
  });
  match.run(1, [&] { inbox.take(receiver); });
  const std::size_t flood_bytes = inbox.from[2].size() * 1000;
  const std::size_t cap = 64 * 1024;  // the victim's max_bytes_per_second (the default)
  CHECK(flood_bytes <= 11 * cap + 2 * cap);
  CHECK(flood_bytes >= 8 * cap);  // the rate is what it takes
  // The calm sender lost nothing to the flood, and its messages kept their order.
  calm_got.insert(calm_got.end(), inbox.from[1].begin(), inbox.from[1].end());
  REQUIRE(calm_got.size() == calm);
  bool calm_in_order = true;
  for (std::size_t i = 0; i < calm_got.size(); ++i) calm_in_order = calm_in_order && number_of(calm_got[i].bytes) == i;
  CHECK(calm_in_order);
  const PeerStats stats = receiver.stats();
  CHECK(stats.dropped[DropReason::over_limit] > 10'000);  // most of ~15 s x 1000 messages
  CHECK(stats.desyncs == 0);
  CHECK(stats.snapshots_received > 15 * 60);  // both senders' snapshots still arrive
}

TEST_CASE("messages: an oversized message is dropped and counted, with no event") {
  MessageMatch match({PeerConfig{}, flooder()}, 47);
  REQUIRE(match.connect());
  Peer& receiver = match.peer(0);
  match.run(0.5, [&] { Inbox().take(receiver); });
  REQUIRE(match.peer(1).send_message(0, std::vector<std::uint8_t>(2000, 1)));  // past the receiver's 1024
  REQUIRE(match.peer(1).send_message(0, std::vector<std::uint8_t>(1024, 2)));  // at it
  Inbox inbox;
  match.run(0.5, [&] { inbox.take(receiver); });
  REQUIRE(inbox.from[1].size() == 1);
  CHECK(inbox.from[1][0].bytes == std::vector<std::uint8_t>(1024, 2));
  CHECK(receiver.stats().dropped[DropReason::oversize] == 1);
}

TEST_CASE("messages: wrong sends say what is wrong, and past its own rate a sender is refused") {
  PeerConfig config;
  config.messages.max_messages_per_second = 10;
  MessageMatch lone({config}, 49);
  const std::vector<std::uint8_t> hello{'h', 'i'};
  CHECK_THROWS_AS(lone.peer(0).send_message(kNoPeer, hello), std::logic_error);  // before the match
  MessageMatch match({config, config}, 49);
  REQUIRE(match.connect());
  Peer& peer = match.peer(1);
  CHECK_THROWS_AS(peer.send_message(1, hello), std::invalid_argument);   // itself
  CHECK_THROWS_AS(peer.send_message(7, hello), std::invalid_argument);   // nobody
  CHECK_THROWS_AS(peer.send_message(0, hello, Delivery::reliable, -2), std::invalid_argument);
  CHECK_THROWS_AS(peer.send_message(0, std::vector<std::uint8_t>(1025)), std::invalid_argument);
  config.messages.max_message_bytes = 4096;
  config.messages.max_bytes_per_second = 8192;
  MessageMatch big({config, config}, 50);
  REQUIRE(big.connect());
  CHECK(big.peer(1).send_message(0, std::vector<std::uint8_t>(4096)));
  CHECK_THROWS_AS(big.peer(1).send_message(0, std::vector<std::uint8_t>(kMaxUnreliableMessageBytes + 1), Delivery::unreliable),
                  std::invalid_argument);
  try {
    peer.send_message(0, std::vector<std::uint8_t>(1025));
  } catch (const std::invalid_argument& e) {
    CHECK(std::string(e.what()).find("max_message_bytes") != std::string::npos);
  }
  int sent = 0;
  for (int i = 0; i < 50; ++i) sent += peer.send_message(0, hello) ? 1 : 0;
  CHECK(sent == 10);  // one second's worth, then refused until time passes
  match.run(0.5, [] {});
  CHECK(peer.send_message(0, hello));
  PeerConfig bad;
  bad.messages.max_message_bytes = 0;
  CHECK_THROWS_AS(MessageMatch({bad}, 1), std::invalid_argument);
  bad = {};
  bad.messages.max_bytes_per_second = 10;
  CHECK_THROWS_AS(MessageMatch({bad}, 1), std::invalid_argument);
}

TEST_CASE("messages: to everyone, unreliable, with a frame tag") {
  MessageMatch match({PeerConfig{}, PeerConfig{}, PeerConfig{}}, 51);
  REQUIRE(match.connect());
  REQUIRE(match.peer(2).send_message(kNoPeer, {std::vector<std::uint8_t>{9, 8, 7}}, Delivery::unreliable, 1234));
  Inbox zero, one, two;
  match.run(0.5, [&] {
    zero.take(match.peer(0));
    one.take(match.peer(1));
    two.take(match.peer(2));
  });
  for (Inbox* inbox : {&zero, &one}) {
    REQUIRE(inbox->from[2].size() == 1);
    const Event& e = inbox->from[2][0];
    CHECK(e.frame == 1234);
    CHECK_FALSE(e.reliable);
    CHECK(e.bytes == std::vector<std::uint8_t>{9, 8, 7});
  }
  CHECK(two.from.empty());  // not to itself
}

TEST_CASE("log hook: says why Shoal dropped something, at the level asked, and only then") {
  std::vector<std::pair<LogLevel, std::string>> lines;
  PeerConfig victim;
  victim.log.callback = [&](LogLevel level, std::string_view text) { lines.emplace_back(level, std::string(text)); };
  victim.log.level = LogLevel::warn;
  MessageMatch match({victim, flooder()}, 53);
  REQUIRE(match.connect());
  lines.clear();
  REQUIRE(match.peer(1).send_message(0, std::vector<std::uint8_t>(2000, 1)));
  match.run(0.5, [&] { Inbox().take(match.peer(0)); });
  REQUIRE(lines.size() == 1);
  CHECK(lines[0].first == LogLevel::warn);
  CHECK(lines[0].second.find("oversize") != std::string::npos);
  // Over a sender's rate is routine: debug, below the level asked, so not even formatted.
  lines.clear();
  for (int i = 0; i < 200; ++i) match.peer(1).send_message(0, std::vector<std::uint8_t>(1000, 1));
  match.run(0.5, [&] { Inbox().take(match.peer(0)); });
  CHECK(match.peer(0).stats().dropped[DropReason::over_limit] > 0);
  CHECK(lines.empty());
}

TEST_CASE("log hook: a join that fails says where and why, at error") {
  std::vector<std::pair<LogLevel, std::string>> lines;
  PeerConfig config;
  config.join_timeout_ms = 200;
  config.log.callback = [&](LogLevel level, std::string_view text) { lines.emplace_back(level, std::string(text)); };
  MessageMatch match({PeerConfig{}}, 55);
  Player joiner = make_player(match.spec, 1, config, match.net.create_endpoint(9, 2000));
  joiner.peer->join(Address{"mem", 4242});  // nobody there
  match.players.push_back(std::move(joiner));
  match.run(1, [] {});
  bool found = false;
  for (const auto& [level, text] : lines) found = found || (level == LogLevel::error && text.find("join failed") != std::string::npos);
  CHECK(found);
}

TEST_CASE("messages: messages the full event queue pushes out no longer count as waiting") {
  // Two senders, each under the victim's per-sender queue limit, together past the 4096
  // events the queue holds: it drops the oldest, which must leave their senders' counts too,
  // or they would be refused for ever after.
  PeerConfig victim = flooder();
  victim.messages.max_queued = 4096;
  MessageMatch match({victim, flooder(), flooder()}, 57);
  REQUIRE(match.connect());
  Inbox().take(match.peer(0));
  std::uint32_t n = 0;
  match.run(1, [&] {
    for (int i = 0; i < 50; ++i, ++n) {
      CHECK(match.peer(1).send_message(0, numbered(n)));
      CHECK(match.peer(2).send_message(0, numbered(n)));
    }
  });
  match.run(0.5, [] {});
  REQUIRE(2 * n > 4096);
  CHECK(match.peer(0).stats().messages_received == 2 * n);
  CHECK(match.peer(0).stats().messages_queued <= 4096);
  Inbox inbox;
  inbox.take(match.peer(0));
  CHECK(inbox.from[1].size() + inbox.from[2].size() <= 4096);
  CHECK(number_of(inbox.from[1].back().bytes) == n - 1);  // the newest stayed
  CHECK(match.peer(0).stats().messages_queued == 0);
  REQUIRE(match.peer(1).send_message(0, numbered(n)));
  REQUIRE(match.peer(2).send_message(0, numbered(n)));
  inbox = {};
  match.run(0.5, [&] { inbox.take(match.peer(0)); });
  REQUIRE(inbox.from[1].size() == 1);
  REQUIRE(inbox.from[2].size() == 1);
  CHECK(match.peer(0).stats().dropped[DropReason::over_limit] == 0);
}
