#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""A headless match of three peers in one Python process, with bots, on a bad network; prints a verdict.

    build/bin/shoal-python bindings/python/samples/headless_match.py --loss 0.1 --latency-ms 20
    build/bin/shoal-python bindings/python/samples/headless_match.py --network memory   # in-process, deterministic

Each peer has its own copy of shoal-lan-match's arena and its own transport: ENet on loopback
with the seeded link conditioner, or the in-process MemoryNetwork driven on a fake clock. Bots
push the shared objects around for --seconds, the world then settles, and every peer's states of
the same frame are compared bit for bit (as shoal-lan-match's verdict does). Exit 0 when they
are the same bits, nothing is lost and every body has a live owner all agree on; else 1.
"""
from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass

import numpy as np

import shoal
from lan_match_world import Arena, Bot, Timeline

RENDER_US = 16_667  # the in-process network's fake clock advances one 60 Hz render frame per loop


def parse_arguments(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--peers", type=int, default=3)
    parser.add_argument("--objects", type=int, default=30)
    parser.add_argument("--seconds", type=float, default=4, help="how long the bots play")
    parser.add_argument("--settle-seconds", type=float, default=4, help="then how long the world settles")
    parser.add_argument("--loss", type=float, default=0.1, help="fraction of datagrams lost, each direction")
    parser.add_argument("--latency-ms", type=float, default=20, help="one-way latency")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--network", choices=("enet", "memory"), default="enet")
    parser.add_argument("--record", metavar="DIR", help="every peer records itself to DIR/peer-I.shoalrec")
    return parser.parse_args(argv)


class Match:
    """The peers, their worlds and how time passes for them."""

    def __init__(self, args: argparse.Namespace):
        self.args = args
        self.arena = Arena(args.peers, args.objects)
        self.timeline = Timeline.of(args.seconds, args.settle_seconds)
        link = shoal.LinkConditions(loss=args.loss, latency_ms=args.latency_ms)
        self.network = None
        if args.network == "memory":
            self.network = shoal.MemoryNetwork(args.seed)
            self.network.set_conditions(link)
            self.network.time_us = 1_000_000
        authority = shoal.SessionAuthority("python-match")
        self.worlds = [self.arena.build() for _ in range(args.peers)]
        self.peers = []
        for index, world in enumerate(self.worlds):
            if self.network is not None:
                security = shoal.SecurityConfig(credentials=authority.invite())
                transport = shoal.secure_transport(self.network.endpoint(), security)
            else:
                conditioner = shoal.ConditionerConfig(outbound=link, seed=args.seed * 1000 + index + 1)
                transport = shoal.enet_transport(credentials=authority.invite(), conditioner=conditioner)
            peer = shoal.Peer(shoal.PeerConfig(session="python-match"), world, transport)
            if args.record:
                peer.record(f"{args.record}/peer-{index}.shoalrec", self.arena.describe())
            self.peers.append(peer)
        self.bots: dict[int, Bot] = {}

    def close(self) -> None:
        for peer in self.peers:
            peer.close()

    def tick(self) -> None:
        """One render frame of every peer: inputs, update, events."""
        playing = len(self.bots) == len(self.peers) and all(len(p.peers) == len(self.peers) for p in self.peers)
        for index, peer in enumerate(self.peers):
            bot = self.bots.get(index)
            if bot is not None and playing:
                ball = self.arena.ball_of(peer.id)
                peer.set_input(bot.input(peer, ball) if peer.frame < self.timeline.bots_stop else shoal.Input())
            if self.network is not None:
                peer.update_at(self.network.time_us)
            else:
                peer.update()
            for event in peer.events():
                if event.kind == shoal.EventKind.joined_match:
                    peer.set_controlled(self.arena.ball_of(event.peer))
                    self.bots[index] = Bot(self.args.seed * 1000 + event.peer, self.arena, 60.0)
                elif event.kind in (shoal.EventKind.join_failed, shoal.EventKind.desync):
                    raise RuntimeError(f"peer {index}: {event}")
        if self.network is not None:
            self.network.time_us += RENDER_US
        else:
            self.peers[0].wait(2)  # paces the loop; traffic on peer 0's socket ends it early

    def run_until(self, frame: int, seconds: float) -> None:
        """Ticks until every peer has simulated `frame` (within `seconds` of match time, or
        three times that on the wall clock for the ENet match)."""
        ticks = int(seconds * 60) + 600
        deadline = time.monotonic() + 3 * seconds + 30
        for _ in range(ticks if self.network is not None else 10**9):
            if all(p.frame >= frame for p in self.peers):
                return
            if self.network is None and time.monotonic() > deadline:
                break
            self.tick()
        raise RuntimeError(f"the peers did not reach frame {frame}: at {[p.frame for p in self.peers]}")


@dataclass
class Verdict:
    frame: int             # the frame compared
    at_rest: bool          # every peer saw every body at rest there
    lost: int              # states some peer did not hold
    differing: list[int]   # bodies whose states are not the same bits on every peer
    owners_agree: bool     # every peer names the same owner for every body, a live one

    @property
    def consistent(self) -> bool:
        return self.lost == 0 and not self.differing and self.owners_agree


def verdict(match: Match) -> Verdict:
    """Compares every peer's states of one frame, as shoal-lan-match's verdict does: the first
    whole second from the comparison frame on where every peer sees every body at rest."""
    t = match.timeline
    for frame in range(t.compare, t.final_frame + 1, t.sample_interval):
        match.run_until(frame + t.report_delay, t.seconds_at(frame) + 5)
        states = [p.states_at(frame) for p in match.peers]
        if all(s["at_rest"].all() for s in states):
            break
    lost = sum(int(np.isnan(s["position"][:, 0]).sum()) for s in states)
    # The records' padding is zeroed: equal bytes are equal bits, field by field.
    rows = [s.view(np.uint8).reshape(len(s), -1) for s in states]
    differing = sorted({int(i) for r in rows[1:] for i in np.nonzero((r != rows[0]).any(axis=1))[0]})
    owners = [p.owners() for p in match.peers]
    live = set(match.peers[0].peers)
    owners_agree = all(np.array_equal(o, owners[0]) for o in owners) and all(int(o) in live for o in owners[0])
    result = Verdict(frame, all(s["at_rest"].all() for s in states), lost, differing, owners_agree)
    positions = np.stack([s["position"] for s in states])
    spread = float(np.max(np.linalg.norm(positions - positions[0], axis=2))) if lost == 0 else float("nan")
    print(f"{len(match.peers)} peers, {len(states[0])} bodies compared at frame {frame} "
          f"({'all at rest' if result.at_rest else 'some still moving'}); network {match.args.network}, "
          f"{match.args.loss * 100:g}% loss, {match.args.latency_ms:g} ms")
    for p in match.peers:
        s = p.stats()
        print(f"  peer {p.id}: frame {s.frame}, {s.overrides} overrides, {s.catchup_frames} frames caught up, "
              f"{s.ownership_changes} ownership changes, owns {s.owned_objects}")
    print(f"largest position difference {spread:.6f} m; {len(differing)} bodies differ in bits; {lost} states lost; "
          f"owners {'agree, all live' if owners_agree else 'DISAGREE or are gone'}")
    for body in differing[:5]:
        print(f"  body {body} (object {int(states[0]['id'][body])}): " +
              " | ".join(f"{tuple(float(v) for v in s['position'][body])}{' rest' if s['at_rest'][body] else ''}"
                         for s in states))
    print("CONSISTENT: the same bits on every peer, nothing lost" if result.consistent else "NOT CONSISTENT")
    return result


def play(match: Match) -> Verdict:
    """Hosts, joins every other peer, plays and settles; the verdict."""
    match.peers[0].host()
    for peer in match.peers[1:]:
        peer.join(match.peers[0].address)
    match.run_until(0, 20)
    return verdict(match)


def main() -> int:
    match = Match(parse_arguments(sys.argv[1:]))
    try:
        return 0 if play(match).consistent else 1
    finally:
        match.close()


if __name__ == "__main__":
    sys.exit(main())
