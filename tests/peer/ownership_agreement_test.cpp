// SPDX-License-Identifier: MIT
// Every peer applies the same ownership changes, however differently it sees the claimant.
// Found with the recorder: in a 6-peer match at 20% loss on a loaded machine, a peer stepping
// four frames per update saw a claimant's player metres behind where it was, refused its claim
// as implausible (outside the claimant's simulated region), and kept the previous owner while
// everyone else followed the claimant. Each side then waited for the other's snapshots, and
// the world settled different on that peer (tens of centimetres to metres).
#include <doctest/doctest.h>

#include <memory>

#include "match_harness.hpp"
#include "shoal/forwarding_transport.hpp"

using namespace shoal;
using namespace shoal::test;

namespace {

// Hides every snapshot from its peer while `blind` holds: the peer sees the others' players
// where they were when it went blind (its view of their regions goes stale).
class SnapshotBlind final : public ForwardingTransport {
 public:
  SnapshotBlind(std::unique_ptr<Transport> inner, const bool& blind)
      : ForwardingTransport(std::move(inner)), blind_(blind) {}
  bool poll(TransportEvent& event) override {
    for (int i = 0; i < 100'000; ++i) {
      if (!inner().poll(event)) return false;
      if (!(blind_ && event.kind == TransportEventKind::message && event.channel == Channel::state)) return true;
    }
    return false;
  }

 private:
  const bool& blind_;
};

}  // namespace

TEST_CASE("ownership: a claim from beyond its claimant's region, as one receiver sees it, counts there too") {
  const ArenaSpec spec{3, 9, 12};
  PeerConfig config;
  config.authority.simulated_radius = 2;  // views of a claimant's region part within metres
  bool blind = false;
  const TransportWrapper wrap = [&](int p, std::unique_ptr<Transport> t) -> std::unique_ptr<Transport> {
    if (p != 2) return t;
    return std::make_unique<SnapshotBlind>(std::move(t), blind);
  };
  FakeMatch m(3, spec, config, 41, -1, wrap);
  REQUIRE(m.connect(5));
  m.run(1);  // every peer learns which player each drives (from its snapshots)
  blind = true;
  Player& claimant = m.players[1];
  // The shared object farthest from the claimant's player: it drives there and claims it.
  ObjectId target = kFirstObject;
  for (int i = 0; i < spec.objects; ++i) {
    const ObjectId id = kFirstObject + static_cast<ObjectId>(i);
    if (distance(claimant.peer->state(id).position, claimant.peer->state(claimant.ball).position) >
        distance(claimant.peer->state(target).position, claimant.peer->state(claimant.ball).position)) {
      target = id;
    }
  }
  const Vec3 seen_from = m.players[2].peer->state(claimant.ball).position;
  bool claimed = false;
  m.run(10, [&] {
    if (claimed) return;
    const Vec3 to = claimant.peer->state(target).position - claimant.peer->state(claimant.ball).position;
    claimant.peer->set_input({normalized(Vec3{to.x, 0, to.z}), 0});
    claimed = claimant.peer->owner(target) == 1;
    if (claimed) claimant.peer->set_input({});
  });
  REQUIRE(claimed);
  // The blind peer still sees the claimant where it started, far from what it claimed.
  CHECK(distance(m.players[2].peer->state(claimant.ball).position, seen_from) < 0.5f);
  CHECK(distance(seen_from, m.players[2].peer->state(target).position) > config.authority.simulated_radius + 2);
  m.run(1);  // the claim reaches everyone
  CHECK(m.players[0].peer->owner(target) == 1);
  CHECK(m.players[2].peer->owner(target) == 1);
  blind = false;
  CHECK(m.settle(15));
  CHECK(owners_agree(m.players, target));
  const Divergence d = divergence(m.players, all_ids(spec));
  CHECK(d.objects_compared > 0);
  CHECK(d.bitwise);
}
