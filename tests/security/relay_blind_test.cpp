// SPDX-License-Identifier: MIT
// A relay in the middle of a secured match forwards ciphertext only: among everything it
// forwards there is no Shoal message (every one begins with the wire header), no snapshot, not
// the session's name (which every join and hello carries) and not the exact position of any
// object at rest when the joiner came (which the host's baseline to the joiner carries, as
// f32). In the clear, the same match shows the relay all of these.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <vector>
#include <string>

#include "../relay/relay_harness.hpp"
#include "wire/packet_header.hpp"

using namespace shoal;
using namespace shoal::test;

namespace {

constexpr const char* kSessionName = "the-secret-garden-match";

struct Forwarded {
  std::size_t messages = 0;
  std::size_t shoal_messages = 0;  ///< beginning with the wire header
  std::size_t snapshots = 0;       ///< ...of the snapshot kind
  std::size_t naming_session = 0;  ///< containing the session's name
  std::size_t known_states = 0;    ///< containing the position of a resting object
  std::vector<std::vector<std::uint8_t>> payloads;  ///< everything forwarded, to search later
};

// How many of `payloads` contain the 12 bytes (three f32) of a resting object's position.
std::size_t count_known_states(const std::vector<std::vector<std::uint8_t>>& payloads,
                               const std::vector<ObjectState>& resting) {
  std::size_t count = 0;
  for (const auto& bytes : payloads) {
    for (const ObjectState& s : resting) {
      std::uint8_t pattern[12];
      std::memcpy(pattern, &s.position, sizeof pattern);
      if (std::search(bytes.begin(), bytes.end(), std::begin(pattern), std::end(pattern)) != bytes.end()) {
        ++count;
        break;
      }
    }
  }
  return count;
}

Forwarded watch_relayed_match(bool secure) {
  Forwarded seen;
  transport::RelayServerConfig relay_config;
  relay_config.observer = [&](const std::string&, transport::Slot, transport::Slot, Channel,
                              std::span<const std::uint8_t> bytes) {
    ++seen.messages;
    seen.payloads.emplace_back(bytes.begin(), bytes.end());
    const bool header = bytes.size() >= wire::kHeaderSize && bytes[0] == 'S' && bytes[1] == 'H' &&
                        bytes[2] == wire::kProtocolVersion;
    if (header) ++seen.shoal_messages;
    if (header && bytes[3] == static_cast<std::uint8_t>(wire::MessageKind::snapshot)) ++seen.snapshots;
    const std::string_view name(kSessionName);
    if (std::search(bytes.begin(), bytes.end(), name.begin(), name.end()) != bytes.end()) ++seen.naming_session;
  };
  transport::RelayServer relay(relay_config);
  const ArenaSpec spec{2, 4};
  std::vector<Player> players;
  PeerConfig config;
  config.session = kSessionName;
  for (int p = 0; p < 2; ++p) {
    Player player;
    player.physics = std::make_unique<ReferencePhysics>(arena_physics(spec));
    build_arena(*player.physics, spec);
    RelayClientConfig client = client_config(relay.address(), "blind", p == 0 ? kRelayHostSlot : 0);
    client.local.security.enabled = secure;
    player.peer = std::make_unique<Peer>(config, *player.physics, make_relay_transport(client));
    player.ball = kFirstBall + static_cast<ObjectId>(p);
    player.peer->set_controlled(player.ball);
    players.push_back(std::move(player));
  }
  players[0].peer->host();
  players[1].peer->join(relay_host_address());
  REQUIRE(run_peers(relay, players, 10, [&] { return all_connected(players); }));
  // The objects at rest now were at rest when the host sent the joiner their baseline.
  std::vector<ObjectState> resting;
  for (const ObjectId id : all_ids(spec)) {
    const ObjectState s = players[0].peer->state(id);
    if (s.at_rest) resting.push_back(s);
  }
  REQUIRE_FALSE(resting.empty());
  seen.known_states = count_known_states(seen.payloads, resting);
  play_then_settle(relay, players, spec, 5);
  for (const Player& p : players) CHECK(p.peer->stats().snapshots_received > 0);
  return seen;
}

}  // namespace

TEST_CASE("a relay in the middle sees no plaintext state") {
  const Forwarded in_clear = watch_relayed_match(false);
  CHECK(in_clear.snapshots > 0);
  CHECK(in_clear.naming_session > 0);
  CHECK(in_clear.known_states > 0);

  const Forwarded sealed = watch_relayed_match(true);
  MESSAGE("the relay forwarded " << sealed.messages << " messages of a secured match, " << in_clear.messages
                                 << " in the clear");
  CHECK(sealed.messages > 100);
  CHECK(sealed.shoal_messages == 0);
  CHECK(sealed.snapshots == 0);
  CHECK(sealed.naming_session == 0);
  CHECK(sealed.known_states == 0);
}
