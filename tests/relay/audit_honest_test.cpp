// SPDX-License-Identifier: MIT
// An auditor's verdicts on honest owners, on the in-process network: every snapshot a peer
// sends is shown to an auditor as a relay would show it. Honest owners must never disagree
// with its re-simulations, or an auditing relay expels honest players.
#include <doctest/doctest.h>

#include "audit_arena.hpp"
#include "peer/hostile_peers.hpp"
#include "shoal/forwarding_transport.hpp"

using namespace shoal;
using namespace shoal::test;

namespace {

const ArenaSpec kSpec{3, 6, 10};

// Shows everything its peer sends to an auditor: slot = peer + 1, the receiver by connection.
class AuditTap final : public ForwardingTransport {
 public:
  AuditTap(std::unique_ptr<Transport> inner, Auditor& auditor, std::uint16_t slot)
      : ForwardingTransport(std::move(inner)), auditor_(auditor), slot_(slot) {}
  bool send(ConnectionId c, Channel channel, std::span<const std::uint8_t> bytes) override {
    auditor_.observe(slot_, static_cast<std::uint16_t>(1000 + c), channel, bytes);
    return inner().send(c, channel, bytes);
  }

 private:
  Auditor& auditor_;
  std::uint16_t slot_;
};

AuditConfig audit_config() {
  AuditConfig c = arena_audit_config(kSpec);
  c.sample_probability = 1;  // every owner frame: as many checks as there can be
  return c;
}

// Bots play 30 s in a 3-peer match, every peer's sends audited. With `liar_crashes_after_s`,
// peer 2 lifts the objects it sends and crashes after that long: the others simulate its
// objects unsent until they time it out, then the host owns them. Returns the stats by slot.
std::vector<AuditPeerStats> audited_match(std::uint64_t seed, const AuditConfig& audit,
                                          std::optional<double> liar_crashes_after_s) {
  Auditor auditor(audit);
  FakeMatch m(3, kSpec, PeerConfig{}, seed, -1, [&](int p, std::unique_ptr<Transport> t) {
    std::unique_ptr<Transport> tapped =
        std::make_unique<AuditTap>(std::move(t), auditor, static_cast<std::uint16_t>(p + 1));
    if (p != 2 || !liar_crashes_after_s) return tapped;
    return std::unique_ptr<Transport>(std::make_unique<LyingTransport>(std::move(tapped), 82));
  });
  REQUIRE(m.connect());
  m.enable_bots(seed * 10);
  const double play_before = liar_crashes_after_s.value_or(0);
  m.run(play_before);
  if (liar_crashes_after_s) {
    m.network().crash(3);
    m.players[2].alive = false;
  }
  m.run(30 - play_before);
  std::vector<AuditPeerStats> stats = auditor.stats();
  REQUIRE(stats.size() == 3);
  for (const AuditPeerStats& s : stats) {
    MESSAGE("seed " << seed << " slot " << s.slot << ": " << s.mismatches << "/" << s.samples << " mismatched, "
                    << s.skipped << " skipped, max error " << s.max_error_m << " m");
  }
  return stats;
}

}  // namespace

TEST_CASE("an auditor agrees with honest owners over 30 s of bot play") {
  std::uint64_t samples = 0;
  for (std::uint64_t seed : {1, 2, 3}) {
    for (const AuditPeerStats& s : audited_match(seed, audit_config(), std::nullopt)) {
      samples += s.samples;
      CHECK(s.mismatches == 0);
      CHECK(!s.suspect);
    }
  }
  CHECK(samples >= 1000);  // enough checks for "none" to mean something
}

// Until the others time out a crashed (or expelled) peer, nobody sends its objects, and each
// honest peer simulates them on its own; the auditor's newest frame of such an object grows
// old while it falls or rolls on. An honest owner's object that it hits must not count
// against that owner: the auditor gives it all the room it could have covered.
TEST_CASE("an auditor agrees with honest owners whose objects a crashed liar's unsent ball hits") {
  for (std::uint64_t seed : {1, 2, 3, 4, 5, 6}) {
    const std::vector<AuditPeerStats> stats = audited_match(seed, audit_config(), 5.0);
    CHECK(stats[0].mismatches == 0);
    CHECK(stats[1].mismatches == 0);
    CHECK(stats[2].suspect);  // the liar was caught before it crashed
  }
  // The hazard is real in this scenario: an auditor that assumes unsent objects keep their
  // last known speed counts the hit against the honest owner.
  AuditConfig naive = audit_config();
  naive.max_acceleration_mps2 = 0;
  const std::vector<AuditPeerStats> stats = audited_match(5, naive, 5.0);
  CHECK(stats[0].mismatches + stats[1].mismatches > 0);
}
